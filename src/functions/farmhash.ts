/**
 * FarmHash Fingerprint64 (the `farmhashna` 64-bit hash, which Fingerprint64 is defined as), written
 * from the published algorithm for BigQuery's FARM_FINGERPRINT. 64-bit arithmetic on BigInt,
 * little-endian loads. Checked against published test vectors in hash.test.ts.
 */
const M = (1n << 64n) - 1n;
const K0 = 0xc3a5c85c97cb3127n;
const K1 = 0xb492b66fbe98f273n;
const K2 = 0x9ae16a3b2f90404fn;

const mul = (a: bigint, b: bigint) => (a * b) & M;
const add = (...xs: bigint[]) => xs.reduce((a, b) => (a + b) & M, 0n);
const rot = (v: bigint, s: bigint) => (s === 0n ? v : ((v >> s) | (v << (64n - s))) & M);
const shiftMix = (v: bigint) => v ^ (v >> 47n);

function fetch64(b: Uint8Array, i: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k]);
  return v;
}
function fetch32(b: Uint8Array, i: number): bigint {
  return BigInt((b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0);
}

function hashLen16(u: bigint, v: bigint, m: bigint): bigint {
  let a = mul(u ^ v, m);
  a ^= a >> 47n;
  let b = mul(v ^ a, m);
  b ^= b >> 47n;
  return mul(b, m);
}

function len0to16(s: Uint8Array): bigint {
  const len = BigInt(s.length);
  const n = s.length;
  if (n >= 8) {
    const m = add(K2, len * 2n);
    const a = add(fetch64(s, 0), K2);
    const b = fetch64(s, n - 8);
    const c = add(mul(rot(b, 37n), m), a);
    const d = mul(add(rot(a, 25n), b), m);
    return hashLen16(c, d, m);
  }
  if (n >= 4) {
    const m = add(K2, len * 2n);
    const a = fetch32(s, 0);
    return hashLen16(add(len, (a << 3n) & M), fetch32(s, n - 4), m);
  }
  if (n > 0) {
    const a = BigInt(s[0]);
    const b = BigInt(s[n >> 1]);
    const c = BigInt(s[n - 1]);
    const y = (a + (b << 8n)) & 0xffffffffn;
    const z = (len + (c << 2n)) & 0xffffffffn;
    return mul(shiftMix(mul(y, K2) ^ mul(z, K0)), K2);
  }
  return K2;
}

function len17to32(s: Uint8Array): bigint {
  const n = s.length;
  const m = add(K2, BigInt(n) * 2n);
  const a = mul(fetch64(s, 0), K1);
  const b = fetch64(s, 8);
  const c = mul(fetch64(s, n - 8), m);
  const d = mul(fetch64(s, n - 16), K2);
  return hashLen16(add(rot(add(a, b), 43n), rot(c, 30n), d), add(a, rot(add(b, K2), 18n), c), m);
}

function len33to64(s: Uint8Array): bigint {
  const n = s.length;
  const m = add(K2, BigInt(n) * 2n);
  const a = mul(fetch64(s, 0), K2);
  const b = fetch64(s, 8);
  const c = mul(fetch64(s, n - 8), m);
  const d = mul(fetch64(s, n - 16), K2);
  const y = add(rot(add(a, b), 43n), rot(c, 30n), d);
  const z = hashLen16(y, add(a, rot(add(b, K2), 18n), c), m);
  const e = mul(fetch64(s, 16), m);
  const f = fetch64(s, 24);
  const g = mul(add(y, fetch64(s, n - 32)), m);
  const h = mul(add(z, fetch64(s, n - 24)), m);
  return hashLen16(add(rot(add(e, f), 43n), rot(g, 30n), h), add(e, rot(add(f, a), 18n), g), m);
}

function weak32(s: Uint8Array, i: number, a0: bigint, b0: bigint): [bigint, bigint] {
  const w = fetch64(s, i);
  const x = fetch64(s, i + 8);
  const y = fetch64(s, i + 16);
  const z = fetch64(s, i + 24);
  let a = add(a0, w);
  let b = rot(add(b0, a, z), 21n);
  const c = a;
  a = add(a, x, y);
  b = add(b, rot(a, 44n));
  return [add(a, z), add(b, c)];
}

/** Fingerprint64 of `s` as an unsigned 64-bit value. */
export function fingerprint64(s: Uint8Array): bigint {
  const n = s.length;
  if (n <= 16) return len0to16(s);
  if (n <= 32) return len17to32(s);
  if (n <= 64) return len33to64(s);
  const seed = 81n;
  let x = seed;
  let y = add(mul(seed, K1), 113n);
  let z = mul(shiftMix(add(mul(y, K2), 113n)), K2);
  let v: [bigint, bigint] = [0n, 0n];
  let w: [bigint, bigint] = [0n, 0n];
  x = add(mul(x, K2), fetch64(s, 0));
  const end = Math.floor((n - 1) / 64) * 64;
  const last64 = n - 64;
  let p = 0;
  do {
    x = mul(rot(add(x, y, v[0], fetch64(s, p + 8)), 37n), K1);
    y = mul(rot(add(y, v[1], fetch64(s, p + 48)), 42n), K1);
    x ^= w[1];
    y = add(y, v[0], fetch64(s, p + 40));
    z = mul(rot(add(z, w[0]), 33n), K1);
    v = weak32(s, p, mul(v[1], K1), add(x, w[0]));
    w = weak32(s, p + 32, add(z, w[1]), add(y, fetch64(s, p + 16)));
    [z, x] = [x, z];
    p += 64;
  } while (p !== end);
  const m = add(K1, (z & 0xffn) << 1n);
  p = last64;
  w[0] = add(w[0], BigInt((n - 1) & 63));
  v[0] = add(v[0], w[0]);
  w[0] = add(w[0], v[0]);
  x = mul(rot(add(x, y, v[0], fetch64(s, p + 8)), 37n), m);
  y = mul(rot(add(y, v[1], fetch64(s, p + 48)), 42n), m);
  x ^= mul(w[1], 9n);
  y = add(y, mul(v[0], 9n), fetch64(s, p + 40));
  z = mul(rot(add(z, w[0]), 33n), m);
  v = weak32(s, p, mul(v[1], m), add(x, w[0]));
  w = weak32(s, p + 32, add(z, w[1]), add(y, fetch64(s, p + 16)));
  [z, x] = [x, z];
  return hashLen16(add(hashLen16(v[0], w[0], m), mul(shiftMix(y), K0), z), add(hashLen16(v[1], w[1], m), x), m);
}

/** FARM_FINGERPRINT: Fingerprint64 as a signed INT64. */
export const farmFingerprint = (s: Uint8Array): bigint => BigInt.asIntN(64, fingerprint64(s));
