/**
 * The cardinality estimate of an HLL++ sketch (HLL_COUNT.EXTRACT and HLL_COUNT.MERGE,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions).
 *
 * - Sparse sketches: linear counting over the 2^sp sparse buckets, m·ln(m / empty), rounded —
 *   HLL++'s estimate (the HLL++ paper, Heule, Nunkesser and Hall 2013, §5.3), exact in practice for
 *   small cardinalities (BigQuery's recorded MERGE of 6 values answers 6).
 * - Normal sketches: linear counting over the 2^p registers while it stays under the paper's
 *   per-precision threshold (its Table / appendix values, p = 4…18; scaled by 2^(p−18) above).
 *   Above it, BigQuery subtracts an empirically measured bias table (the paper's appendix); the
 *   emulator does not carry those tables and uses instead Ertl's improved raw estimator (O. Ertl,
 *   "New cardinality estimation algorithms for HyperLogLog sketches", 2017), which is unbiased
 *   over the whole range: the estimate agrees with BigQuery's within the sketch's error, not
 *   digit for digit.
 */
import type { HllState } from './hll-sketch.js';

/** Linear counting thresholds of the HLL++ paper for p = 4…18. */
const THRESHOLDS = [10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 11500, 20000, 50000, 120000, 350000];

const threshold = (p: number): number => (p <= 18 ? THRESHOLDS[Math.max(p, 4) - 4]! : THRESHOLDS[14]! * 2 ** (p - 18));

/** Ertl's σ(x) = x + Σ_k x^(2^k) 2^(k−1). */
function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  let prev: number;
  do {
    x *= x;
    prev = z;
    z += x * y;
    y += y;
  } while (z !== prev);
  return z;
}

/** Ertl's τ(x). */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let prev: number;
  do {
    x = Math.sqrt(x);
    prev = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== prev);
  return z / 3;
}

/** Ertl's improved raw estimate from the register histogram (q = 64 − p value bits). */
function improvedEstimate(registers: Uint8Array, p: number): number {
  const m = registers.length;
  const q = 64 - p;
  const counts = new Float64Array(q + 2);
  for (const r of registers) counts[Math.min(r, q + 1)]!++;
  let z = m * tau(1 - counts[q + 1]! / m);
  for (let k = q; k >= 1; k--) z = 0.5 * (z + counts[k]!);
  z += m * sigma(counts[0]! / m);
  return m * m / (2 * Math.LN2) / z;
}

/** The sketch's estimated number of distinct values (a non-negative integer). */
export function estimateCardinality(s: HllState): number {
  if (s.sparse) {
    const m = 2 ** s.sparsePrecision;
    const empty = m - s.sparse.length;
    return Math.round(m * Math.log(m / empty));
  }
  const regs = s.registers!;
  const m = regs.length;
  let empty = 0;
  for (const r of regs) if (r === 0) empty++;
  if (empty > 0) {
    const lc = m * Math.log(m / empty);
    if (lc <= threshold(s.precision)) return Math.round(lc);
  }
  return Math.round(improvedEstimate(regs, s.precision));
}
