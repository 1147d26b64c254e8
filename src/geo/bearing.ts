/**
 * Directions and positions along lines on BigQuery's sphere (geography_functions#st_azimuth,
 * #st_angle, #st_linelocatepoint), computed on the S2 unit vectors of the model:
 *
 * - the azimuth of p→q is the clockwise angle, seen from outside the sphere, from the local north
 *   at p to the tangent of the great circle towards q, in [0, 2π);
 * - the angle p1-p2-p3 is the clockwise angle at p2 from the tangent towards p1 to the tangent
 *   towards p3, in [0, 2π);
 * - the fraction of a point along a polyline is S2Polyline::Project followed by
 *   S2Polyline::UnInterpolate (closest edge, its projection, lengths summed as S1Angles).
 *
 * Equal or exactly antipodal points have no direction: the callers answer NULL, as documented.
 */
import { unsupported, type Pt } from './model.js';
import { angle, cross, dot, edgeDistance2, project, same, type Vec } from './vec.js';

const antipodal = (a: Vec, b: Vec): boolean => a[0] === -b[0] && a[1] === -b[1] && a[2] === -b[2];

/** The tangent at p of the great circle towards q (not normalised): (p × q) × p. */
const tangent = (p: Vec, q: Vec): Vec => cross(cross(p, q), p);

/**
 * ST_AZIMUTH(p, q) in radians, [0, 2π); null when the points are equal or exactly antipodal.
 * A point at a pole has no north direction: not supported (the documentation gives no answer).
 */
export function azimuth(p: Pt, q: Pt): number | null {
  if (same(p.v, q.v) || antipodal(p.v, q.v)) return null;
  const [x, y, z] = p.v;
  const h2 = x * x + y * y;
  if (h2 === 0) unsupported('a point at a pole');
  // Local east (−y, x, 0) and north (−z·x, −z·y, x² + y²), both scaled by √(x² + y²).
  const d = tangent(p.v, q.v);
  const east = -y * d[0] + x * d[1];
  const north = -z * x * d[0] - z * y * d[1] + h2 * d[2];
  return positive(Math.atan2(east, north));
}

/**
 * ST_ANGLE(p1, p2, p3) in radians, [0, 2π); null when p2 equals or is antipodal to p1 or p3.
 * Away from the poles it is azimuth(p2→p3) − azimuth(p2→p1) (this reproduces the documented
 * 0.78547432161873854 to the last digit); at a pole, where azimuths are undefined, the clockwise
 * angle between the two tangents.
 */
export function angleAt(p1: Pt, p2: Pt, p3: Pt): number | null {
  for (const q of [p1, p3]) if (same(p2.v, q.v) || antipodal(p2.v, q.v)) return null;
  if (p2.v[0] !== 0 || p2.v[1] !== 0) return positive(azimuth(p2, p3)! - azimuth(p2, p1)!);
  const a = tangent(p2.v, p1.v);
  const b = tangent(p2.v, p3.v);
  // Counter-clockwise (seen from outside) is positive about the outward normal p2.
  return positive(-Math.atan2(dot(cross(a, b), p2.v), dot(a, b)));
}

/** An angle folded into [0, 2π) (−0 and 2π become 0). */
function positive(x: number): number {
  const r = x < 0 ? x + 2 * Math.PI : x;
  return r === 0 || r >= 2 * Math.PI ? 0 : r;
}

/** ST_LINELOCATEPOINT: the fraction of the polyline's length before its point closest to x. */
export function locate(line: Pt[], x: Vec): number {
  const v = line.map((p) => p.v);
  if (v.length < 2) return 0;
  // S2Polyline::Project: the first edge at the least distance, the point on it closest to x.
  let best = Infinity;
  let i = -1;
  for (let k = 1; k < v.length; k++) {
    const d = edgeDistance2(x, v[k - 1], v[k]);
    if (d < best) [best, i] = [d, k];
  }
  const closest = project(x, v[i - 1], v[i]);
  const next = i + (same(closest, v[i]) ? 1 : 0);
  // S2Polyline::UnInterpolate.
  let sum = 0;
  for (let k = 1; k < next; k++) sum += angle(v[k - 1], v[k]);
  const toPoint = sum + angle(v[next - 1], closest);
  for (let k = next; k < v.length; k++) sum += angle(v[k - 1], v[k]);
  return Math.min(1, toPoint / sum);
}
