/**
 * Spatial relations on BigQuery's model (S2BooleanOperation semantics):
 * - a polygon contains a point by S2's semi-open rule (exactly one of several polygons sharing an
 *   edge contains a point on it) and, in the closed model, also its vertices;
 * - a polyline contains only its vertices (a point exactly on an edge interior is not on the line);
 * - edges cross only at points interior to both (exact orientation tests, vec.ts).
 * INTERSECTS/COVERS/CONTAINS/EQUALS/TOUCHES follow the OGC definitions on top of these (CONTAINS:
 * covered and the interiors meet; TOUCHES: they meet but the interiors do not).
 */
import { loopsOf, s2Loop, s2Point, unsupported, vertices, type Geo, type Poly, type Pt } from './model.js';
import { add, crossing, normalize, same, type Vec } from './vec.js';

type Edge = [Vec, Vec];

const loopCache = new WeakMap<Pt[], ReturnType<typeof s2Loop>>();
function loopContains(l: Pt[], v: Vec): boolean {
  let s = loopCache.get(l);
  if (!s) loopCache.set(l, (s = s2Loop(l)));
  return s.containsPoint(s2Point(v));
}

/** Semi-open containment of a point in one polygon. */
export const polyContains = (p: Poly, v: Vec): boolean => loopContains(p.shell, v) && !p.holes.some((h) => loopContains(h, v));

const isPolyVertex = (g: Geo, v: Vec): boolean => g.polys.some((p) => loopsOf(p).some((l) => l.some((q) => same(q.v, v))));
const isLineVertex = (g: Geo, v: Vec): boolean => g.lines.some((l) => l.some((q) => same(q.v, v)));
const isPoint = (g: Geo, v: Vec): boolean => g.points.some((q) => same(q.v, v));

/** Closed containment of a point in the polygons of g. */
export const polysCover = (g: Geo, v: Vec): boolean => isPolyVertex(g, v) || g.polys.some((p) => polyContains(p, v));
/** A point in the open interior of g's polygons. */
const polysInterior = (g: Geo, v: Vec): boolean => !isPolyVertex(g, v) && g.polys.some((p) => polyContains(p, v));

/** Whether a point (vector) belongs to g (closed). */
export const coversPoint = (g: Geo, v: Vec): boolean => isPoint(g, v) || isLineVertex(g, v) || polysCover(g, v);

export function loopEdges(l: Pt[]): Edge[] {
  return l.map((p, i) => [p.v, l[(i + 1) % l.length].v]);
}
export const lineEdges = (l: Pt[]): Edge[] => l.slice(1).map((p, i) => [l[i].v, p.v]);
const polyEdges = (g: Geo): Edge[] => g.polys.flatMap((p) => loopsOf(p).flatMap(loopEdges));
const allLineEdges = (g: Geo): Edge[] => g.lines.flatMap(lineEdges);

const sameEdge = (e: Edge, f: Edge): boolean => (same(e[0], f[0]) && same(e[1], f[1])) || (same(e[0], f[1]) && same(e[1], f[0]));
const midpoint = (e: Edge): Vec => normalize(add(e[0], e[1]));
const properCross = (e: Edge, edges: Edge[]): boolean => edges.some((f) => crossing(e[0], e[1], f[0], f[1]) > 0);

/** Endpoints of g's lines that are on the boundary (mod-2 rule). */
function lineBoundary(g: Geo): Vec[] {
  const ends = g.lines.flatMap((l) => [l[0].v, l[l.length - 1].v]);
  return ends.filter((v, i) => ends.findIndex((w) => same(v, w)) === i && ends.filter((w) => same(v, w)).length % 2 === 1);
}

export function intersects(a: Geo, b: Geo): boolean {
  const va = vertices(a).map((p) => p.v);
  const vb = vertices(b).map((p) => p.v);
  if (va.some((v) => vb.some((w) => same(v, w)))) return true;
  const ea = [...allLineEdges(a), ...polyEdges(a)];
  const eb = [...allLineEdges(b), ...polyEdges(b)];
  if (ea.some((e) => properCross(e, eb))) return true;
  if (a.polys.length && vb.some((v) => polysCover(a, v))) return true;
  if (b.polys.length && va.some((v) => polysCover(b, v))) return true;
  return false;
}

