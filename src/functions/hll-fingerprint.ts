/**
 * Fingerprint2011, the 64-bit hash BigQuery's HyperLogLog++ sketches hash their values with
 * (HLL_COUNT.INIT, https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions).
 * The open-source zetasketch format documents it in `aggregator.proto` (`DefaultOpsType`): "Hash
 * is Fingerprint2011 of the little endian bytes" for integers, "of the bytes" (UTF-8) for strings.
 *
 * Written here from the published algorithm (Google's 2011 fingerprint: a seeded MurmurHash64
 * variant for up to 32 bytes, a CityHash-style mix for longer input, finished by a 128→64-bit
 * mix). 64-bit arithmetic on pairs of 32-bit halves, little-endian loads. Checked by reproducing
 * BigQuery's sketch bytes exactly: INT64 (recorded fixture agg_hll_count_merge_partial_basic) and
 * STRING (the HLL_COUNT.INIT example of the HyperLogLog++ functions page).
 */
// 64-bit words as [high, low] unsigned 32-bit halves: BigInt arithmetic allocates on every
// operation and costs ~20× more, too slow for a DuckDB chunk of long strings.
type U64 = [number, number];

// Four primes between 2^63 and 2^64, the algorithm's constants.
const K0: U64 = [0xa5b85c5e, 0x198ed849];
const K1: U64 = [0x8d58ac26, 0xafe12e47];
const K2: U64 = [0xc47b6e9e, 0x3a970ed3];
const K3: U64 = [0xc6a4a793, 0x5bd1e995];

const plus = (a: U64, b: U64): U64 => {
  const lo = a[1] + b[1];
  return [(a[0] + b[0] + (lo > 0xffffffff ? 1 : 0)) >>> 0, lo >>> 0];
};
const xor = (a: U64, b: U64): U64 => [(a[0] ^ b[0]) >>> 0, (a[1] ^ b[1]) >>> 0];
/** Product modulo 2^64 (the low halves multiplied through 16-bit limbs, exact in doubles). */
const mul = (a: U64, b: U64): U64 => {
  const a0 = a[1] & 0xffff;
  const a1 = a[1] >>> 16;
  const b0 = b[1] & 0xffff;
  const b1 = b[1] >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const lo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const hi = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(a[0], b[1]) + Math.imul(a[1], b[0]);
  return [hi >>> 0, lo];
};
/** Logical right shift by 0 < s < 64. */
const shr = (a: U64, s: number): U64 => (s >= 32 ? [0, a[0] >>> (s - 32)] : [a[0] >>> s, ((a[1] >>> s) | (a[0] << (32 - s))) >>> 0]);
/** Left shift by 0 < s < 64. */
const shl = (a: U64, s: number): U64 => (s >= 32 ? [(a[1] << (s - 32)) >>> 0, 0] : [((a[0] << s) | (a[1] >>> (32 - s))) >>> 0, (a[1] << s) >>> 0]);
const rotr = (a: U64, s: number): U64 => {
  const r = shr(a, s);
  const l = shl(a, 64 - s);
  return [(r[0] | l[0]) >>> 0, (r[1] | l[1]) >>> 0];
};
const shiftMix = (a: U64): U64 => [a[0], (a[1] ^ (a[0] >>> 15)) >>> 0];
const fromInt = (n: number): U64 => [Math.floor(n / 0x100000000) >>> 0, n >>> 0];

/** `n` (≤ 8) little-endian bytes of `b` at `at` as an unsigned 64-bit value. */
function load(b: Uint8Array, at: number, n = 8): U64 {
  let lo = 0;
  let hi = 0;
  for (let i = Math.min(n, 4) - 1; i >= 0; i--) lo = lo * 256 + b[at + i]!;
  for (let i = n - 1; i >= 4; i--) hi = hi * 256 + b[at + i]!;
  return [hi, lo];
}

/** The 128→64-bit mix that finishes every path. */
function mix128(high: U64, low: U64): U64 {
  const a = shiftMix(mul(xor(low, high), K3));
  const b = shiftMix(mul(xor(high, a), K3));
  return mul(b, K3);
}

/** Seeded MurmurHash64 over the whole input (inputs of up to 32 bytes). */
function murmur64(b: Uint8Array, seed: U64): U64 {
  const n = b.length;
  const whole = n & ~7;
  let h = xor(seed, mul(fromInt(n), K3));
  for (let i = 0; i < whole; i += 8) h = mul(xor(h, mul(shiftMix(mul(load(b, i), K3)), K3)), K3);
  if (n & 7) h = mul(xor(h, load(b, whole, n & 7)), K3);
  return shiftMix(mul(shiftMix(h), K3));
}

