/**
 * Cell encodings of points: GeoHash (base-32, longitude bit first) and S2 cell ids (s2js).
 */
import { s2 } from 's2js';
import { fail, pt, s2Point, type Pt } from './model.js';

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
