/**
 * Query results encoded in bulk inside DuckDB: a projection over the lowered SELECT builds each
 * row's REST JSON text (`{"f":[{"v":"1"},{"v":null}]}`, the same bytes as the cell encoders of
 * src/wire/rest-values.ts, docs/ARCHITECTURE.md §5) with DuckDB's vectorised string functions,
 * and joins 1,024 rows at a time into one block text (`string_agg` ordered by the rows' original
 * position: a window with an empty OVER clause keeps the input order, as an ORDER BY's output,
 * https://duckdb.org/docs/stable/sql/dialect/order_preservation). DuckDB does that work on its own
 * threads; JavaScript reads ~1,000 byte blocks per million rows instead of a million rows of
 * domain values and keeps the bytes as they are (src/wire/encoded-rows.ts): a page is sent as
 * views of them, never decoded into a string.
 *
 * Only columns whose text DuckDB writes exactly as the REST API does are encoded here (INT64,
 * FLOAT64, BOOL, STRING, BYTES, DATE); a result with any other column type (TIMESTAMP — its text
 * depends on formatOptions —, DATETIME, TIME, NUMERIC, BIGNUMERIC, JSON, GEOGRAPHY, INTERVAL,
 * RANGE, ARRAY, STRUCT) is read as domain values and encoded in JavaScript as before.
 */
import type { DuckDBBlobVector, DuckDBVector } from '@duckdb/node-api';
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import { EncodedRows, ROWS_PER_BLOCK } from '../wire/encoded-rows.js';
import type { Value } from '../types/types.js';
import type { Engine, ResultField } from './engine-types.js';
import { guardValueSizes } from './result-size.js';
import { readRows } from './statement-context.js';

/** Column kinds {@link restCellSql} writes. */
const BULK_KINDS = new Set<BqType['kind']>(['INT64', 'FLOAT64', 'BOOL', 'STRING', 'BYTES', 'DATE']);

/** True when every column of `fields` can be encoded inside DuckDB ({@link readEncodedRows}). */
export function bulkEncodable(fields: readonly { type: BqType }[]): boolean {
  return fields.length > 0 && fields.every((f) => BULK_KINDS.has(f.type.kind));
}

/** JSON.stringify's escape of a control character (`\n`, `\u001f` with lower-case hex). */
const controlEscape = (code: number): string => JSON.stringify(String.fromCharCode(code)).slice(1, -1);

/**
 * A DuckDB VARCHAR expression: `s` as a JSON string literal exactly as JSON.stringify writes it.
 * DuckDB's `to_json` escapes the same characters (`"`, `\`, U+0000–U+001F) with the same short
 * forms, but writes the hex of `\u00XX` in upper case; strings holding a control character with a
 * letter in its hex (U+000B, U+000E, U+000F, U+001A–U+001F) are escaped by replacements instead.
 */
function jsonStringSql(s: string): string {
  let manual = `replace(replace(${s}, '\\', '\\\\'), '"', '\\"')`;
  for (let c = 0; c < 0x20; c++) manual = `replace(${manual}, chr(${c}), '${controlEscape(c)}')`;
  // `\u00` in to_json's text: an escaped control character (or an escaped backslash before `u00`).
  const json = `CAST(to_json(${s}) AS VARCHAR)`;
  return `CASE WHEN contains(${json}, '\\u00') AND regexp_matches(${s}, '[\\x0b\\x0e\\x0f\\x1a-\\x1f]') THEN '"' || ${manual} || '"' ELSE ${json} END`;
}

/**
 * Java's `Double.toString` (the REST FLOAT64 text, `formatFloat64` in src/wire/rest-values.ts) of
 * the finite, non-zero DOUBLE `x` outside [10^-3, 10^7): `d.dddE±n` from the shortest round-trip
 * digits DuckDB writes (`1.5e+20`, `1e-05`, or plain `12345678.9` / `0.00099`); a subnormal with
 * one shortest digit takes the two-digit form when it round-trips (`4.9E-324`).
 */
