/**
 * Unit-sphere vector arithmetic on S2's conventions (BigQuery's GEOGRAPHY model): points are unit
 * vectors, edges are the shorter great-circle arcs between them, and distances are measured as S2
 * does (chord angles converted to angles). Orientation tests are exact: a floating-point triage
 * first, then exact integer arithmetic on the binary values when the triage cannot decide.
 */

export type Vec = readonly [number, number, number];

export const RAD = Math.PI / 180;
export const DEG = 180 / Math.PI;

export const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const mul = (a: Vec, k: number): Vec => [a[0] * k, a[1] * k, a[2] * k];
export const neg = (a: Vec): Vec => [-a[0], -a[1], -a[2]];
export const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm2 = (a: Vec): number => dot(a, a);
export const norm = (a: Vec): number => Math.sqrt(dot(a, a));
export const same = (a: Vec, b: Vec): boolean => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

export function normalize(a: Vec): Vec {
  const n2 = norm2(a);
  return n2 === 0 ? [0, 0, 0] : mul(a, 1 / Math.sqrt(n2));
}

/** S2LatLng::ToPoint for degrees. */
export function fromLngLat(lng: number, lat: number): Vec {
  const phi = lat * RAD;
  const theta = lng * RAD;
  const c = Math.cos(phi);
  return [Math.cos(theta) * c, Math.sin(theta) * c, Math.sin(phi)];
}

/** S2LatLng(point) in degrees: [lng, lat]. */
export function toLngLat(p: Vec): [number, number] {
  return [Math.atan2(p[1], p[0]) * DEG, Math.atan2(p[2], Math.sqrt(p[0] * p[0] + p[1] * p[1])) * DEG];
}

/**
 * A vector orthogonal to a (S2::Ortho: `temp[LargestAbsComponent() - 1] = 1`, index −1 wrapping to
 * 2; the direction BigQuery's ST_BUFFER starts its circle from, recorded spheroidal_buffer_*).
 */
export function ortho(a: Vec): Vec {
  const ax = Math.abs(a[0]);
  const ay = Math.abs(a[1]);
  const az = Math.abs(a[2]);
  const k = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  const t: [number, number, number] = [0.012, 0.0053, 0.00457];
  t[(k + 2) % 3] = 1;
  return normalize(cross(a, t));
}

/** S2::RobustCrossProd in its common case: (b + a) × (b − a) = 2 (a × b). */
export function robustCross(a: Vec, b: Vec): Vec {
  const c = cross(add(b, a), sub(b, a));
  return c[0] === 0 && c[1] === 0 && c[2] === 0 ? ortho(a) : c;
}

/** The angle between two vectors in radians (S1Angle(a, b)). */
export const angle = (a: Vec, b: Vec): number => Math.atan2(norm(cross(a, b)), dot(a, b));

/** The squared chord length between unit vectors, capped at 4 (S1ChordAngle(a, b)). */
export function chord2(a: Vec, b: Vec): number {
  return Math.min(4, norm2(sub(a, b)));
}

/** S1ChordAngle → angle in radians. */
export const chord2ToAngle = (c2: number): number => 2 * Math.asin(0.5 * Math.sqrt(Math.min(4, c2)));

/** Angle in radians → squared chord length. */
export function angleToChord2(r: number): number {
  const c = 2 * Math.sin(0.5 * Math.min(Math.PI, r));
  return c * c;
}

// ---------- exact orientation ----------

const SCALE = 1100n;
/** The exact value of a double times 2^1100, as an integer. */
function exact(x: number): bigint {
  if (x === 0) return 0n;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: bigint;
  if (e === 0) exp = -1074n;
  else {
    m |= 1n << 52n;
    exp = BigInt(e) - 1075n;
  }
  return sign * (m << (SCALE + exp));
}

