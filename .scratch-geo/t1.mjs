import { s2, s1 } from 's2js';
const R = 6371010;
const toPt = (lng, lat) => { const phi = lat * (Math.PI/180), th = lng*(Math.PI/180); const c = Math.cos(phi); return [Math.cos(th)*c, Math.sin(th)*c, Math.sin(phi)]; };
const toLL = (p) => [Math.atan2(p[1], p[0]) * (180/Math.PI), Math.atan2(p[2], Math.hypot(p[0], p[1])) * (180/Math.PI)];
const toLL2 = (p) => [Math.atan2(p[1], p[0]) * (180/Math.PI), Math.atan2(p[2], Math.sqrt(p[0]*p[0]+p[1]*p[1])) * (180/Math.PI)];
console.log(toLL(toPt(1,1)), toLL2(toPt(1,1)), toLL2(toPt(1.25,2.5)));
const buf = Buffer.from('AQEAAAD+///////vPwAAAAAAAPA/', 'base64'); console.log(buf.readDoubleLE(5), buf.readDoubleLE(13));
// distances
function angle(a,b){ // S2 angle: atan2(|a x b|, a.b)
  const c=[a[1]*b[2]-a[2]*b[1], a[2]*b[0]-a[0]*b[2], a[0]*b[1]-a[1]*b[0]];
  return Math.atan2(Math.hypot(...c), a[0]*b[0]+a[1]*b[1]+a[2]*b[2]);
}
function angle2(a,b){ const c=[a[1]*b[2]-a[2]*b[1], a[2]*b[0]-a[0]*b[2], a[0]*b[1]-a[1]*b[0]];
  return Math.atan2(Math.sqrt(c[0]*c[0]+c[1]*c[1]+c[2]*c[2]), a[0]*b[0]+a[1]*b[1]+a[2]*b[2]);}
function chord(a,b){ const d=[a[0]-b[0],a[1]-b[1],a[2]-b[2]]; const l2 = Math.min(4, d[0]*d[0]+d[1]*d[1]+d[2]*d[2]); return 2*Math.asin(0.5*Math.sqrt(l2)); }
function hav(l1, p1, l2, p2){ const r=Math.PI/180; const dl=(l2-l1)*r, dp=(p2-p1)*r; const h=Math.sin(dp/2)**2+Math.cos(p1*r)*Math.cos(p2*r)*Math.sin(dl/2)**2; return 2*Math.asin(Math.sqrt(h)); }
const cases = [[[-74.0060, 40.7128],[-118.2437, 34.0522], 3935752.432205476],[[0,0],[1,1],157249.6280925079],[[-73.9857, 40.7580],[-73.9857, 40.8480],10007.559105973656],[[-74.0060, 40.7128],[-74.7430, 40.2206],82960.36216149233],[[-74.0060, 40.7128],[-104.9903, 39.7392],2619059.5343353697],[[-122.4194, 37.7749],[-118.2437, 34.0522],559121.4546640904],[[0,80],[10,80],192850.64753185026]];
for (const [a,b,exp] of cases) {
  const pa=toPt(...a), pb=toPt(...b);
  const vals = {angle: angle(pa,pb)*R, angle2: angle2(pa,pb)*R, chord: chord(pa,pb)*R, hav: hav(a[0],a[1],b[0],b[1])*R};
  console.log(exp, Object.entries(vals).map(([k,v])=>`${k}:${v} (${((v-exp)/exp).toExponential(2)})`).join('  '));
}
