/**
 * Result comparison for the SQL corpus: schema, rows with type-driven tolerances, `job_metadata`,
 * and error parity (conformance/README.md "Fixture outcomes and compared fields", "Tolerances",
 * "Error parity").
 */
import type { Expected, SchemaField } from './fixtures.js';
import type { JsonValue } from './jsonsafe.js';
import { show, type ActualOutcome, type Diff } from './diff.js';
import { compareError } from './errorparity.js';
import {
  decimalsEqual,
  floatsEqual,
  intervalsEqual,
  isJsonShaped,
  isWktShaped,
  jsonValuesEqual,
  normaliseWkt,
  temporalEqual,
  tryParseJson,
} from './values.js';

export * from './diff.js';
export { compareError, pythonPatternToRegExp } from './errorparity.js';

const TYPE_ALIASES: Record<string, string> = {
  INTEGER: 'INT64',
  FLOAT: 'FLOAT64',
  BOOLEAN: 'BOOL',
  RECORD: 'STRUCT',
  DECIMAL: 'NUMERIC',
  BIGDECIMAL: 'BIGNUMERIC',
};

/**
 * Normalise a type name: upper case, legacy aliases mapped (conformance/README.md "Fixture outcomes
 * and compared fields").
 */
export function normaliseType(t: string | undefined): string {
  const u = (t ?? '').toUpperCase();
  return TYPE_ALIASES[u] ?? u;
}

/** Normalise a mode: absent means NULLABLE (conformance/README.md "Fixture outcomes and compared fields"). */
export function normaliseMode(m: string | undefined | null): string {
  return m ? m.toUpperCase() : 'NULLABLE';
}

/**
 * Compare schemas field by field: names exact, types alias-normalised, modes with NULLABLE default,
 * nested `fields` recursively (conformance/README.md "Fixture outcomes and compared fields").
 * Returns the first difference, or `undefined`.
 */
export function compareSchema(expected: SchemaField[], actual: SchemaField[], path = 'schema'): Diff | undefined {
  if (expected.length !== actual.length) {
    const names = (fs: SchemaField[]) => fs.map((f) => f.name).join(',');
    return { kind: 'schema', path, message: `${path}: ${expected.length} fields expected [${names(expected)}], got ${actual.length} [${names(actual)}]`, cause: 'schema field count' };
  }
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i]!;
    const a = actual[i]!;
    const p = `${path}[${i}]`;
    if (e.name !== a.name) return { kind: 'schema', path: p, message: `${p}.name: expected ${show(e.name)}, got ${show(a.name)}`, cause: 'schema name' };
    const et = normaliseType(e.type);
    const at = normaliseType(a.type);
    if (et !== at) return { kind: 'schema', path: p, message: `${p}.type (${e.name}): expected ${et}, got ${at}`, cause: `schema type ${et} vs ${at}` };
    const em = normaliseMode(e.mode);
    const am = normaliseMode(a.mode);
    if (em !== am) return { kind: 'schema', path: p, message: `${p}.mode (${e.name}): expected ${em}, got ${am}`, cause: `schema mode ${em} vs ${am}` };
    const ef = e.fields ?? [];
    const af = a.fields ?? [];
    if (ef.length > 0 || af.length > 0) {
      const d = compareSchema(ef, af, `${p}.fields`);
      if (d) return d;
    }
  }
  return undefined;
}

function toBigInt(v: unknown): bigint | undefined {
  try {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : undefined;
    if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return BigInt(v.trim());
  } catch {
    return undefined;
  }
  return undefined;
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isNaN(n) && v.trim() !== 'NaN' ? undefined : n;
  }
  return undefined;
}

