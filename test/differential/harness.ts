/**
 * Differential harness: evaluates generated GoogleSQL expressions on the ZetaSQL reference
 * evaluator and on bqemu (through the real `@google-cloud/bigquery` client), and compares the
 * answers: result type, value under the corpus tolerances (conformance/README.md "Tolerances", via
 * src/conformance/compare.ts), and error presence (message text too where BigQuery's text is known).
 *
 * Many expressions go into one `SELECT e0 AS c0, e1 AS c1, …` per query. A batch that errors is
 * split in halves until the erroring expressions stand alone, on both sides; the expressions the
 * reference rejects are run on bqemu one by one (each must fail).
 */
import type { BigQuery } from '@google-cloud/bigquery';
import { compareCell, normaliseMode, normaliseType } from '../../src/conformance/compare.js';
import { toSchemaFields } from '../../src/conformance/client.js';
import type { SchemaField } from '../../src/conformance/fixtures.js';
import { DUCKDB_MESSAGE_SHAPES } from '../../src/engine/duckdb/duckdb-errors.js';
import type { ReferenceEvaluator, ReferenceResult } from './evaluator.js';

/** One expression's answer: a typed value, or an error (`arrayNull`: BigQuery's result-writer rule). */
export type CellOutcome = { ok: true; field: SchemaField; value: unknown } | { ok: false; message: string; arrayNull?: boolean };

/** A mismatch between the reference and bqemu for one expression. */
export interface Mismatch {
  sql: string;
  expected: string;
  actual: string;
  why: string;
}

/**
 * Runtime error texts BigQuery is known to produce with ZetaSQL's wording, with their sources.
 * For these the message must match exactly; for other errors only the presence is compared.
 */
const KNOWN_ERROR_TEXTS: RegExp[] = [
  /^division by zero: /, // recorded fixtures standard_functions/div_zero_* (contract corpus)
  /^Invalid date: '/, // recorded fixture error_type_cast_str_to_date_invalid
  /^Bad int64 value: [\x20-\x5b\x5d-\x7e]*$/, // a BigQuery job's errorResult quoted in mozilla/bigquery-etl#1490 (ASCII
  // values only: for other bytes the reference prints C escapes, `\346\227\245`, BigQuery's form is not known)
];

/**
 * Runtime error texts of ZetaSQL's function library (which BigQuery runs) that bqemu reproduces
 * word for word from the reference evaluator (BIGNUMERIC overflow, INTERVAL ranges,
 * civil-type overflow); a different text for these is a regression.
 */
const REFERENCE_ERROR_TEXTS: RegExp[] = [
  /^BIGNUMERIC overflow: (?:SUM|CEIL|FLOOR|POW)/,
  /^Interval field (?:months|days|nanoseconds) '/,
  /^Interval overflow during multiplication$/,
  /^(?:Adding|Subtracting) -?\d+ [A-Z]+ (?:to|from) (?:date|datetime|timestamp) .* causes overflow$/,
  /^TIMESTAMP_ADD interval value /,
];

type RestCell = { v?: unknown } | null | undefined;

/** Microseconds since the epoch (REST `useInt64Timestamp` form) → `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
function timestampText(micros: string): string {
  const us = BigInt(micros);
  const secs = us / 1_000_000n - (us % 1_000_000n < 0n ? 1n : 0n);
  const frac = us - secs * 1_000_000n;
  return `${new Date(Number(secs) * 1000).toISOString().slice(0, 19)}.${String(frac).padStart(6, '0')}Z`;
}

/**
 * One REST cell (`{v: …}`) under its schema field → the plain form of compare.ts. Decoded here
 * from the wire rather than by the client, whose TIMESTAMP parsing loses a second on negative
 * epochs with a fraction (@google-cloud/bigquery 8.x `BigQueryTimestamp.fromFloatValue_`).
 */