function exactDet(a: Vec, b: Vec, c: Vec): number {
  const [ax, ay, az] = a.map(exact);
  const [bx, by, bz] = b.map(exact);
  const [cx, cy, cz] = c.map(exact);
  const d = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * Orientation of the triangle (a, b, c): +1 counter-clockwise, -1 clockwise, 0 exactly collinear
 * (including equal points).
 */
export function sign(a: Vec, b: Vec, c: Vec): number {
  const det = dot(cross(a, b), c);
  if (det > 1e-14) return 1;
  if (det < -1e-14) return -1;
  return exactDet(a, b, c);
}

/**
 * Whether edges AB and CD cross: +1 at a point interior to both, 0 when they share a vertex, -1
 * otherwise (S2's CrossingSign; exactly collinear configurations count as not crossing).
 */
export function crossing(a: Vec, b: Vec, c: Vec, d: Vec): number {
  if (same(a, c) || same(a, d) || same(b, c) || same(b, d)) return 0;
  const acb = -sign(a, b, c);
  const bda = sign(a, b, d);
  if (acb === 0 || bda === 0 || acb !== bda) return -1;
  const cbd = -sign(c, d, b);
  const dac = sign(c, d, a);
  if (cbd === 0 || dac === 0) return -1;
  return cbd === acb && dac === acb ? 1 : -1;
}

/** The crossing point of two edges that cross (S2::GetIntersection, the simple case). */
export function intersection(a0: Vec, a1: Vec, b0: Vec, b1: Vec): Vec {
  const an = normalize(robustCross(a0, a1));
  const bn = normalize(robustCross(b0, b1));
  let x = normalize(robustCross(an, bn));
  if (dot(add(add(a0, a1), add(b0, b1)), x) < 0) x = neg(x);
  return x;
}

/** Squared chord distance from x to edge ab (S2::UpdateMinDistance). */
export function edgeDistance2(x: Vec, a: Vec, b: Vec): number {
  const xa2 = norm2(sub(x, a));
  const xb2 = norm2(sub(x, b));
  let best = Math.min(4, xa2, xb2);
  const c = robustCross(a, b);
  const c2 = norm2(c);
  const xc = dot(x, c);
  const cx = cross(c, x);
  if (c2 > 0 && dot(sub(a, x), cx) < 0 && dot(sub(b, x), cx) > 0) {
    const qr = 1 - Math.sqrt(norm2(cx) / c2);
    const d2 = (xc * xc) / c2 + qr * qr;
    if (d2 < best) best = d2;
  }
  return best;
}

/** The point of edge ab closest to x (S2::Project). */
export function project(x: Vec, a: Vec, b: Vec): Vec {
  const c = robustCross(a, b);
  const c2 = norm2(c);
  if (c2 > 0) {
    const p = sub(x, mul(c, dot(x, c) / c2));
    const cx = cross(c, x);
    if (dot(sub(a, x), cx) < 0 && dot(sub(b, x), cx) > 0) return normalize(p);
  }
  return norm2(sub(x, a)) <= norm2(sub(x, b)) ? a : b;
}

/** The point at fraction t of the way from a to b along the edge (S2::Interpolate). */
export function interpolate(a: Vec, b: Vec, t: number): Vec {
  if (t === 0) return a;
  if (t === 1) return b;
  return interpolateAtDistance(t * angle(a, b), a, b);
}

export function interpolateAtDistance(ax: number, a: Vec, b: Vec): Vec {
  const normal = normalize(robustCross(a, b));
  const tangent = cross(normal, a);
  return normalize(add(mul(a, Math.cos(ax)), mul(tangent, Math.sin(ax))));
}

/** The centroid of edge ab times its length (S2::TrueCentroid for edges). */
export function edgeCentroid(a: Vec, b: Vec): Vec {
  const vsum = add(a, b);
  const sin2 = norm2(sub(a, b));
  const cos2 = norm2(vsum);
  return cos2 === 0 ? [0, 0, 0] : mul(vsum, Math.sqrt(sin2 / cos2));
}
