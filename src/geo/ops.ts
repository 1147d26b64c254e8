/**
 * Accessors and transformations that the emulator answers exactly as BigQuery (S2) does. Forms
 * whose BigQuery answer depends on S2Builder snapping or S2's polygon set operations (buffers,
 * simplification, convex hulls, line/polygon overlays) raise "not supported" instead.
 */
import {
  EMPTY,
  checkLine,
  dimension,
  fail,
  loopsOf,
  normalPoints,
  numComponents,
  printedLoop,
  pt,
  ptFromVec,
  s2Loop,
  s2Point,
  unsupported,
  vertices,
  type Geo,
  type Pt,
} from './model.js';
import { coversPoint, lineEdges } from './relate.js';
import { add, angle, crossing, edgeCentroid, edgeDistance2, interpolateAtDistance, normalize, project, same, sub, type Vec } from './vec.js';

export const pointsGeo = (points: Pt[]): Geo => ({ points: normalPoints(points), lines: [], polys: [] });
export const lineGeo = (l: Pt[]): Geo => ({ points: [], lines: [l], polys: [] });

export function geometryType(g: Geo): string {
  const kinds = [g.points, g.lines, g.polys].filter((x) => x.length).length;
  if (kinds !== 1) return 'ST_GeometryCollection';
  if (g.points.length) return g.points.length === 1 ? 'ST_Point' : 'ST_MultiPoint';
  if (g.lines.length) return g.lines.length === 1 ? 'ST_LineString' : 'ST_MultiLineString';
  return g.polys.length === 1 ? 'ST_Polygon' : 'ST_MultiPolygon';
}

export const numPoints = (g: Geo): number =>
  g.points.length + g.lines.reduce((s, l) => s + l.length, 0) + g.polys.reduce((s, p) => s + loopsOf(p).reduce((t, l) => t + l.length + 1, 0), 0);

export function singlePoint(g: Geo, fn: string): Pt {
  if (g.points.length !== 1 || g.lines.length || g.polys.length) fail(`${fn} only accepts a point geography as input`);
  return g.points[0];
}

export function singleLine(g: Geo, fn: string): Pt[] {
  if (g.lines.length !== 1 || g.points.length || g.polys.length) fail(`${fn} only accepts a linestring geography as input`);
  return g.lines[0];
}

export function pointN(g: Geo, n: number): Geo {
  const l = singleLine(g, 'ST_POINTN');
  const i = n > 0 ? n - 1 : l.length + n;
  if (n === 0 || i < 0 || i >= l.length) fail(`ST_POINTN index ${n} is out of bounds for a linestring with ${l.length} vertices`);
  return pointsGeo([l[i]]);
}

const closedLine = (l: Pt[]): boolean => same(l[0].v, l[l.length - 1].v);

export const isClosed = (g: Geo): boolean => numComponents(g) > 0 && g.lines.every(closedLine);

export function isRing(g: Geo): boolean {
  if (g.lines.length !== 1 || g.points.length || g.polys.length) return false;
  const l = g.lines[0];
  if (!closedLine(l) || l.length < 4) return false;
  const e = lineEdges(l);
  for (let i = 0; i < e.length; i++)
    for (let j = i + 1; j < e.length; j++) {
      const adjacent = j === i + 1 || (i === 0 && j === e.length - 1);
      const c = crossing(e[i][0], e[i][1], e[j][0], e[j][1]);
      if (c > 0 || (c === 0 && !adjacent)) return false;
    }
  return l.slice(0, -1).every((p, i, a) => a.findIndex((q) => same(q.v, p.v)) === i);
}

/** ST_DUMP: one geography per component (points, then lines, then polygons); `dim` filters. */
export function dump(g: Geo, dim?: number): Geo[] {
  const out: Geo[] = [];
  if (dim === undefined || dim === 0) out.push(...g.points.map((p) => pointsGeo([p])));
  if (dim === undefined || dim === 1) out.push(...g.lines.map(lineGeo));
  if (dim === undefined || dim === 2) out.push(...g.polys.map((p) => ({ points: [], lines: [], polys: [p] })));
  return out;
}

export function dumpPoints(g: Geo): Geo[] {
  if (g.polys.length) unsupported('polygons');
  return [...g.points, ...g.lines.flat()].map((p) => pointsGeo([p]));
}

export function exteriorRing(g: Geo): Geo {
  if (g.polys.length !== 1 || g.points.length || g.lines.length) fail('ST_EXTERIORRING only accepts a polygon geography as input');
  const s = g.polys[0].shell;
  return lineGeo([...s, s[0]]);
}

export function interiorRings(g: Geo): Geo[] {
  if (g.polys.length !== 1 || g.points.length || g.lines.length) fail('ST_INTERIORRINGS only accepts a polygon geography as input');
  return g.polys[0].holes.map((h) => lineGeo([...h, h[0]]));
}