function javaExponentSql(x: string): string {
  const s = `CAST(abs(${x}) AS VARCHAR)`;
  const text = (digits: string, exp: string) =>
    `left(${digits}, 1) || '.' || CASE WHEN length(${digits}) > 1 THEN substr(${digits}, 2) ELSE '0' END || 'E' || CAST(${exp} AS VARCHAR)`;
  const intPart = `split_part(${s}, '.', 1)`;
  const frac = `split_part(${s}, '.', 2)`;
  const sig = `ltrim(${frac}, '0')`;
  const plainBig = text(`rtrim(${intPart} || ${frac}, '0')`, `length(${intPart}) - 1`);
  const plainSmall = text(`rtrim(${sig}, '0')`, `-(length(${frac}) - length(${sig}) + 1)`);
  const expDigits = `replace(split_part(${s}, 'e', 1), '.', '')`;
  const expForm = text(expDigits, `CAST(split_part(${s}, 'e', 2) AS INTEGER)`);
  const two = `printf('%.1e', abs(${x}))`;
  const twoForm = text(`replace(regexp_replace(split_part(${two}, 'e', 1), '\\.?0$', ''), '.', '')`, `CAST(split_part(${two}, 'e', 2) AS INTEGER)`);
  return (
    `CASE WHEN signbit(${x}) THEN '-' ELSE '' END || CASE ` +
    `WHEN contains(${s}, 'e') THEN CASE WHEN abs(${x}) < 2.2250738585072014e-308 AND length(${expDigits}) = 1 AND CAST(${two} AS DOUBLE) = abs(${x}) THEN ${twoForm} ELSE ${expForm} END ` +
    `WHEN ${intPart} <> '0' THEN ${plainBig} ELSE ${plainSmall} END`
  );
}

/** A DuckDB expression of the REST cell JSON (`"…"` or `null`) of column `c`, of a kind in BULK_KINDS. */
function restCellSql(c: string, t: BqType): string {
  const q = (text: string) => `'"' || ${text} || '"'`;
  // Each cell expression is NULL exactly when the value is (`||` propagates NULL): coalesced to `null`.
  let cell: string;
  switch (t.kind) {
    case 'INT64':
      cell = q(`CAST(CAST(${c} AS BIGINT) AS VARCHAR)`);
      break;
    case 'FLOAT64': {
      // The value as the decoder (src/engine/duckdb/values.ts) sees it: a DOUBLE as it is, anything
      // else through its exact decimal text (a correctly rounded parse, as JavaScript's Number()).
      // typeof() is constant for a column, so DuckDB folds the CASE away.
      const x = `(CASE WHEN typeof(${c}) = 'DOUBLE' THEN CAST(${c} AS DOUBLE) ELSE CAST(CAST(${c} AS VARCHAR) AS DOUBLE) END)`;
      // NaN compares above every number in DuckDB, so it and ±Infinity fail the first test.
      cell = q(
        `CASE WHEN abs(${x}) >= 0.001 AND abs(${x}) < 10000000 THEN CAST(${x} AS VARCHAR) WHEN ${x} = 0 THEN CAST(${x} AS VARCHAR) ` +
          `WHEN isnan(${x}) THEN 'NaN' WHEN isinf(${x}) THEN CASE WHEN ${x} > 0 THEN 'Infinity' ELSE '-Infinity' END ELSE ${javaExponentSql(x)} END`,
      );
      break;
    }
    case 'BOOL':
      cell = `CASE WHEN CAST(${c} AS BOOLEAN) THEN '"true"' WHEN NOT CAST(${c} AS BOOLEAN) THEN '"false"' END`;
      break;
    case 'STRING':
      cell = jsonStringSql(`CAST(${c} AS VARCHAR)`);
      break;
    case 'BYTES':
      cell = q(`to_base64(CAST(${c} AS BLOB))`);
      break;
    case 'DATE':
      cell = q(`CAST(CAST(${c} AS DATE) AS VARCHAR)`);
      break;
    default:
      throw BigQueryError.cannotEncodeRestCell('(bulk)', t.kind);
  }
  return `coalesce(${cell}, 'null')`;
}

/**
 * The DuckDB SQL whose rows are blocks of REST row texts of `sql` (a SELECT whose columns are
 * `fields`, in order): per block of up to {@link ROWS_PER_BLOCK} consecutive rows, in order, the
 * rows' texts joined by `,` as UTF-8 bytes (a BLOB: JavaScript reads the bytes without decoding
 * them), their length and the number of rows.
 */
export function restRowBlocksSql(sql: string, fields: readonly ResultField[]): string {
  const cols = fields.map((_f, i) => `"c${i}"`);
  const row = `concat('{"f":[', ${fields.map((f, i) => `${i ? `',{"v":'` : `'{"v":'`}, ${restCellSql(cols[i]!, f.type)}, '}'`).join(', ')}, ']}')`;
  return (
    `WITH __rows AS (SELECT ${row} AS j, row_number() OVER () - 1 AS n FROM (${guardValueSizes(sql, fields)}) AS __q(${cols.join(', ')})) ` +
    `SELECT encode(string_agg(j, ',' ORDER BY n)) AS text, sum(strlen(j)) + count(*) - 1 AS bytes, count(*) AS rows FROM __rows GROUP BY n // ${ROWS_PER_BLOCK} ORDER BY n // ${ROWS_PER_BLOCK}`
  );
}