export function decodeRestCell(cell: RestCell, field: SchemaField): unknown {
  const v = cell?.v;
  if (normaliseMode(field.mode) === 'REPEATED') {
    const el: SchemaField = { ...field, mode: 'NULLABLE' };
    return Array.isArray(v) ? v.map((x) => decodeRestCell(x as RestCell, el)) : [];
  }
  if (v === null || v === undefined) return null;
  switch (normaliseType(field.type)) {
    case 'BOOL':
      return v === true || v === 'true';
    case 'FLOAT64':
      return Number(v);
    case 'TIMESTAMP':
      return /^-?\d+$/.test(String(v)) ? timestampText(String(v)) : String(v);
    case 'STRUCT': {
      const fs = (v as { f?: RestCell[] }).f ?? [];
      return Object.fromEntries((field.fields ?? []).map((f, i) => [f.name, decodeRestCell(fs[i], f)]));
    }
    default:
      return String(v);
  }
}

/** Runs a query through the client (rows unparsed, decoded by {@link decodeRestCell}); the answer in the reference's shape. */
export async function runOnBqemu(bq: BigQuery, sql: string): Promise<ReferenceResult> {
  try {
    const [rows, , resp] = (await bq.query({ query: sql, skipParsing: true } as never)) as unknown as [{ f?: RestCell[] }[], unknown, { schema?: { fields?: unknown } }];
    const schema = toSchemaFields(resp?.schema?.fields);
    return { ok: true, schema, rows: rows.map((r) => Object.fromEntries(schema.map((f, i) => [f.name, decodeRestCell(r.f?.[i], f)]))) };
  } catch (e) {
    const err = e as { errors?: { message?: string }[]; message?: string };
    return { ok: false, message: err.errors?.[0]?.message ?? err.message ?? String(e) };
  }
}

const batchSql = (exprs: string[]) => `SELECT ${exprs.map((e, i) => `${e} AS c${i}`).join(',\n  ')}`;

/** True when a value holds an ARRAY with a NULL element at any depth. */
function hasArrayWithNull(v: unknown, field: SchemaField): boolean {
  if (normaliseMode(field.mode) === 'REPEATED') {
    if (!Array.isArray(v)) return false;
    const el: SchemaField = { ...field, mode: 'NULLABLE' };
    return v.some((x) => x === null || hasArrayWithNull(x, el));
  }
  if (normaliseType(field.type) === 'STRUCT' && v && typeof v === 'object') {
    return (field.fields ?? []).some((f) => hasArrayWithNull((v as Record<string, unknown>)[f.name], f));
  }
  return false;
}

/**
 * Evaluates expressions in one batch query, splitting in halves on error; one outcome per expression.
 * `adapt` turns a successful cell into the outcome BigQuery would give (see {@link adaptToBigQuery}).
 */
async function evaluateSplitting(run: (sql: string) => Promise<ReferenceResult>, exprs: string[], adapt: (o: CellOutcome) => CellOutcome): Promise<CellOutcome[]> {
  if (exprs.length === 0) return [];
  const res = await run(batchSql(exprs));
  if (res.ok) {
    const row = res.rows[0] ?? {};
    return exprs.map((_, i) => {
      const field = res.schema[i];
      if (!field) return { ok: false, message: `no column c${i} in the result` };
      return adapt({ ok: true, field: { ...field, name: `c${i}` }, value: row[field.name] ?? null });
    });
  }
  if (exprs.length === 1) return [{ ok: false, message: res.message }];
  const mid = exprs.length >> 1;
  return [...(await evaluateSplitting(run, exprs.slice(0, mid), adapt)), ...(await evaluateSplitting(run, exprs.slice(mid), adapt))];
}

/**
 * BigQuery refuses to return an ARRAY with a NULL element ("Array cannot have a null element; error
 * in writing field …", BigQuery docs, Array type: "an error is returned if a query result has ARRAYs
 * which contain NULL elements"); the reference evaluator returns such arrays. The expected outcome
 * is then an error.
 */
export function adaptToBigQuery(o: CellOutcome): CellOutcome {
  if (o.ok && hasArrayWithNull(o.value, o.field)) return { ok: false, message: 'Array cannot have a null element', arrayNull: true };
  return o;
}

