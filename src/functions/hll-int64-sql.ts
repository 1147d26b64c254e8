/**
 * The HLL++ sparse value of an INT64 (HLL_COUNT.INIT over INT64,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions) computed inside
 * DuckDB: Fingerprint2011 of the value's 8 little-endian bytes (for 8 bytes, one MurmurHash64 block
 * and the final 128→64-bit mix; see hll-fingerprint.ts, which this must agree with bit for bit)
 * followed by the sparse encoding of hll-sketch.ts. DuckDB evaluates it vectorised on its own
 * threads, so an INIT over INT64 never calls into JavaScript per row.
 *
 * 64-bit products are taken in UHUGEINT (two values below 2^64 multiply below 2^128) and reduced
 * modulo 2^64. A value used more than once is bound once through a one-element list_transform,
 * so the expression grows linearly, not exponentially.
 */
const MASK = (1n << 64n) - 1n;
const K0 = 0xa5b85c5en * 2n ** 32n + 0x198ed849n;
const K1 = 0x8d58ac26n * 2n ** 32n + 0xafe12e47n;
const K2 = 0xc47b6e9en * 2n ** 32n + 0x3a970ed3n;
const K3 = 0xc6a4a793n * 2n ** 32n + 0x5bd1e995n;
/** The MurmurHash64 state after its seed (K0 ^ K1 ^ K2) meets the length (8 · K3): a constant. */
const H0 = (K0 ^ K1 ^ K2) ^ ((8n * K3) & MASK);

const U = `${MASK}::UHUGEINT`;
const c = (k: bigint): string => `${k}::UBIGINT`;
const mul = (a: string, k: bigint): string => `CAST((CAST(${a} AS UHUGEINT) * ${k}::UHUGEINT) & ${U} AS UBIGINT)`;
const add = (a: string, k: bigint): string => `CAST((CAST(${a} AS UHUGEINT) + ${k}::UHUGEINT) & ${U} AS UBIGINT)`;
const xor = (a: string, b: string): string => `xor(${a}, ${b})`;
const shiftMix = (v: string): string => xor(v, `(${v} >> 47)`);
/** `body` with `name` bound to the value of `value` (evaluated once). */
const bind = (name: string, value: string, body: string): string => `list_transform([${value}], ${name} -> ${body})[1]`;

/**
 * DuckDB SQL (BIGINT) for the sparse value of INT64 `x` (DuckDB BIGINT SQL) at normal precision `p`
 * and sparse precision `sp` — equal to `sparseValueOfHash(fingerprintInt64(x), p, sp)`.
 */
export function int64SparseValueSql(x: string, p: number, sp: number): string {
  const flag = 2 ** Math.max(sp, p + 6);
  const restBits = 64 - sp;
  const restMask = (1n << BigInt(restBits)) - 1n;
  // The hash's bits after the sparse index: ρ(w') = leading zeros + 1 (restBits + 1 when all zero).
  const rho = `CASE WHEN (hll_r & ${c(restMask)}) = 0 THEN ${restBits + 1} ELSE ${restBits} - CAST(floor(log2(CAST(hll_r & ${c(restMask)} AS DOUBLE))) AS BIGINT) END`;
  const index = `CAST(hll_r >> ${restBits} AS BIGINT)`;
  const encoded = `CASE WHEN (${index} & ${2 ** (sp - p) - 1}) <> 0 THEN ${index} ELSE ${flag} + ((${index} >> ${sp - p}) << 6) + ${rho} END`;
  const finish = bind('hll_r', `CASE WHEN hll_h < 2 THEN hll_h + ${c(MASK - 1n)} ELSE hll_h END`, encoded);
  // mix128(r + K0, k): both halves need the value twice, so each step is bound.
  const mix = bind('hll_a', mul(xor('hll_k', 'hll_hv'), K3), bind('hll_b', mul(xor('hll_hv', shiftMix('hll_a')), K3), bind('hll_h', mul(shiftMix('hll_b'), K3), finish)));
  const murmur = bind('hll_t', mul('hll_k', K3), bind('hll_g', mul(xor(c(H0), mul(shiftMix('hll_t'), K3)), K3), bind('hll_f', mul(shiftMix('hll_g'), K3), bind('hll_hv', add(shiftMix('hll_f'), K0), mix))));
  return bind('hll_k', `CAST(CAST(${x} AS HUGEINT) & ${MASK}::HUGEINT AS UBIGINT)`, murmur);
}
