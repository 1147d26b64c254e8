/**
 * HyperLogLog++ functions (https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions):
 * HLL_COUNT.INIT, HLL_COUNT.MERGE, HLL_COUNT.MERGE_PARTIAL and HLL_COUNT.EXTRACT, producing and
 * reading BigQuery's sketch bytes (hll-sketch.ts), so sketches made by BigQuery are read here and
 * the other way round. Values are hashed with Fingerprint2011 (hll-fingerprint.ts): INT64 over its
 * 8 little-endian bytes, STRING over its UTF-8 bytes, BYTES as they are. NUMERIC and BIGNUMERIC
 * (inputs BigQuery also accepts) are hashed over their decimal text: their sketches count
 * correctly here but their bytes are not BigQuery's (its hashing of them is not published).
 *
 * Work split so that little runs on the event loop: each row's sparse value is computed in DuckDB
 * SQL for INT64 (hll-int64-sql.ts) and by a UDF per DuckDB chunk for STRING and BYTES; DuckDB
 * collects, de-duplicates and sorts a group's sparse values (list aggregate); one UDF call per
 * group builds the sketch from them. A group with more distinct sparse values than twice the
 * register count is sure to end normal, and DuckDB first reduces its values to distinct
 * (register, ρ) pairs (index · 64 + ρ), a few per register whatever the input size. Merges get a
 * group's sketches as comma-joined hex. What remains on the event loop grows with the distinct
 * values (or sketches) of the groups in one DuckDB vector: ~0.1 µs per sparse value, ~1 ms per
 * sparse sketch of 10,000 values merged.
 */
import { BigQueryError } from '../errors/errors.js';
import { defineUdf } from './builtin-udfs.js';
import { fingerprint2011 } from './hll-fingerprint.js';
import { int64SparseValueSql } from './hll-int64-sql.js';
import { estimateCardinality } from './hll-estimate.js';
import {
  mergeSketches,
  MergeError,
  parseSketch,
  serializeSketch,
  SketchError,
  sketchFromPairs,
  sketchFromSparse,
  sparsePrecisionOf,
  sparseValueOfHash,
  VALUE_TYPE,
  type HllState,
} from './hll-sketch.js';
import { aggregate, type FnCall, type FnTable } from './registry.js';
import { intLiteral } from './util.js';

const DEFAULT_PRECISION = 15;
const MIN_PRECISION = 10;
const MAX_PRECISION = 24;

/** The INIT precision, checked against 10..24. @throws BigQueryError outside that range. */
function checkedPrecision(p: bigint | number): number {
  const n = Number(p);
  if (!(n >= MIN_PRECISION && n <= MAX_PRECISION)) throw BigQueryError.hllPrecisionOutOfRange(String(p));
  return n;
}

const utf8 = new TextEncoder();
const sparseOf = (hash: bigint, p: bigint): bigint => {
  const n = checkedPrecision(p);
  return BigInt(sparseValueOfHash(hash, n, sparsePrecisionOf(n)));
};
const raises = { raises: true };
defineUdf('bq_hll_sparse_string', ['VARCHAR', 'BIGINT'], 'BIGINT', (x, p) => sparseOf(fingerprint2011(utf8.encode(x)), p), raises);
defineUdf('bq_hll_sparse_bytes', ['BLOB', 'BIGINT'], 'BIGINT', (x, p) => sparseOf(fingerprint2011(x), p), raises);

const numbers = (csv: string): number[] => (csv === '' ? [] : csv.split(',').map(Number));
const valueTypeOf = (t: bigint): number | undefined => (t > 0n ? Number(t) : undefined);
defineUdf('bq_hll_init_sparse', ['VARCHAR', 'BIGINT', 'BIGINT', 'BIGINT'], 'BLOB', (values, p, n, t) =>
  serializeSketch(sketchFromSparse(numbers(values), checkedPrecision(p), Number(n), valueTypeOf(t))),
);
defineUdf('bq_hll_init_normal', ['VARCHAR', 'BIGINT', 'BIGINT', 'BIGINT'], 'BLOB', (pairs, p, n, t) =>
  serializeSketch(sketchFromPairs(numbers(pairs), checkedPrecision(p), Number(n), valueTypeOf(t))),
);

/** Hex sketches joined by commas → their union. @throws Error with BigQuery's text for a bad or incompatible sketch. */
function merged(fn: string, hexes: string): HllState | null {
  if (hexes === '') return null;
  const sketches = hexes.split(',').map((h) => parse(fn, Buffer.from(h, 'hex')));
  try {
    return mergeSketches(sketches);
  } catch (e) {
    if (!(e instanceof MergeError)) throw e;
    throw e.kind === 'types' ? BigQueryError.hllIncompatibleTypes(fn) : BigQueryError.hllIncompatiblePrecisions(fn, e.a, e.b);
  }
}

