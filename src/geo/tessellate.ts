/**
 * Edge tessellation between geodesic edges and straight lines in longitude/latitude (plate carrée),
 * the way S2's S2EdgeTessellator does it, with BigQuery's tolerance of 10 meters. BigQuery uses it
 * where planar and geodesic edges meet: ST_ASGEOJSON adds vertices so that the GeoJSON's straight
 * edges stay within the tolerance of the geodesic edges, and `planar => TRUE` parsers add vertices
 * so that the geodesic edges follow the planar input edges.
 *
 * The error of a candidate edge is measured at two interpolation fractions (S2's
 * 0.31215691082248315 and its complement), and the tolerance is scaled by S2's factor
 * 0.83829992569888509; an edge over the tolerance is split at its midpoint (geodesic midpoint when
 * projecting, planar midpoint when unprojecting) and both halves are tessellated again.
 */
import { EARTH_RADIUS } from './measure-const.js';
import { add, angleToChord2, chord2, dot, fromLngLat, interpolate, normalize, toLngLat, type Vec } from './vec.js';

type XY = [number, number];

const T1 = 0.31215691082248315;
const SCALE = 0.83829992569888509;
const TOLERANCE_M = 10;
const TOL2 = angleToChord2((SCALE * TOLERANCE_M) / EARTH_RADIUS);

const unproject = (p: XY): Vec => fromLngLat(p[0], p[1]);
const lerp = (t: number, a: XY, b: XY): XY => [(1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]];

/** Moves b by a multiple of 360° of longitude so that it is nearest a (PlateCarreeProjection::WrapDestination). */
function wrap(a: XY, b: XY): XY {
  const dx = b[0] - a[0];
  if (Math.abs(dx) <= 180) return b;
  return [b[0] - 360 * Math.sign(dx), b[1]];
}

function maxError(pa: XY, a: Vec, pb: XY, b: Vec): number {
  if (dot(a, b) < -1e-14) return Infinity;
  const m1 = interpolate(a, b, T1);
  const m2 = interpolate(a, b, 1 - T1);
  const p1 = unproject(lerp(T1, pa, pb));
  const p2 = unproject(lerp(1 - T1, pa, pb));
  return Math.max(chord2(m1, p1), chord2(m2, p2));
}

function appendProjected(pa: XY, a: Vec, pbIn: XY, b: Vec, out: XY[], depth: number): void {
  const pb = wrap(pa, pbIn);
  if (depth > 60 || maxError(pa, a, pb, b) <= TOL2) {
    out.push(pb);
    return;
  }
  const mid = normalize(add(a, b));
  const pmid = wrap(pa, toLngLat(mid));
  appendProjected(pa, a, pmid, mid, out, depth + 1);
  appendProjected(pmid, mid, pb, b, out, depth + 1);
}

/** The longitude/latitude polyline approximating a chain of geodesic edges through `vs`. */
export function projectChain(vs: Vec[], lngLat: XY[]): XY[] {
  const out: XY[] = [];
  for (let i = 0; i + 1 < vs.length; i++) {
    let pa: XY = lngLat[i];
    if (!out.length) out.push(pa);
    else pa = wrap(out[out.length - 1], pa);
    appendProjected(pa, vs[i], lngLat[i + 1], vs[i + 1], out, 0);
  }
  if (vs.length === 1) out.push(lngLat[0]);
  return out;
}

function appendUnprojected(pa: XY, a: Vec, pbIn: XY, b: Vec, out: XY[], depth: number): void {
  const pb = wrap(pa, pbIn);
  if (depth > 60 || maxError(pa, a, pb, b) <= TOL2) {
    out.push(pb);
    return;
  }
  const pmid = lerp(0.5, pa, pb);
  const mid = unproject(pmid);
  appendUnprojected(pa, a, pmid, mid, out, depth + 1);
  appendUnprojected(pmid, mid, pb, b, out, depth + 1);
}

/** The vertices (as longitude/latitude) of geodesic edges following the planar chain `xy`. */
export function unprojectChain(xy: XY[]): XY[] {
  if (xy.length < 2) return xy;
  const out: XY[] = [xy[0]];
  for (let i = 0; i + 1 < xy.length; i++) {
    const pa = out[out.length - 1];
    appendUnprojected(pa, unproject(pa), xy[i + 1], unproject(xy[i + 1]), out, 0);
  }
  return out;
}
