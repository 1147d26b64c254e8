/**
 * Fingerprint2011, the 64-bit hash BigQuery's HyperLogLog++ sketches hash their values with
 * (HLL_COUNT.INIT, https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions).
 * The open-source zetasketch format documents it in `aggregator.proto` (`DefaultOpsType`): "Hash
 * is Fingerprint2011 of the little endian bytes" for integers, "of the bytes" (UTF-8) for strings.
 *
 * Written here from the published algorithm (Google's 2011 fingerprint: a seeded MurmurHash64
 * variant for up to 32 bytes, a CityHash-style mix for longer input, finished by a 128→64-bit
 * mix). 64-bit arithmetic on BigInt, little-endian loads. The INT64 path (8 bytes) is checked by
 * reproducing BigQuery's recorded sketch bytes exactly (agg_hll_count_merge_partial_basic).
 */
const M64 = (1n << 64n) - 1n;
// Four primes between 2^63 and 2^64, the algorithm's constants.
const K0 = 0xa5b85c5e198ed849n;
const K1 = 0x8d58ac26afe12e47n;
const K2 = 0xc47b6e9e3a970ed3n;
const K3 = 0xc6a4a7935bd1e995n;

const mul = (a: bigint, b: bigint): bigint => (a * b) & M64;
const plus = (a: bigint, b: bigint): bigint => (a + b) & M64;
const shiftMix = (v: bigint): bigint => v ^ (v >> 47n);
const rotr = (v: bigint, s: bigint): bigint => ((v >> s) | (v << (64n - s))) & M64;

/** `n` (≤ 8) little-endian bytes of `b` at `at` as an unsigned 64-bit value. */
function load(b: Uint8Array, at: number, n = 8): bigint {
  let lo = 0;
  let hi = 0;
  for (let i = Math.min(n, 4) - 1; i >= 0; i--) lo = lo * 256 + b[at + i]!;
  for (let i = n - 1; i >= 4; i--) hi = hi * 256 + b[at + i]!;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** The 128→64-bit mix that finishes every path. */
function mix128(high: bigint, low: bigint): bigint {
  let a = mul(low ^ high, K3);
  a = shiftMix(a);
  let b = mul(high ^ a, K3);
  b = shiftMix(b);
  return mul(b, K3);
}

/** Seeded MurmurHash64 over the whole input (inputs of up to 32 bytes). */
function murmur64(b: Uint8Array, seed: bigint): bigint {
  const n = b.length;
  const whole = n & ~7;
  let h = seed ^ mul(BigInt(n), K3);
  for (let i = 0; i < whole; i += 8) h = mul(h ^ mul(shiftMix(mul(load(b, i), K3)), K3), K3);
  if (n & 7) h = mul(h ^ load(b, whole, n & 7), K3);
  return shiftMix(mul(shiftMix(h), K3));
}

/** Inputs of 33 to 64 bytes: two 32-byte halves mixed CityHash-style. */
function hash33to64(b: Uint8Array): bigint {
  const n = b.length;
  const half = (first: number, z: bigint, a0: bigint): [bigint, bigint] => {
    let a = a0;
    const bb = rotr(plus(a, z), 52n);
    let c = rotr(a, 37n);
    a = plus(a, load(b, first + 8));
    c = plus(c, rotr(a, 7n));
    a = plus(a, load(b, first + 16));
    return [plus(a, z), plus(plus(bb, rotr(a, 31n)), c)];
  };
  const [vf, vs] = half(0, load(b, 24), plus(load(b, 0), mul(plus(BigInt(n), load(b, n - 16)), K0)));
  const [wf, ws] = half(n - 32, load(b, n - 8), plus(load(b, 16), load(b, n - 32)));
  const r = shiftMix(plus(mul(plus(vf, ws), K2), mul(plus(wf, vs), K0)));
  return mul(shiftMix(plus(mul(r, K0), vs)), K2);
}

/** The weak 32-byte hash with two seeds the long-input loop uses: [first, second]. */
function weak32(b: Uint8Array, at: number, seedA: bigint, seedB: bigint): [bigint, bigint] {
  const w = load(b, at);
  const x = load(b, at + 8);
  const y = load(b, at + 16);
  const z = load(b, at + 24);
  let a = plus(seedA, w);
  let s = rotr(plus(plus(seedB, a), z), 51n);
  const c = a;
  a = plus(plus(a, x), y);
  s = plus(s, rotr(a, 23n));
  return [plus(a, z), plus(s, c)];
}

/** Inputs over 64 bytes: 64-byte blocks through two weak hashes, then mixed down. */
function hashLong(b: Uint8Array): bigint {
  const n = b.length;
  let x = load(b, 0);
  let y = load(b, n - 16) ^ K1;
  let z = load(b, n - 56) ^ K0;
  let v = weak32(b, n - 64, BigInt(n), y);
  let w = weak32(b, n - 32, mul(BigInt(n), K1), K0);
  z = plus(z, mul(shiftMix(v[1]), K1));
  x = mul(rotr(plus(z, x), 39n), K1);
  y = mul(rotr(y, 33n), K1);
  let left = (n - 1) & ~63;
  let at = 0;
  do {
    x = mul(rotr(plus(plus(plus(x, y), v[0]), load(b, at + 16)), 37n), K1);
    y = mul(rotr(plus(plus(y, v[1]), load(b, at + 48)), 42n), K1);
    x ^= w[1];
    y ^= v[0];
    z = rotr(z ^ w[0], 33n);
    v = weak32(b, at, mul(v[1], K1), plus(x, w[0]));
    w = weak32(b, at + 32, plus(z, w[1]), y);
    [x, z] = [z, x];
    at += 64;
    left -= 64;
  } while (left !== 0);
  return mix128(plus(plus(mix128(v[0], w[0]), mul(shiftMix(y), K1)), z), plus(mix128(v[1], w[1]), x));
}

/**
 * Fingerprint2011 of `bytes` as an unsigned 64-bit BigInt. Values 0 and 1 never come out (they
 * are moved by −2, as the algorithm defines).
 */
export function fingerprint2011(bytes: Uint8Array): bigint {
  const n = bytes.length;
  let r: bigint;
  if (n <= 32) r = murmur64(bytes, K0 ^ K1 ^ K2);
  else if (n <= 64) r = hash33to64(bytes);
  else r = hashLong(bytes);
  const u = n >= 8 ? load(bytes, 0) : K0;
  const v = n >= 9 ? load(bytes, n - 8) : K0;
  r = mix128(plus(r, v), u);
  return r === 0n || r === 1n ? (r - 2n) & M64 : r;
}

const int64Bytes = new Uint8Array(8);
const int64View = new DataView(int64Bytes.buffer);

/** Fingerprint2011 of an INT64's 8 little-endian two's-complement bytes (DefaultOpsType INT64/UINT64). */
export function fingerprintInt64(v: bigint): bigint {
  int64View.setBigInt64(0, v, true);
  return fingerprint2011(int64Bytes);
}