function toBase64(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function compareString(e: string, a: string): boolean {
  if (e === a) return true;
  if (isWktShaped(e) || isWktShaped(a)) return normaliseWkt(e) === normaliseWkt(a);
  if (isJsonShaped(e) || isJsonShaped(a)) {
    const pe = tryParseJson(e);
    const pa = tryParseJson(a);
    if (pe && pa) return jsonValuesEqual(pe.value, pa.value);
  }
  return false;
}

function rangeBoundEqual(e: unknown, a: unknown): boolean {
  const en = e === undefined || e === null || e === 'UNBOUNDED';
  const an = a === undefined || a === null || a === 'UNBOUNDED';
  if (en || an) return en && an;
  if (typeof e !== 'string' || typeof a !== 'string') return false;
  return e === a || temporalEqual(e, a, 'TIMESTAMP');
}

/**
 * Compare one scalar (non-NULL, non-repeated, non-struct) by its normalised type
 * (conformance/README.md "Tolerances").
 */
export function scalarsEqual(type: string, e: unknown, a: unknown): boolean {
  switch (type) {
    case 'INT64': {
      const x = toBigInt(e);
      const y = toBigInt(a);
      return x !== undefined && x === y;
    }
    case 'FLOAT64': {
      const x = toNumber(e);
      const y = toNumber(a);
      return x !== undefined && y !== undefined && floatsEqual(x, y);
    }
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return (typeof e === 'string' || typeof e === 'number' || typeof e === 'bigint') &&
        (typeof a === 'string' || typeof a === 'number' || typeof a === 'bigint') &&
        decimalsEqual(String(e), String(a));
    case 'BOOL':
      return typeof e === 'boolean' && e === a;
    case 'STRING':
      return typeof e === 'string' && typeof a === 'string' && compareString(e, a);
    case 'BYTES': {
      const x = toBase64(e);
      return x !== undefined && x === toBase64(a);
    }
    case 'DATE':
      return typeof e === 'string' && e === a;
    case 'TIMESTAMP':
    case 'DATETIME':
    case 'TIME':
      return typeof e === 'string' && typeof a === 'string' && temporalEqual(e, a, type);
    case 'GEOGRAPHY':
      return typeof e === 'string' && typeof a === 'string' && normaliseWkt(e) === normaliseWkt(a);
    case 'JSON': {
      const pe = typeof e === 'string' ? tryParseJson(e) : { value: e };
      const pa = typeof a === 'string' ? tryParseJson(a) : { value: a };
      if (!pe || !pa) return e === a;
      return jsonValuesEqual(pe.value, pa.value);
    }
    case 'INTERVAL':
      return typeof e === 'string' && typeof a === 'string' && intervalsEqual(e, a);
    case 'RANGE':
      return isPlainObject(e) && isPlainObject(a) && rangeBoundEqual(e.start, a.start) && rangeBoundEqual(e.end, a.end);
    default:
      return jsonValuesEqual(e, a);
  }
}

/**
 * Compare one cell under its expected schema field (conformance/README.md "Tolerances"): REPEATED →
 * ordered element-wise, STRUCT → per declared field recursively, scalars by type. Returns a
 * message, or `undefined` on match.
 */
export function compareCell(e: unknown, a: unknown, field: SchemaField, path: string): string | undefined {
  const type = normaliseType(field.type);
  if (normaliseMode(field.mode) === 'REPEATED') {
    const el = e ?? [];
    const al = a ?? [];
    if (!Array.isArray(el) || !Array.isArray(al)) return `${path}: expected array ${show(e)}, got ${show(a)}`;
    if (el.length !== al.length) return `${path}: array length ${el.length} expected, got ${al.length} (expected ${show(e)}, got ${show(a)})`;
    const elementField: SchemaField = { ...field, mode: 'NULLABLE' };
    for (let i = 0; i < el.length; i++) {
      const d = compareCell(el[i], al[i], elementField, `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const en = e === null || e === undefined;
  const an = a === null || a === undefined;
  if (en || an) return en && an ? undefined : `${path} (${type}): expected ${show(e ?? null)}, got ${show(a ?? null)} (NULL mismatch)`;
  if (type === 'STRUCT') {
    if (!isPlainObject(e) || !isPlainObject(a)) return `${path}: expected STRUCT ${show(e)}, got ${show(a)}`;
    for (const f of field.fields ?? []) {
      const d = compareCell(e[f.name], a[f.name], f, `${path}.${f.name}`);
      if (d) return d;
    }
    return undefined;
  }
  return scalarsEqual(type, e, a) ? undefined : `${path} (${type}): expected ${show(e)}, got ${show(a)}`;
}

function rowsEqual(schema: SchemaField[], e: Record<string, unknown>, a: Record<string, unknown>): boolean {
  return schema.every((f) => compareCell(e[f.name], a[f.name], f, f.name) === undefined);
}

/** True when the rows match as multisets (used to tell an ordering difference from a value one). */
function sameMultiset(schema: SchemaField[], exp: Record<string, unknown>[], act: Record<string, unknown>[]): boolean {
  if (exp.length !== act.length || exp.length > 2000) return false;
  const used = new Array<boolean>(act.length).fill(false);
  return exp.every((e) => {
    const j = act.findIndex((a, k) => !used[k] && rowsEqual(schema, e, a));
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
}

/**
 * Compare rows in order under the expected schema (conformance/README.md "Tolerances"). When the
 * values match only as a multiset, a single `row-order` diff is returned instead of the cell diffs.
 * At most `limit` diffs.
 */
export function compareRows(schema: SchemaField[], expected: Record<string, unknown>[], actual: Record<string, unknown>[], limit = 3): Diff[] {
  if (expected.length !== actual.length) {
    return [{ kind: 'row-count', path: 'rows', message: `row count: expected ${expected.length}, got ${actual.length}`, cause: expected.length > actual.length ? 'fewer rows than expected' : 'more rows than expected' }];
  }
  const diffs: Diff[] = [];
  for (let r = 0; r < expected.length && diffs.length < limit; r++) {
    for (const f of schema) {
      const d = compareCell(expected[r]![f.name], actual[r]![f.name], f, `rows[${r}].${f.name}`);
      if (d) {
        diffs.push({ kind: 'rows', path: `rows[${r}].${f.name}`, message: d, cause: `cell mismatch ${/NULL mismatch/.test(d) ? 'NULL ' : ''}(${normaliseType(f.type)}${normaliseMode(f.mode) === 'REPEATED' ? '[]' : ''})` });
        if (diffs.length >= limit) break;
      }
    }
  }
  if (diffs.length > 0 && sameMultiset(schema, expected, actual)) {
    return [{ kind: 'row-order', path: 'rows', message: `rows match as a multiset but not in order (first: ${diffs[0]!.message})`, cause: 'row order differs' }];
  }
  return diffs;
}

function camelCase(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function getPath(obj: unknown, path: string[]): unknown {
  let cur: unknown = obj;
  for (const k of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/**
 * Where each known `job_metadata` key lives in the job resource (conformance/README.md "Fixture
 * outcomes and compared fields").
 */
export const JOB_METADATA_PATHS: Record<string, string[]> = {
  statement_type: ['statistics', 'query', 'statementType'],
  cache_hit: ['statistics', 'query', 'cacheHit'],
  num_dml_affected_rows: ['statistics', 'query', 'numDmlAffectedRows'],
  ddl_operation_performed: ['statistics', 'query', 'ddlOperationPerformed'],
  total_bytes_processed: ['statistics', 'query', 'totalBytesProcessed'],
  total_bytes_billed: ['statistics', 'query', 'totalBytesBilled'],
  session_id: ['statistics', 'sessionInfo', 'sessionId'],
  labels: ['configuration', 'labels'],
  use_legacy_sql: ['configuration', 'query', 'useLegacySql'],
  dry_run: ['configuration', 'dryRun'],
  state: ['status', 'state'],
};

/** Look up a snake_case `job_metadata` key in a job resource (known paths, then camelCase search). */
export function jobMetadataValue(job: Record<string, unknown> | undefined, key: string): unknown {
  if (!job) return undefined;
  const known = JOB_METADATA_PATHS[key];
  if (known) return getPath(job, known);
  const k = camelCase(key);
  for (const base of [['statistics', 'query'], ['statistics'], ['configuration', 'query'], ['configuration'], []]) {
    const v = getPath(job, [...base, k]);
    if (v !== undefined) return v;
  }
  return undefined;
}

function metadataEqual(e: JsonValue, a: unknown): boolean {
  if (typeof e === 'boolean') return a === e;
  if (typeof e === 'number' || typeof e === 'bigint') {
    const x = toBigInt(e);
    const y = toBigInt(a);
    if (x !== undefined && y !== undefined) return x === y;
    const ny = toNumber(a);
    return ny !== undefined && floatsEqual(Number(e), ny);
  }
  if (typeof e === 'string' || e === null) return a === e || (e === null && a === undefined);
  return jsonValuesEqual(e, a);
}

/**
 * Diff `job_metadata` key by key; only keys present in the recording are checked
 * (conformance/README.md "Fixture outcomes and compared fields").
 */
export function compareJobMetadata(expected: Record<string, JsonValue>, job: Record<string, unknown> | undefined): Diff[] {
  const diffs: Diff[] = [];
  for (const [key, e] of Object.entries(expected)) {
    const a = jobMetadataValue(job, key);
    if (!metadataEqual(e, a)) {
      diffs.push({ kind: 'job-metadata', path: `job_metadata.${key}`, message: `job_metadata.${key}: expected ${show(e)}, got ${show(a)}`, cause: `job_metadata.${key}${a === undefined ? ' absent' : ''}` });
    }
  }
  return diffs;
}

/**
 * Compare a whole outcome against the baseline (conformance/README.md "Fixture outcomes and
 * compared fields"): a success/error mismatch yields one "kind mismatch" diff before any per-field
 * diff; otherwise schema → rows → job_metadata for success, or error parity for error fixtures.
 */
export function compareOutcome(expected: Expected, actual: ActualOutcome): Diff[] {
  if (expected.error) {
    if (actual.kind !== 'error') {
      return [{ kind: 'kind mismatch', path: '', message: `kind mismatch: expected error ${expected.error.reason} (${show(expected.error.message_sample)}), but the query succeeded`, cause: 'expected error, got success' }];
    }
    return compareError(expected.error, actual);
  }
  if (actual.kind !== 'success') {
    return [{ kind: 'kind mismatch', path: '', message: `kind mismatch: expected success, got error ${actual.reason ?? '<no reason>'} (HTTP ${actual.httpStatus ?? '?'}): ${actual.message}`, cause: `emulator error: ${actual.reason ?? '<no reason>'}: ${actual.message}` }];
  }
  const schema = expected.schema ?? [];
  const sd = compareSchema(schema, actual.schema);
  if (sd) return [sd];
  const rd = compareRows(schema, expected.rows ?? [], actual.rows);
  if (rd.length > 0) return rd;
  return expected.job_metadata ? compareJobMetadata(expected.job_metadata, actual.job) : [];
}
