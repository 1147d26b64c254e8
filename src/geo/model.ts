/**
 * BigQuery's GEOGRAPHY value model (S2 on a spherical Earth): a set of points, polylines and
 * polygons. Coordinates are kept the way BigQuery keeps them — as S2 unit vectors — and the
 * longitude/latitude printed are those of the vector (so `POINT(1 1)` reads back as
 * 0.9999999999999998, 1 in WKB, as BigQuery answers).
 *
 * Normal form, as BigQuery's output shows it:
 * - points are de-duplicated and ordered by S2 cell id (`MULTIPOINT(2 11, 1 9)` → `MULTIPOINT(1 9, 2 11)`);
 * - polylines keep their vertex order, consecutive duplicates dropped;
 * - polygon loops are unclosed vertex lists, each oriented counter-clockwise around the region it
 *   bounds (S2Loop normal form: a clockwise ring is reversed with std::reverse, which keeps the
 *   start vertex of the reversed list at the old last vertex); a hole is stored the same way and
 *   printed reversed (S2Loop::oriented_vertex), so WKT shows shells CCW and holes CW.
 *
 * Polygons larger than a hemisphere are not supported (a ring always selects the smaller region,
 * as BigQuery does for unoriented input; oriented input selecting the larger one is rejected).
 */
import { s2 } from 's2js';
import { crossing, fromLngLat, same, sign, toLngLat, type Vec } from './vec.js';

export interface Pt {
  lng: number;
  lat: number;
  v: Vec;
}
export interface Poly {
  shell: Pt[];
  holes: Pt[][];
}
export interface Geo {
  points: Pt[];
  lines: Pt[][];
  polys: Poly[];
}

export const EMPTY: Geo = { points: [], lines: [], polys: [] };

/** A geography error with BigQuery's shape of text (`<function> failed: <reason>` is added by the caller). */
export class GeoError extends Error {}

export const fail = (msg: string): never => {
  throw new GeoError(msg);
};

/** Raised for input the emulator cannot answer exactly as BigQuery does (never turned into NULL by SAFE.). */
export class GeoUnsupported extends Error {}

export const unsupported = (what: string): never => {
  throw new GeoUnsupported(what);
};

export function ptFromVec(v: Vec): Pt {
  const [lng, lat] = toLngLat(v);
  return { lng, lat, v };
}

/** A point from degrees; longitudes wrap, latitudes outside [-90, 90] are an error. */
export function pt(lng: number, lat: number): Pt {
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) fail(`Coordinates must be finite numbers: (${lng}, ${lat})`);
  if (lat < -90 || lat > 90) fail(`Latitude must be between -90 and 90 degrees: ${lat}`);
  return ptFromVec(fromLngLat(lng, lat));
}

export const s2Point = (p: Pt | Vec): InstanceType<typeof s2.Point> => {
  const v = 'v' in p ? p.v : p;
  return new s2.Point(v[0], v[1], v[2]);
};

export const cellId = (p: Pt): bigint => s2.cellid.fromPoint(s2Point(p));

/** Points de-duplicated and in S2 cell-id order. */
export function normalPoints(points: Pt[]): Pt[] {
  if (points.length < 2) return points;
  const keyed = points.map((p) => ({ p, id: cellId(p) }));
  keyed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seen = new Set<string>();
  const out: Pt[] = [];
  for (const { p } of keyed) {
    const k = `${p.v[0]},${p.v[1]},${p.v[2]}`;
    if (!seen.has(k)) seen.add(k), out.push(p);
  }
  return out;
}

/** Drops consecutive duplicate vertices (and, for loops, a last vertex equal to the first). */
export function dedupe(vs: Pt[], loop: boolean): Pt[] {
  const out: Pt[] = [];
  for (const p of vs) if (!out.length || !same(out[out.length - 1].v, p.v)) out.push(p);
  while (loop && out.length > 1 && same(out[0].v, out[out.length - 1].v)) out.pop();
  return out;
}

export function s2Loop(vs: Pt[]): InstanceType<typeof s2.Loop> {
  return new s2.Loop(vs.map(s2Point));
}

/** Whether a loop, read counter-clockwise, encloses at most a hemisphere (S2Loop::IsNormalized). */
export const isNormalized = (vs: Pt[]): boolean => s2Loop(vs).isNormalized();

