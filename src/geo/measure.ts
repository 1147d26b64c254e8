/**
 * Measures on BigQuery's spherical Earth (radius 6,371,010 m, measure-const.ts), computed as S2
 * does: distances through chord angles (S2ClosestEdgeQuery), lengths as sums of edge angles
 * (S2Polyline::GetLength), areas as S2Loop::GetArea (s2js), perimeters as sums of loop edge
 * angles. MAXDISTANCE is π·R minus the distance from the antipodal geography. `use_spheroid`
 * measures on WGS84 with GeographicLib.
 */
import geodesic from 'geographiclib-geodesic';
import { EARTH_RADIUS } from './measure-const.js';
import { loopsOf, s2Loop, unsupported, vertices, type Geo, type Poly, type Pt } from './model.js';
import { intersects, lineEdges, loopEdges } from './relate.js';
import { angle, chord2, chord2ToAngle, edgeDistance2, neg, type Vec } from './vec.js';

const WGS84 = geodesic.Geodesic.WGS84;

type Edge = [Vec, Vec];
const edgesOf = (g: Geo): Edge[] => [...g.lines.flatMap(lineEdges), ...g.polys.flatMap((p) => loopsOf(p).flatMap(loopEdges))];

/** The minimum squared chord distance between two non-empty geographies that do not intersect. */
function minChord2(a: Geo, b: Geo): number {
  let best = 4;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    const ye = edgesOf(y);
    const yv = vertices(y);
    for (const p of vertices(x)) {
      for (const q of yv) best = Math.min(best, chord2(p.v, q.v));
      for (const [s, t] of ye) best = Math.min(best, edgeDistance2(p.v, s, t));
    }
  }
  return best;
}

/** ST_DISTANCE in meters; null when either side is empty. */
export function distance(a: Geo, b: Geo, spheroid = false): number | null {
  if (!vertices(a).length || !vertices(b).length) return null;
  if (spheroid) {
    if (a.points.length !== 1 || b.points.length !== 1 || vertices(a).length !== 1 || vertices(b).length !== 1)
      unsupported('use_spheroid => TRUE for geographies other than single points');
    const [p, q] = [a.points[0], b.points[0]];
    return WGS84.Inverse(p.lat, p.lng, q.lat, q.lng).s12 ?? null;
  }
  if (intersects(a, b)) return 0;
  return chord2ToAngle(minChord2(a, b)) * EARTH_RADIUS;
}

/** The antipodal geography (loops reversed so that they still bound the mirrored region). */
function antipodal(g: Geo): Geo {
  const m = (p: Pt): Pt => ({ lng: 0, lat: 0, v: neg(p.v) });
  const loop = (l: Pt[]) => l.map(m).reverse();
  return {
    points: g.points.map(m),
    lines: g.lines.map((l) => l.map(m)),
    polys: g.polys.map((p: Poly) => ({ shell: loop(p.shell), holes: p.holes.map(loop) })),
  };
}

/** ST_MAXDISTANCE in meters; null when either side is empty. */
export function maxDistance(a: Geo, b: Geo): number | null {
  if (!vertices(a).length || !vertices(b).length) return null;
  const anti = antipodal(a);
  if (intersects(anti, b)) return Math.PI * EARTH_RADIUS;
  return (Math.PI - chord2ToAngle(minChord2(anti, b))) * EARTH_RADIUS;
}

const pathLength = (vs: Pt[], spheroid: boolean): number => {
  let s = 0;
  for (let i = 0; i + 1 < vs.length; i++) s += spheroid ? (WGS84.Inverse(vs[i].lat, vs[i].lng, vs[i + 1].lat, vs[i + 1].lng).s12 ?? 0) : angle(vs[i].v, vs[i + 1].v);
  return spheroid ? s : s * EARTH_RADIUS;
};

export const length = (g: Geo, spheroid = false): number => g.lines.reduce((s, l) => s + pathLength(l, spheroid), 0);

export const perimeter = (g: Geo, spheroid = false): number =>
  g.polys.reduce((s, p) => s + loopsOf(p).reduce((t, l) => t + pathLength([...l, l[0]], spheroid), 0), 0);

function loopArea(l: Pt[], spheroid: boolean): number {
  if (!spheroid) return s2Loop(l).area() * EARTH_RADIUS * EARTH_RADIUS;
  const poly = WGS84.Polygon(false);
  for (const p of l) poly.AddPoint(p.lat, p.lng);
  return Math.abs(poly.Compute(false, true).area ?? 0);
}

export const area = (g: Geo, spheroid = false): number =>
  g.polys.reduce((s, p) => s + loopArea(p.shell, spheroid) - p.holes.reduce((t, h) => t + loopArea(h, spheroid), 0), 0);