/** ST_BOUNDARY: line endpoints by the mod-2 rule; the ring of a polygon without holes. */
export function boundary(g: Geo): Geo {
  if (g.polys.length) {
    if (g.polys.length > 1 || g.polys[0].holes.length || g.points.length || g.lines.length) unsupported('polygons with holes, several polygons or mixed dimensions');
    const s = printedLoop(g.polys[0].shell, false);
    return lineGeo([...s, s[0]]);
  }
  const ends = g.lines.flatMap((l) => [l[0], l[l.length - 1]]);
  return pointsGeo(ends.filter((p) => ends.filter((q) => same(p.v, q.v)).length % 2 === 1));
}

/** ST_CENTROID: of the highest dimension present (S2 true centroids). */
export function centroid(g: Geo): Geo {
  let sum: Vec = [0, 0, 0];
  const dim = dimension(g);
  if (dim < 0) return EMPTY;
  if (dim === 2) {
    for (const p of g.polys)
      loopsOf(p).forEach((l, i) => {
        const c = s2Loop(l).centroid().vector;
        const v: Vec = [c.x, c.y, c.z];
        sum = i === 0 ? add(sum, v) : sub(sum, v);
      });
  } else if (dim === 1) {
    for (const l of g.lines) for (const [a, b] of lineEdges(l)) sum = add(sum, edgeCentroid(a, b));
  } else for (const p of g.points) sum = add(sum, p.v);
  if (sum[0] === 0 && sum[1] === 0 && sum[2] === 0) unsupported('the centroid of a geography whose parts cancel out');
  return pointsGeo([ptFromVec(normalize(sum))]);
}

/** ST_CLOSESTPOINT: the point of a nearest to b (a and b must not meet, or b is a point of a). */
export function closestPoint(a: Geo, b: Geo): Geo {
  if (!vertices(a).length || !vertices(b).length) return EMPTY;
  const bv = vertices(b);
  if (bv.length === 1 && coversPoint(a, bv[0].v)) return pointsGeo([bv[0]]);
  let best = Infinity;
  let at: Vec | undefined;
  const consider = (d: number, p: Vec) => {
    if (d < best) [best, at] = [d, p];
  };
  const aEdges = [...a.lines.flatMap(lineEdges), ...a.polys.flatMap((p) => loopsOf(p).flatMap((l) => lineEdges([...l, l[0]])))];
  const bEdges = [...b.lines.flatMap(lineEdges), ...b.polys.flatMap((p) => loopsOf(p).flatMap((l) => lineEdges([...l, l[0]])))];
  for (const x of bv) {
    for (const p of vertices(a)) consider(edgeDistance2(x.v, p.v, p.v), p.v);
    for (const [s, t] of aEdges) consider(edgeDistance2(x.v, s, t), project(x.v, s, t));
  }
  for (const p of vertices(a)) for (const [s, t] of bEdges) consider(edgeDistance2(p.v, s, t), p.v);
  if (a.polys.length || b.polys.length) {
    const meets = bv.some((x) => coversPoint(a, x.v)) || vertices(a).some((p) => coversPoint(b, p.v));
    if (meets || best === 0) unsupported('geographies that intersect');
  }
  return pointsGeo([ptFromVec(at!)]);
}

const onlyPoints = (g: Geo): boolean => !g.lines.length && !g.polys.length;

export function union(gs: Geo[]): Geo {
  const nonEmpty = gs.filter((g) => numComponents(g) > 0);
  if (nonEmpty.length === 1) return nonEmpty[0];
  if (!nonEmpty.every(onlyPoints)) unsupported('lines or polygons (S2BooleanOperation output is not reproduced)');
  return pointsGeo(nonEmpty.flatMap((g) => g.points));
}

export function intersection(a: Geo, b: Geo): Geo {
  if (onlyPoints(a)) return pointsGeo(a.points.filter((p) => coversPoint(b, p.v)));
  if (onlyPoints(b)) return pointsGeo(b.points.filter((p) => coversPoint(a, p.v)));
  return unsupported('lines or polygons (S2BooleanOperation output is not reproduced)');
}

export function difference(a: Geo, b: Geo): Geo {
  if (!numComponents(b) || !numComponents(a)) return a;
  if (onlyPoints(a)) return pointsGeo(a.points.filter((p) => !coversPoint(b, p.v)));
  return unsupported('lines or polygons (S2BooleanOperation output is not reproduced)');
}

/** ST_SNAPTOGRID for points: coordinates rounded to a power-of-ten grid (in degrees). */
export function snapToGrid(g: Geo, size: number): Geo {
  if (!onlyPoints(g)) unsupported('lines or polygons');
  const e = Math.round(-Math.log10(size));
  if (!(size > 0) || Math.abs(10 ** -e - size) > 1e-12 * size || e < 1 || e > 9) unsupported(`grid size ${size} (only 1e-1 … 1e-9)`);
  const k = 10 ** e;
  return pointsGeo(g.points.map((p) => pt(Math.round(p.lng * k) / k, Math.round(p.lat * k) / k)));
}