/** How an edge of b lies in a: on a line of a, on a polygon boundary of a, inside a's polygons, or not covered. */
function edgeIn(a: Geo, e: Edge): 'line' | 'boundary' | 'inside' | 'out' {
  if (allLineEdges(a).some((f) => sameEdge(e, f))) return 'line';
  const pe = polyEdges(a);
  if (pe.some((f) => sameEdge(e, f))) return 'boundary';
  if (!a.polys.length) return 'out';
  if (!polysCover(a, e[0]) || !polysCover(a, e[1]) || properCross(e, pe)) return 'out';
  return a.polys.some((p) => polyContains(p, midpoint(e))) ? 'inside' : 'out';
}

function polyIn(a: Geo, p: Poly): boolean {
  if (!a.polys.length) return false;
  if (!loopsOf(p).every((l) => loopEdges(l).every((e) => edgeIn(a, e) !== 'out'))) return false;
  // A hole of a strictly inside p leaves part of p uncovered.
  const pg: Geo = { points: [], lines: [], polys: [p] };
  return !a.polys.some((q) => q.holes.some((h) => h.some((v) => polysInterior(pg, v.v))));
}

export function covers(a: Geo, b: Geo): boolean {
  if (!b.points.every((p) => coversPoint(a, p.v))) return false;
  if (!b.lines.every((l) => lineEdges(l).every((e) => edgeIn(a, e) !== 'out'))) return false;
  return b.polys.every((p) => polyIn(a, p));
}

/** Whether a point is in the interior of g (OGC interior: a line's interior excludes its boundary). */
function interiorHasPoint(g: Geo, v: Vec): boolean {
  if (isPoint(g, v)) return true;
  if (isLineVertex(g, v) && !lineBoundary(g).some((w) => same(v, w))) return true;
  return polysInterior(g, v);
}

export function contains(a: Geo, b: Geo): boolean {
  if (!covers(a, b)) return false;
  if (b.polys.length) return true;
  if (b.lines.length) return b.lines.some((l) => lineEdges(l).some((e) => edgeIn(a, e) !== 'boundary'));
  return b.points.some((p) => interiorHasPoint(a, p.v));
}

export const equals = (a: Geo, b: Geo): boolean => covers(a, b) && covers(b, a);

/** Whether the OGC interiors of a and b meet. */
function interiorsMeet(a: Geo, b: Geo): boolean {
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    if (x.points.some((p) => interiorHasPoint(y, p.v))) return true;
    const xe = [...allLineEdges(x), ...polyEdges(x)];
    const ye = [...allLineEdges(y), ...polyEdges(y)];
    if (x.lines.length && y.lines.length && allLineEdges(x).some((e) => properCross(e, allLineEdges(y)))) return true;
    if ((x.lines.length || x.polys.length) && y.polys.length && xe.some((e) => properCross(e, polyEdges(y)))) return true;
    if (x.lines.some((l) => l.some((v) => interiorHasPoint(y, v.v) && interiorHasPoint(x, v.v)))) return true;
    if (x.polys.some((p) => loopsOf(p).some((l) => l.some((v) => polysInterior(y, v.v))))) return true;
    for (const e of xe) {
      if (ye.some((f) => sameEdge(e, f))) {
        // Shared edges: interiors meet along lines, or when both sides of a shared polygon edge are inside both.
        if (allLineEdges(x).some((f) => sameEdge(e, f)) && allLineEdges(y).some((f) => sameEdge(e, f))) return true;
        continue;
      }
      if (y.polys.length && polysInterior(y, midpoint(e))) return true;
    }
  }
  // Polygons with the same boundary share their interiors.
  if (a.polys.length && b.polys.length && a.polys.some((p) => b.polys.some((q) => p.shell.length === q.shell.length && p.shell.every((v) => q.shell.some((w) => same(v.v, w.v))))))
    return true;
  return false;
}

export const touches = (a: Geo, b: Geo): boolean => intersects(a, b) && !interiorsMeet(a, b);

/**
 * Components of one geography must not overlap (BigQuery merges them; the emulator does not):
 * points on lines or polygons, or lines meeting polygons, are not supported.
 */
export function checkOverlaps(g: Geo): void {
  if (g.points.length && (g.lines.length || g.polys.length)) {
    const rest: Geo = { points: [], lines: g.lines, polys: g.polys };
    if (g.points.some((p) => coversPoint(rest, p.v))) unsupported('a geography whose points lie on its lines or polygons');
  }
  const edges = g.lines.flatMap(lineEdges);
  if (edges.some((e, i) => edges.some((f, j) => j > i && sameEdge(e, f)))) unsupported('linestrings that repeat an edge');
  if (g.lines.length && g.polys.length) {
    const pg: Geo = { points: [], lines: [], polys: g.polys };
    const ls: Geo = { points: [], lines: g.lines, polys: [] };
    if (intersects(pg, ls)) unsupported('a geography whose lines meet its polygons');
  }
}
