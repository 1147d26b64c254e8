/**
 * Cell encodings: GeoHash (base-32, longitude bit first), S2 cell ids of points and S2 cell
 * coverings (s2js).
 */
import { s2 } from 's2js';
import { fail, isEmpty, numComponents, pt, s2Point, unsupported, type Geo, type Pt } from './model.js';

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

/** The GeoHash of a point with `chars` characters. */
export function geohash(p: Pt, chars: number): string {
  let lng: [number, number] = [-180, 180];
  let lat: [number, number] = [-90, 90];
  let out = '';
  let bits = 0;
  let ch = 0;
  let even = true;
  while (out.length < chars) {
    const r = even ? lng : lat;
    const v = even ? p.lng : p.lat;
    const mid = (r[0] + r[1]) / 2;
    ch <<= 1;
    if (v >= mid) {
      ch |= 1;
      r[0] = mid;
    } else r[1] = mid;
    even = !even;
    if (++bits === 5) {
      out += BASE32[ch];
      bits = 0;
      ch = 0;
    }
  }
  return out;
}

/** The centre of a GeoHash cell. */
export function geohashCenter(h: string): Pt {
  const lng: [number, number] = [-180, 180];
  const lat: [number, number] = [-90, 90];
  let even = true;
  if (!h.length) fail('Invalid GeoHash: empty string');
  for (const c of h) {
    const d = BASE32.indexOf(c.toLowerCase());
    if (d < 0) fail(`Invalid GeoHash character '${c}'`);
    for (let i = 4; i >= 0; i--) {
      const r = even ? lng : lat;
      const mid = (r[0] + r[1]) / 2;
      if ((d >> i) & 1) r[0] = mid;
      else r[1] = mid;
      even = !even;
    }
  }
  return pt((lng[0] + lng[1]) / 2, (lat[0] + lat[1]) / 2);
}

/** The S2 cell id (as a signed 64-bit integer) of the cell at `level` containing a point. */
export function cellIdOf(p: Pt, level: number): bigint {
  if (!Number.isInteger(level) || level < 0 || level > 30) fail(`Level must be between 0 and 30: ${level}`);
  const leaf = s2.cellid.fromPoint(s2Point(p));
  return BigInt.asIntN(64, level === 30 ? leaf : s2.cellid.parent(leaf, level));
}

/**
 * S2_COVERINGCELLIDS: S2RegionCoverer's covering (s2js, a port of the same algorithm) of a single
 * point, a single linestring (S2Polyline) or the empty geography (no cells). The covering
 * reproduces BigQuery's documented answers (geography_functions#s2_coveringcellids: the point and
 * the line of its example, digit for digit). Polygons and collections (whose BigQuery region is a
 * shape index, with other bounds) and a positive `buffer` are not supported.
 */
export function covering(g: Geo, minLevel: number, maxLevel: number, maxCells: number, buffer: number): bigint[] {
  for (const [name, v] of [['min_level', minLevel], ['max_level', maxLevel]] as const)
    if (!Number.isInteger(v) || v < 0 || v > 30) unsupported(`${name} outside [0, 30] (${v})`);
  if (minLevel > maxLevel) unsupported(`min_level ${minLevel} above max_level ${maxLevel}`);
  if (!(maxCells >= 1)) unsupported(`max_cells ${maxCells}`);
  if (!(buffer === 0)) unsupported(`buffer ${buffer} (S2 buffered regions are not reproduced)`);
  if (isEmpty(g)) return [];
  const coverer = new s2.RegionCoverer({ minLevel, maxLevel, maxCells });
  let region: Parameters<typeof coverer.covering>[0];
  if (g.points.length === 1 && numComponents(g) === 1) region = s2Point(g.points[0]) as never;
  else if (g.lines.length === 1 && numComponents(g) === 1) region = new s2.Polyline(g.lines[0].map(s2Point));
  else return unsupported('polygons, multi-part geographies and collections');
  return [...coverer.covering(region)].map((c) => BigInt.asIntN(64, c));
}
