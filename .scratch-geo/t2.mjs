import { s2, s1 } from 's2js';
const R = 6371010;
const toPt = (lng, lat) => { const phi = lat * (Math.PI/180), th = lng*(Math.PI/180); const c = Math.cos(phi); return new s2.Point(Math.cos(th)*c, Math.sin(th)*c, Math.sin(phi)); };
const loopOf = (coords) => new s2.Loop(coords.map(c => toPt(...c)));
const L1 = loopOf([[-73.99, 40.75], [-73.98, 40.75], [-73.98, 40.76], [-73.99, 40.76]]);
console.log(L1.area()*R*R, 936609.46355679);
const L2 = loopOf([[-111, 41], [-104, 41], [-104, 45], [-111, 45]]);
console.log(L2.area()*R*R, 253019996794.88388);
const pts = [[-125, 25], [-65, 25], [-65, 50], [-125, 50], [-125, 25]].map(c=>toPt(...c));
let per = 0, per2=0; for (let i=0;i+1<pts.length;i++){ per += pts[i].vector.angle(pts[i+1].vector); per2 += s1.chordangle? 0:0;}
console.log(per*R, 15721531.209685314);
// multipoint ordering
const cid = (lng,lat) => s2.cellid.fromPoint(toPt(lng,lat));
for (const mp of [[[2,11],[4,12],[0,15],[1,9],[1,12]], [[1,1],[2,2],[4,4],[5,2]], [[0,1],[4,3],[2,6]], [[-1,2],[0,12]]]) {
  const s = mp.map(c => [c, cid(...c)]).sort((a,b)=> a[1]<b[1]?-1:a[1]>b[1]?1:0);
  console.log(JSON.stringify(s.map(x=>x[0])));
}
console.log(cid(-122,47).toString(), BigInt.asIntN(64, cid(-122,47)).toString(), '6093613931972369317');
console.log(BigInt.asIntN(64, s2.cellid.parent(cid(-122,47), 10)).toString(), '6093613287902019584');