function show(o: CellOutcome): string {
  if (!o.ok) return `ERROR ${o.message}`;
  const t = normaliseMode(o.field.mode) === 'REPEATED' ? `ARRAY<${normaliseType(o.field.type)}>` : normaliseType(o.field.type);
  return `${t} ${JSON.stringify(o.value, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))}`;
}

function sameType(e: SchemaField, a: SchemaField): boolean {
  if (normaliseType(e.type) !== normaliseType(a.type) || normaliseMode(e.mode) !== normaliseMode(a.mode)) return false;
  const ef = e.fields ?? [];
  const af = a.fields ?? [];
  return ef.length === af.length && ef.every((f, i) => f.name === af[i]!.name && sameType(f, af[i]!));
}

/** Compares one expression's outcomes; the reason of the mismatch, or `undefined` when they agree. */
export function compareOutcomes(expected: CellOutcome, actual: CellOutcome): string | undefined {
  // A DuckDB-worded message is a bug whatever the reference answered (src/engine/duckdb/duckdb-errors.ts).
  if (!actual.ok && DUCKDB_MESSAGE_SHAPES.test(actual.message)) return 'a DuckDB-worded error reached the client';
  if (!expected.ok) {
    if (actual.ok) return 'the reference raised an error, bqemu returned a value';
    if ([...KNOWN_ERROR_TEXTS, ...REFERENCE_ERROR_TEXTS].some((re) => re.test(expected.message)) && actual.message !== expected.message) return 'error text differs';
    return undefined;
  }
  if (!actual.ok) return 'bqemu raised an error, the reference returned a value';
  if (!sameType(expected.field, actual.field)) return 'result type differs';
  return compareCell(expected.value, actual.value, expected.field, expected.field.name);
}

/** Types whose typed NULL literals the NULL-folding re-check moves into a table read. */
const NULL_TYPES = ['INT64', 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'STRING', 'BYTES', 'BOOL', 'DATE', 'DATETIME', 'TIMESTAMP', 'TIME', 'ARRAY<INT64>', 'ARRAY<STRING>'];
const nullColumn = (t: string) => `n_${t.replace(/\W+/g, '_')}`;
/** A non-NULL value of each of {@link NULL_TYPES}. */
const SOME_VALUE: Record<string, string> = {
  INT64: '1', FLOAT64: '1.0', NUMERIC: "NUMERIC '1'", BIGNUMERIC: "BIGNUMERIC '1'", STRING: "'x'", BYTES: "b'x'", BOOL: 'TRUE',
  DATE: "DATE '2000-01-01'", DATETIME: "DATETIME '2000-01-01 00:00:00'", TIMESTAMP: "TIMESTAMP '2000-01-01 00:00:00+00'",
  TIME: "TIME '00:00:00'", 'ARRAY<INT64>': '[1]', 'ARRAY<STRING>': "['x']",
};
const TYPED_NULL = /CAST\(NULL AS ([A-Z0-9_<>]+)\)/g;

/**
 * The statement creating `table` (`dataset.nulls`): one row, one NULL column per type of
 * {@link NULL_TYPES}; run it once before {@link differential} with that table name.
 */
export function nullsTableDdl(table: string): string {
  return `CREATE TABLE ${table} AS SELECT ${NULL_TYPES.map((t) => `CAST(NULL AS ${t}) AS ${nullColumn(t)}`).join(', ')}`;
}

/**
 * Known bqemu bug (see the differential report): an argument's runtime error is lost next to a NULL
 * argument. DuckDB folds `f(NULL, x)` to NULL without evaluating `x` when the NULL is a constant
 * (`SELECT CAST(NULL AS INT64) + MOD(10, 0)` returns NULL; the reference raises
 * `division by zero: MOD(10, 0)`), and bqemu's `CASE WHEN a IS NULL OR b IS NULL THEN NULL …`
 * lowerings skip evaluating `b` when `a` is NULL. Such a case (reference error, bqemu NULL) is
 * accepted only when bqemu gives the reference's error once the typed NULL literals are either read
 * from a table (no folding) or replaced by non-NULL values for which the reference raises the same
 * error.
 */
