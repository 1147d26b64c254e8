import { s2, s1 } from 's2js';
const R = 6371010;
const toPt = (lng, lat) => { const phi = lat * (Math.PI/180), th = lng*(Math.PI/180); const c = Math.cos(phi); return new s2.Point(Math.cos(th)*c, Math.sin(th)*c, Math.sin(phi)); };
const exp = 936609.46355679;
const c = [[-73.99, 40.75], [-73.98, 40.75], [-73.98, 40.76], [-73.99, 40.76]];
const P = c.map(x=>toPt(...x));
const pm = await import('s2js').then(m=>m.s2);
console.log(Object.keys(pm));
const ang = (a,b)=>a.vector.angle(b.vector);
function lhuilier(a,b,c){ const sa=ang(b,c), sb=ang(c,a), sc=ang(a,b); const s=0.5*(sa+sb+sc); return 4*Math.atan(Math.sqrt(Math.max(0, Math.tan(0.5*s)*Math.tan(0.5*(s-sa))*Math.tan(0.5*(s-sb))*Math.tan(0.5*(s-sc))))); }
for (let o=0;o<4;o++){ const Q=[...P.slice(o),...P.slice(0,o)]; let s=0; for(let i=1;i+1<4;i++) s+=lhuilier(Q[0],Q[i],Q[i+1]); console.log('fan',o,s*R*R, (s*R*R-exp)/exp); }
