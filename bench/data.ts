/**
 * The benchmark data sets and the SQL that builds them, in GoogleSQL (through the emulator) and in
 * DuckDB's dialect (the raw reference), so both sides hold the same rows.
 *
 * Two ways to build a sequence, chosen per target by a probe:
 * - `spec`: `UNNEST(GENERATE_ARRAY(1, n)) AS id` with `MOD(id, m)` (the natural GoogleSQL);
 * - `digits`: a cross join of small literal arrays (`UNNEST([0, 1, …, 9])`) giving `q * m + r`, with
 *   `MOD(id, m)` written as `CASE WHEN r = m - 1 THEN 0 ELSE r + 1 END` — for targets that lack
 *   GENERATE_ARRAY or MOD. The DuckDB side then uses the same cross join, so both run the same plan.
 */

export type Dialect = 'bq' | 'duck';
export type GenMode = 'spec' | 'digits';

export interface DataSet {
  /** Table name (in the bench dataset on a target; bare in raw DuckDB). */
  name: string;
  /** Rows; ids are 1..n. */
  n: number;
  /** The modulus giving column k = MOD(id, m) (m must divide n for the `digits` form). */
  m: number;
  /** Output columns given SQL for `id` and `MOD(id, m)`. */
  columns: (id: string, mod: string) => string[];
  /** What the rows are, for the setup log. */
  description: string;
}

export const DATASETS: DataSet[] = [
  { name: 'a', n: 100_000, m: 1000, columns: (id, mod) => [`${id} AS id`, `${mod} AS k`], description: 'ids 1..100,000, k = MOD(id, 1000)' },
  { name: 'b', n: 1000, m: 1000, columns: (_id, mod) => [`${mod} AS k`, `${mod} * 2 AS v`], description: 'k 0..999, v = k * 2' },
  { name: 't1m', n: 1_000_000, m: 100, columns: (id, mod) => [`${id} AS id`, `${mod} AS k`, `${id} / 7 AS v`], description: 'ids 1..1,000,000, k = MOD(id, 100), v = id / 7 (FLOAT64)' },
  { name: 't2m', n: 2_000_000, m: 500_000, columns: (id, mod) => [`${id} AS id`, `${mod} AS k`, `${id} / 7 AS v`], description: 'ids 1..2,000,000, k = MOD(id, 500000), v = id / 7 (FLOAT64)' },
  // The published emulator benchmark's tables of window_partition_1m and order_by_100k (bench/cases.ts).
  { name: 'w1m', n: 1_000_000, m: 1000, columns: (id, mod) => [`${id} AS id`, `${mod} AS k`], description: 'ids 1..1,000,000, k = MOD(id, 1000)' },
  { name: 'o100k', n: 100_000, m: 10_000, columns: (id, mod) => [`${id} AS id`, `${mod} AS k`], description: 'ids 1..100,000, k = MOD(id, 10000)' },
];

/** Splits x into factors of at most 10 (e.g. 500000 → 10·10·10·10·10·5). */
function factors(x: number): number[] {
  const out: number[] = [];
  while (x > 1) {
    const f = [10, 9, 8, 7, 6, 5, 4, 3, 2].find((d) => x % d === 0);
    if (!f) throw new Error(`cannot split ${x} into small factors`);
    out.push(f);
    x /= f;
  }
  return out;
}

/** FROM items and the expression of a number 0..x-1 built from literal arrays (mixed radix). */
function digits(x: number, prefix: string, dialect: Dialect): { from: string[]; expr: string } {
  const from: string[] = [];
  const terms: string[] = [];
  let place = 1;
  factors(x).forEach((f, i) => {
    const alias = `${prefix}${i}`;
    const list = `[${Array.from({ length: f }, (_, j) => j).join(', ')}]`;
    from.push(dialect === 'bq' ? `UNNEST(${list}) AS ${alias}` : `unnest(${list}) AS ${alias}_t(${alias})`);
    terms.push(place === 1 ? alias : `${alias} * ${place}`);
    place *= f;
  });
  return { from, expr: terms.length ? terms.join(' + ') : '0' };
}

/** The SELECT producing data set `d` (its rows, in no particular order). */
export function dataSelect(d: DataSet, mode: GenMode, dialect: Dialect): string {
  if (mode === 'spec') {
    const mod = dialect === 'bq' ? `MOD(id, ${d.m})` : `id % ${d.m}`;
    // b is k 0..999 directly: MOD(id, 1000) over ids 1..1000 gives the same set.
    const src = dialect === 'bq' ? `UNNEST(GENERATE_ARRAY(1, ${d.n})) AS id` : `unnest(generate_series(1, ${d.n})) AS s(id)`;
    return `SELECT ${d.columns('id', mod).join(', ')} FROM ${src}`;
  }
  if (d.n % d.m !== 0) throw new Error(`${d.name}: m must divide n`);
  const r = digits(d.m, 'r', dialect);
  const q = digits(d.n / d.m, 'q', dialect);
  const inner = `SELECT (${q.expr}) * ${d.m} + (${r.expr}) + 1 AS id, ${r.expr} AS r FROM ${[...r.from, ...q.from].join(', ')}`;
  const mod = `CASE WHEN r = ${d.m - 1} THEN 0 ELSE r + 1 END`;
  return `SELECT ${d.columns('id', mod).join(', ')} FROM (${inner})`;
}

/** `CREATE OR REPLACE TABLE <table> AS <data set>`. */
export function ctasSql(d: DataSet, table: string, mode: GenMode, dialect: Dialect): string {
  return `CREATE OR REPLACE TABLE ${table} AS ${dataSelect(d, mode, dialect)}`;
}

/** A probe telling whether a target can run the `spec` form. */
export const SPEC_PROBE = 'SELECT MOD(id, 7) AS k FROM UNNEST(GENERATE_ARRAY(1, 3)) AS id';