async function nullArgumentOnly(ref: ReferenceEvaluator, bq: BigQuery, nullsTable: string, expr: string, expected: CellOutcome): Promise<boolean> {
  const sameError = (r: ReferenceResult) => !r.ok && compareOutcomes(expected, { ok: false, message: r.message }) === undefined;
  const fromTable = expr.replace(TYPED_NULL, (all, t: string) => (NULL_TYPES.includes(t) ? `(SELECT ${nullColumn(t)} FROM ${nullsTable})` : all));
  if (fromTable === expr) return false;
  if (sameError(await runOnBqemu(bq, `SELECT ${fromTable} AS c0`))) return true;
  const nonNull = expr.replace(TYPED_NULL, (all, t: string) => SOME_VALUE[t] ?? all);
  if (!sameError(await ref.evaluate(`SELECT ${nonNull} AS c0`))) return false;
  return sameError(await runOnBqemu(bq, `SELECT ${nonNull} AS c0`));
}

/**
 * Known bqemu bug (see the differential report): DuckDB's optimizer rewrites `a + c1 <= c2` into
 * `a <= c2 - c1` (constants moved across a comparison), so an INT64 overflow inside a compared sum
 * is lost (`SELECT ((-1) + (-9223372036854775808)) <= 0` is TRUE; the reference raises
 * `int64 overflow: -1 + -9223372036854775808`). Accepted only for a BOOL answer when bqemu raises
 * exactly the reference's error for the overflowing operation on its own.
 */
async function movedConstantsOnly(bq: BigQuery, expected: CellOutcome, actual: CellOutcome): Promise<boolean> {
  if (expected.ok || !actual.ok || normaliseType(actual.field.type) !== 'BOOL') return false;
  const m = /^int64 overflow: (-?\d+) ([-+*]) (-?\d+)$/.exec(expected.message);
  if (!m) return false;
  const res = await runOnBqemu(bq, `SELECT (${m[1]}) ${m[2]} (${m[3]}) AS c0`);
  return !res.ok && res.message === expected.message;
}

/** Counters of one run: cases, cases the reference rejected, cases accepted under a known bug. */
export interface RunStats {
  cases: number;
  referenceErrors: number;
  knownNullFolding: number;
  knownMovedConstants: number;
}

/** Runs expressions on both sides and returns the mismatches (empty when bqemu agrees everywhere). */
export async function differential(ref: ReferenceEvaluator, bq: BigQuery, nullsTable: string, exprs: string[], stats?: RunStats): Promise<Mismatch[]> {
  const expected = await evaluateSplitting((sql) => ref.evaluate(sql), exprs, adaptToBigQuery);
  const okIdx = exprs.map((_, i) => i).filter((i) => expected[i]!.ok);
  const actual: CellOutcome[] = new Array(exprs.length);
  const okOut = await evaluateSplitting((sql) => runOnBqemu(bq, sql), okIdx.map((i) => exprs[i]!), (o) => o);
  okIdx.forEach((i, k) => (actual[i] = okOut[k]!));
  for (let i = 0; i < exprs.length; i++) {
    if (expected[i]!.ok) continue;
    const res = await runOnBqemu(bq, `SELECT ${exprs[i]} AS c0`);
    actual[i] = res.ok ? { ok: true, field: { ...res.schema[0]!, name: 'c0' }, value: res.rows[0]?.[res.schema[0]!.name] ?? null } : { ok: false, message: res.message };
  }
  const out: Mismatch[] = [];
  for (const [i, sql] of exprs.entries()) {
    const [e, a] = [expected[i]!, actual[i]!];
    if (stats) {
      stats.cases++;
      if (!e.ok) stats.referenceErrors++;
    }
    const why = compareOutcomes(e, a);
    if (!why) continue;
    if (!e.ok && a.ok && a.value === null && (await nullArgumentOnly(ref, bq, nullsTable, sql, e))) {
      if (stats) stats.knownNullFolding++;
      continue;
    }
    if (await movedConstantsOnly(bq, e, a)) {
      if (stats) stats.knownMovedConstants++;
      continue;
    }
    out.push({ sql: `SELECT ${sql}`, expected: show(e), actual: show(a), why });
  }
  return out;
}