function parse(fn: string, bytes: Uint8Array): HllState {
  try {
    return parseSketch(bytes);
  } catch (e) {
    if (e instanceof SketchError) throw BigQueryError.hllInvalidSketch(fn);
    throw e;
  }
}

defineUdf('bq_hll_merge_partial', ['VARCHAR'], 'BLOB', (hexes) => {
  const s = merged('HLL_COUNT.MERGE_PARTIAL', hexes);
  return s && serializeSketch(s);
}, raises);
defineUdf('bq_hll_merge', ['VARCHAR'], 'BIGINT', (hexes) => {
  const s = merged('HLL_COUNT.MERGE', hexes);
  return s && BigInt(estimateCardinality(s));
}, raises);
defineUdf('bq_hll_extract', ['BLOB'], 'BIGINT', (b) => BigInt(estimateCardinality(parse('HLL_COUNT.EXTRACT', b))), raises);

/** The (register, ρ) pair of sparse value `v` at precision `p` as index · 64 + ρ, in DuckDB SQL. */
function pairSql(v: string, p: number): string {
  const sp = sparsePrecisionOf(p);
  const flag = 2 ** Math.max(sp, p + 6);
  const b = sp - p;
  return `CASE WHEN ${v} >= ${flag} THEN ((${v} - ${flag}) >> 6) * 64 + ((${v} & 63) + ${b}) ELSE (${v} >> ${b}) * 64 + (${b} - CAST(floor(log2(${v} & ${2 ** b - 1})) AS BIGINT)) END`;
}

/** HLL_COUNT.INIT(input [, precision]): NULL for a group without non-NULL input. */
function init(c: FnCall): string {
  const x = c.args[0]!;
  const lit = c.args[1] === undefined ? BigInt(DEFAULT_PRECISION) : intLiteral(c.args[1]);
  if (lit === undefined) throw BigQueryError.hllPrecisionOutOfRange(c.args[1]!);
  const p = checkedPrecision(lit);
  const kind = c.argTypes[0]?.kind;
  const sparse =
    kind === 'INT64' ? int64SparseValueSql(x, p, sparsePrecisionOf(p))
    : kind === 'BYTES' ? `bq_hll_sparse_bytes(${x}, ${p})`
    : kind === 'STRING' ? `bq_hll_sparse_string(${x}, ${p})`
    : `bq_hll_sparse_string(CAST(${x} AS VARCHAR), ${p})`;
  const type = kind === 'INT64' ? VALUE_TYPE.INT64 : kind === 'STRING' || kind === 'BYTES' ? VALUE_TYPE.BYTES_OR_UTF8_STRING : 0;
  const n = aggregate('count', c, [x]);
  const values = `list_distinct(${aggregate('list', c, [sparse], `${x} IS NOT NULL`)})`;
  // The group's values bound once (an aggregate may not sit inside a lambda body, so both are
  // packed into the bound value).
  const pairs = `list_distinct(list_transform(hll_g.v, v -> ${pairSql('v', p)}))`;
  const build = `CASE WHEN hll_g.n = 0 THEN NULL WHEN len(hll_g.v) <= ${2 * 2 ** p} THEN bq_hll_init_sparse(array_to_string(list_sort(hll_g.v), ','), ${p}, hll_g.n, ${type}) ELSE bq_hll_init_normal(array_to_string(${pairs}, ','), ${p}, hll_g.n, ${type}) END`;
  return `list_transform([struct_pack(v := ${values}, n := ${n})], hll_g -> ${build})[1]`;
}

/** The group's non-NULL sketches as comma-joined hex, NULL when there are none. */
const sketchList = (c: FnCall): string => {
  const x = c.args[0]!;
  return `array_to_string(${aggregate('list', c, [`hex(${x})`], `${x} IS NOT NULL`)}, ',')`;
};

/** HLL_COUNT.*: INIT and MERGE_PARTIAL give sketches (NULL without input), MERGE and EXTRACT counts (0 without input). */
export const HLL_FUNCTIONS: FnTable = {
  'hll_count.init': init,
  'hll_count.merge': (c) => `coalesce(bq_hll_merge(${sketchList(c)}), 0)`,
  'hll_count.merge_partial': (c) => `bq_hll_merge_partial(${sketchList(c)})`,
  'hll_count.extract': (c) => `coalesce(bq_hll_extract(${c.args[0]}), 0)`,
};