/** Inputs of 33 to 64 bytes: two 32-byte halves mixed CityHash-style. */
function hash33to64(b: Uint8Array): U64 {
  const n = b.length;
  const half = (first: number, z: U64, a0: U64): [U64, U64] => {
    let a = a0;
    const bb = rotr(plus(a, z), 52);
    let c = rotr(a, 37);
    a = plus(a, load(b, first + 8));
    c = plus(c, rotr(a, 7));
    a = plus(a, load(b, first + 16));
    return [plus(a, z), plus(plus(bb, rotr(a, 31)), c)];
  };
  const [vf, vs] = half(0, load(b, 24), plus(load(b, 0), mul(plus(fromInt(n), load(b, n - 16)), K0)));
  const [wf, ws] = half(n - 32, load(b, n - 8), plus(load(b, 16), load(b, n - 32)));
  const r = shiftMix(plus(mul(plus(vf, ws), K2), mul(plus(wf, vs), K0)));
  return mul(shiftMix(plus(mul(r, K0), vs)), K2);
}

/** The weak 32-byte hash with two seeds the long-input loop uses: [first, second]. */
function weak32(b: Uint8Array, at: number, seedA: U64, seedB: U64): [U64, U64] {
  const w = load(b, at);
  const x = load(b, at + 8);
  const y = load(b, at + 16);
  const z = load(b, at + 24);
  let a = plus(seedA, w);
  let s = rotr(plus(plus(seedB, a), z), 51);
  const c = a;
  a = plus(plus(a, x), y);
  s = plus(s, rotr(a, 23));
  return [plus(a, z), plus(s, c)];
}

/** Inputs over 64 bytes: 64-byte blocks through two weak hashes, then mixed down. */
function hashLong(b: Uint8Array): U64 {
  const n = b.length;
  let x = load(b, 0);
  let y = xor(load(b, n - 16), K1);
  let z = xor(load(b, n - 56), K0);
  let v = weak32(b, n - 64, fromInt(n), y);
  let w = weak32(b, n - 32, mul(fromInt(n), K1), K0);
  z = plus(z, mul(shiftMix(v[1]), K1));
  x = mul(rotr(plus(z, x), 39), K1);
  y = mul(rotr(y, 33), K1);
  let left = (n - 1) & ~63;
  let at = 0;
  do {
    x = mul(rotr(plus(plus(plus(x, y), v[0]), load(b, at + 16)), 37), K1);
    y = mul(rotr(plus(plus(y, v[1]), load(b, at + 48)), 42), K1);
    x = xor(x, w[1]);
    y = xor(y, v[0]);
    z = rotr(xor(z, w[0]), 33);
    v = weak32(b, at, mul(v[1], K1), plus(x, w[0]));
    w = weak32(b, at + 32, plus(z, w[1]), y);
    [x, z] = [z, x];
    at += 64;
    left -= 64;
  } while (left !== 0);
  return mix128(plus(plus(mix128(v[0], w[0]), mul(shiftMix(y), K1)), z), plus(mix128(v[1], w[1]), x));
}

const SEED = xor(xor(K0, K1), K2);

/**
 * Fingerprint2011 of `bytes` as an unsigned 64-bit BigInt. Values 0 and 1 never come out (they
 * are moved by −2, as the algorithm defines).
 */
export function fingerprint2011(bytes: Uint8Array): bigint {
  const n = bytes.length;
  let r: U64;
  if (n <= 32) r = murmur64(bytes, SEED);
  else if (n <= 64) r = hash33to64(bytes);
  else r = hashLong(bytes);
  const u = n >= 8 ? load(bytes, 0) : K0;
  const v = n >= 9 ? load(bytes, n - 8) : K0;
  r = mix128(plus(r, v), u);
  const h = (BigInt(r[0]) << 32n) | BigInt(r[1]);
  return h === 0n || h === 1n ? (h - 2n) & 0xffffffffffffffffn : h;
}

const int64Bytes = new Uint8Array(8);
const int64View = new DataView(int64Bytes.buffer);

/** Fingerprint2011 of an INT64's 8 little-endian two's-complement bytes (DefaultOpsType INT64/UINT64). */
export function fingerprintInt64(v: bigint): bigint {
  int64View.setBigInt64(0, v, true);
  return fingerprint2011(int64Bytes);
}