export function checkLine(vs: Pt[]): Pt[] {
  const line = dedupe(vs, false);
  if (line.length < 2) unsupported('a linestring with fewer than two distinct vertices');
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i].v;
    const b = line[i + 1].v;
    if (a[0] === -b[0] && a[1] === -b[1] && a[2] === -b[2]) fail(`Edge ${i} has antipodal vertices`);
  }
  return line;
}

/**
 * A polygon from closed rings (first = shell). `oriented`: rings are read with the interior on the
 * left (holes clockwise); otherwise each ring selects the smaller region it bounds.
 */
export function makePoly(rings: Pt[][], oriented: boolean): Poly {
  const loops = rings.map((r, i) => {
    if (r.length < 4) fail(`Loop ${i} has fewer than 4 vertices`);
    if (!same(r[0].v, r[r.length - 1].v)) fail(`Loop ${i} is not closed`);
    const l = dedupe(r, true);
    if (l.length < 3) fail(`Loop ${i} has fewer than 3 distinct vertices`);
    if (oriented) {
      const inner = i === 0 ? l : [...l].reverse();
      if (!isNormalized(inner)) unsupported('polygons larger than a hemisphere');
      return inner;
    }
    return isNormalized(l) ? l : [...l].reverse();
  });
  return { shell: loops[0], holes: loops.slice(1) };
}

/** The loops of a polygon (shell first). */
export const loopsOf = (p: Poly): Pt[][] => [p.shell, ...p.holes];

/** The vertices of a loop in printed order (holes reversed, starting at the last vertex). */
export const printedLoop = (l: Pt[], hole: boolean): Pt[] => (hole ? [...l].reverse() : l);

function loopContains(l: Pt[], p: Pt): boolean {
  return s2Loop(l).containsPoint(s2Point(p));
}

/** Validates polygons: loops simple, non-crossing, holes inside shells, polygons disjoint. */
export function validatePolys(polys: Poly[]): void {
  const loops: Pt[][] = polys.flatMap(loopsOf);
  for (let li = 0; li < loops.length; li++) {
    const l = loops[li];
    const n = l.length;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        if (same(l[i].v, l[j].v)) fail(`Loop ${li}: Edge ${i} has duplicate vertex with edge ${j}`);
        if (j === i + 1 || (i === 0 && j === n - 1)) continue;
        if (crossing(l[i].v, l[(i + 1) % n].v, l[j].v, l[(j + 1) % n].v) > 0) fail(`Loop ${li}: Edge ${i} crosses edge ${j}`);
      }
    if (n === 3 && sign(l[0].v, l[1].v, l[2].v) === 0) fail(`Loop ${li}: degenerate loop`);
  }
  for (let a = 0; a < loops.length; a++)
    for (let b = a + 1; b < loops.length; b++) {
      const la = loops[a];
      const lb = loops[b];
      for (let i = 0; i < la.length; i++)
        for (let j = 0; j < lb.length; j++) {
          const c = crossing(la[i].v, la[(i + 1) % la.length].v, lb[j].v, lb[(j + 1) % lb.length].v);
          if (c > 0) fail(`Loop ${a} edge ${i} crosses loop ${b} edge ${j}`);
          // BigQuery merges or rejects loops that touch; which one is not modelled here.
          if (c === 0) unsupported('polygon loops that share vertices');
        }
    }
  polys.forEach((p, pi) => {
    for (const h of p.holes) if (!loopContains(p.shell, h[0])) fail(`Polygon ${pi}: a hole is not inside its shell`);
    polys.forEach((q, qi) => {
      if (qi !== pi && loopContains(q.shell, p.shell[0]) && !q.holes.some((h) => loopContains(h, p.shell[0])))
        unsupported('overlapping polygons in one geography');
    });
  });
}

/** The number of components (points, lines, polygons). */
export const numComponents = (g: Geo): number => g.points.length + g.lines.length + g.polys.length;
export const isEmpty = (g: Geo): boolean => numComponents(g) === 0;
export const dimension = (g: Geo): number => (g.polys.length ? 2 : g.lines.length ? 1 : g.points.length ? 0 : -1);

/** Every vertex of a geography as vectors. */
export function vertices(g: Geo): Pt[] {
  return [...g.points, ...g.lines.flat(), ...g.polys.flatMap((p) => loopsOf(p).flat())];
}