/** Longest stretch (ms) of reading blocks before other work on the event loop runs. */
const SLICE_MS = 8;

/** UTF-8 bytes past which one block is not decoded into one JavaScript string (V8's string limit is ~512 MB). */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;

/**
 * Runs `sql` (a SELECT whose columns are `fields`, all {@link bulkEncodable}) with its REST row
 * texts built inside DuckDB ({@link restRowBlocksSql}) and keeps them as {@link EncodedRows}, a
 * few blocks at a time between turns of the event loop. Returns undefined when a block is too
 * large to become one string (the caller reads the rows as domain values instead).
 * @throws BigQueryError `responseTooLarge` (403) when the rows' text (counted at 2 bytes per
 *   character, as the decoded rows are by readRows) passes `maxBytes`; the query's own errors.
 */
export async function readEncodedRows(e: Engine, sql: string, fields: readonly ResultField[], maxBytes = e.maxResponseBytes): Promise<EncodedRows | undefined> {
  const chunks: { blocks: DuckDBBlobVector; rows: DuckDBVector; n: number }[] = [];
  let bytes = 0;
  let tooLarge = false;
  await e.db.readChunks(
    restRowBlocksSql(sql, fields),
    (chunk) => {
      const sizes = chunk.getColumnVector(1);
      for (let i = 0; i < chunk.rowCount; i++) {
        const b = Number(sizes.getItem(i));
        if (b > MAX_BLOCK_BYTES) tooLarge = true;
        bytes += 2 * b;
      }
      if (bytes > maxBytes) throw BigQueryError.responseTooLarge();
      chunks.push({ blocks: chunk.getColumnVector(0) as DuckDBBlobVector, rows: chunk.getColumnVector(2), n: chunk.rowCount });
    },
    () => {
      chunks.length = 0;
      bytes = 0;
      tooLarge = false;
    },
  );
  if (tooLarge) return undefined;
  const out = new EncodedRows();
  let since = performance.now();
  for (const c of chunks)
    for (let i = 0; i < c.n; i++) {
      const u8 = c.blocks.getItemBytes(i)!;
      // A view of the bytes the bindings copied out of DuckDB (inline values of ≤ 12 bytes are
      // views of the chunk, which the block outlives: copied).
      const block = u8.byteLength <= 12 ? Buffer.from(u8) : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
      out.pushFlatBytes(block, Number(c.rows.getItem(i)));
      if (performance.now() - since > SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  return out;
}

/**
 * Decoded size (readRows' measure, src/engine/result-size.ts) up to which a result is read as
 * domain values: the bulk SQL's window, grouping and ordering cost DuckDB ~2.5 ms of CPU even for
 * one row (a `SELECT 1` job took 3.9 ms of server CPU instead of 1.3 ms), while reading this much as
 * domain values costs JavaScript ~15 ms at most.
 */
const SMALL_RESULT_BYTES = 1024 * 1024;

/**
 * The rows of `sql` (a SELECT whose columns are `fields`) for a job's result: as domain values when
 * the result is small or a column is not {@link bulkEncodable}; otherwise — the first
 * {@link SMALL_RESULT_BYTES} read showed a large result — the query runs again with its REST text
 * built inside DuckDB ({@link readEncodedRows}).
 * @throws BigQueryError `responseTooLarge` past the engine's response limit; the query's errors.
 */
export async function readResultRows(e: Engine, sql: string, fields: readonly ResultField[]): Promise<{ rows: Value[][] } | { encodedRows: EncodedRows }> {
  const small = Math.min(SMALL_RESULT_BYTES, e.maxResponseBytes);
  if (!bulkEncodable(fields) || small >= e.maxResponseBytes) return { rows: await readRows(e, sql, [...fields]) };
  try {
    return { rows: await readRows(e, sql, [...fields], small) };
  } catch (err) {
    if (!(err instanceof BigQueryError) || err.reason !== 'responseTooLarge') throw err;
  }
  const encodedRows = await readEncodedRows(e, sql, fields);
  return encodedRows ? { encodedRows } : { rows: await readRows(e, sql, [...fields]) };
}