/** ST_LINEINTERPOLATEPOINT (S2Polyline::Interpolate). */
export function lineInterpolate(g: Geo, f: number): Geo {
  const l = singleLine(g, 'ST_LINEINTERPOLATEPOINT');
  if (!(f >= 0 && f <= 1)) fail('ST_LINEINTERPOLATEPOINT fraction must be between 0 and 1');
  return pointsGeo([at(l, f).p]);
}

/** The point at fraction f of a polyline's length, with the index of the edge it lies on. */
function at(l: Pt[], f: number): { p: Pt; i: number } {
  if (f <= 0) return { p: l[0], i: 0 };
  let total = 0;
  for (let i = 0; i + 1 < l.length; i++) total += angle(l[i].v, l[i + 1].v);
  let target = f * total;
  for (let i = 0; i + 1 < l.length; i++) {
    const len = angle(l[i].v, l[i + 1].v);
    if (target < len) return { p: ptFromVec(interpolateAtDistance(target, l[i].v, l[i + 1].v)), i };
    target -= len;
  }
  return { p: l[l.length - 1], i: l.length - 1 };
}

/** ST_LINESUBSTRING (a point when the fractions meet). */
export function lineSubstring(g: Geo, f0: number, f1: number): Geo {
  const l = singleLine(g, 'ST_LINESUBSTRING');
  if (!(f0 >= 0 && f0 <= 1 && f1 >= 0 && f1 <= 1)) fail('ST_LINESUBSTRING fractions must be between 0 and 1');
  if (f0 > f1) return EMPTY;
  const a = at(l, f0);
  const b = at(l, f1);
  const vs = [a.p, ...l.slice(a.i + 1, b.i + 1), b.p];
  const line = vs.filter((p, i) => i === 0 || !same(p.v, vs[i - 1].v));
  return line.length === 1 ? pointsGeo(line) : lineGeo(checkLine(line));
}

export interface Box {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** Latitude extremes of an edge interior (the great circle's highest/lowest point when inside the edge). */
function edgeLatitudes(a: Vec, b: Vec): number[] {
  const n = normalize([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]);
  const top = normalize([-n[0] * n[2], -n[1] * n[2], 1 - n[2] * n[2]]);
  const out: number[] = [];
  for (const m of [top, [-top[0], -top[1], -top[2]] as Vec]) {
    const inside = edgeDistance2(m, a, b) < Math.min(edgeDistance2(m, a, a), edgeDistance2(m, b, b));
    if (inside) out.push(ptFromVec(m).lat);
  }
  return out;
}

const POLES = [pt(0, 90), pt(0, -90)];

/** ST_BOUNDINGBOX: the smallest longitude interval (xmax may exceed 180 across the antimeridian). */
export function boundingBox(gs: Geo[]): Box | null {
  const lats: number[] = [];
  const arcs: [number, number][] = []; // [start, length in degrees]
  for (const g of gs) {
    for (const p of g.polys) if (POLES.some((q) => s2Loop(p.shell).containsPoint(s2Point(q)))) unsupported('polygons containing a pole');
    for (const p of g.points) arcs.push([p.lng, 0]), lats.push(p.lat);
    for (const c of [...g.lines, ...g.polys.flatMap((p) => loopsOf(p).map((l) => [...l, l[0]]))]) {
      for (const p of c) lats.push(p.lat);
      for (let k = 0; k + 1 < c.length; k++) {
        lats.push(...edgeLatitudes(c[k].v, c[k + 1].v));
        let d = c[k + 1].lng - c[k].lng;
        if (d > 180) d -= 360;
        if (d < -180) d += 360;
        arcs.push(d >= 0 ? [c[k].lng, d] : [c[k + 1].lng, -d]);
      }
    }
  }
  if (!lats.length) return null;
  const iv = arcs.map(([s0, len]) => {
    const s = ((((s0 + 180) % 360) + 360) % 360) - 180;
    return [s, s + len] as [number, number];
  });
  iv.sort((p, q) => p[0] - q[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of iv) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  while (merged.length > 1 && merged[merged.length - 1][1] >= merged[0][0] + 360) {
    const last = merged.pop()!;
    merged[0] = [last[0] - 360, Math.max(merged[0][1], last[1] - 360)];
  }
  const ymin = Math.min(...lats);
  const ymax = Math.max(...lats);
  if (merged.some(([s, e]) => e - s >= 360)) return { xmin: -180, ymin, xmax: 180, ymax };
  let best = -1;
  let xmin = merged[0][0];
  for (let i = 0; i < merged.length; i++) {
    const next = i + 1 < merged.length ? merged[i + 1][0] : merged[0][0] + 360;
    const gap = next - merged[i][1];
    if (gap > best) [best, xmin] = [gap, next];
  }
  const width = 360 - best;
  while (xmin >= 180) xmin -= 360;
  while (xmin < -180) xmin += 360;
  return { xmin, ymin, xmax: xmin + width, ymax };
}
