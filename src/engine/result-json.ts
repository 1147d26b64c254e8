/**
 * Query results encoded in bulk inside DuckDB: a projection over the lowered SELECT builds each
 * row's REST JSON text (`{"f":[{"v":"1"},{"v":null}]}`, the same bytes as the cell encoders of
 * src/wire/rest-values.ts, docs/ARCHITECTURE.md §5) with DuckDB's vectorised string functions,
 * on DuckDB's threads and in the result's order (a streamed result keeps it,
 * https://duckdb.org/docs/stable/sql/dialect/order_preservation). JavaScript copies each chunk's
 * row texts out in a few calls (the strings lie end to end in DuckDB's string heap) and keeps the
 * bytes as they are, gathered into blocks of ~1 MB in SharedArrayBuffers ({@link Slab}: memory V8
 * does not count; src/wire/encoded-rows.ts): a page is sent as views of them, never decoded into a
 * string. (Joining rows into blocks inside DuckDB — a window for the
 * rows' position, then an ordered `string_agg` per block — cost as much as building the texts.)
 *
 * Two cell forms that cost DuckDB more to plan than to fix afterwards are finished in JavaScript
 * on the copied bytes (src/engine/result-json-bytes.ts: the case of escaped control characters'
 * hex digits, FLOAT64 in Java's exponent form).
 *
 * Only columns whose text DuckDB writes exactly as the REST API does are encoded here (INT64,
 * FLOAT64, BOOL, STRING, BYTES, DATE); a result with any other column type (TIMESTAMP — its text
 * depends on formatOptions —, DATETIME, TIME, NUMERIC, BIGNUMERIC, JSON, GEOGRAPHY, INTERVAL,
 * RANGE, ARRAY, STRUCT) is read as domain values and encoded in JavaScript as before.
 */
import duckdbBindings from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import { EncodedRows } from '../wire/encoded-rows.js';
import { JAVA_FLOAT_MARK, javaFloatCells, lowerHexEscapes } from './result-json-bytes.js';
import { stringTs } from './duckdb/string-lengths.js';
import type { Value } from '../types/types.js';
import type { Engine, ResultField } from './engine-types.js';
import { guardValueSizes } from './result-size.js';
import { readKeptChunks } from './duckdb/kept-chunks.js';
import { releaseChunk } from './duckdb/native-memory.js';
import { recycleSlabs, Slab } from './result-slabs.js';

/**
 * Column kinds {@link cellPieces} writes, with the DuckDB column types each is written from (any
 * type when undefined): only those whose text the decoders (src/engine/duckdb/values.ts) and the
 * cell encoders (src/wire/rest-values.ts) give the same way.
 */
const BULK_KINDS = new Map<BqType['kind'], RegExp | undefined>([
  ['INT64', undefined],
  ['FLOAT64', undefined],
  ['BOOL', undefined],
  ['STRING', undefined],
  ['BYTES', undefined],
  ['DATE', undefined],
  ['JSON', /^(VARCHAR|JSON)$/],
  ['GEOGRAPHY', /^VARCHAR$/],
  ['DATETIME', /^TIMESTAMP$/],
  ['TIME', /^TIME$/],
  // NUMERIC's decoder rounds a scale over 9 to 9 digits: not written here.
  ['NUMERIC', /^(BIGINT|DECIMAL\(\d+,[0-9]\))$/],
  ['BIGNUMERIC', /^(BIGINT|VARCHAR|DECIMAL\(\d+,\d+\))$/],
]);

/**
 * True when every column of `fields` can be encoded inside DuckDB ({@link readEncodedRows}); with
 * `duckTypes` (the result's DuckDB column types, as DuckDB names them), also for the kinds written
 * from some DuckDB types only.
 */
export function bulkEncodable(fields: readonly { type: BqType }[], duckTypes?: readonly string[]): boolean {
  return (
    fields.length > 0 &&
    fields.every((f, i) => {
      if (!BULK_KINDS.has(f.type.kind)) return false;
      const from = BULK_KINDS.get(f.type.kind);
      return !from || (duckTypes !== undefined && from.test(duckTypes[i] ?? ''));
    })
  );
}

/** True when `fields` may be {@link bulkEncodable} once the DuckDB column types are known. */
export function bulkKinds(fields: readonly { type: BqType }[]): boolean {
  return fields.length > 0 && fields.every((f) => BULK_KINDS.has(f.type.kind));
}

/**
 * A DuckDB VARCHAR expression: `s` as a JSON string literal, as JSON.stringify writes it but for the
 * case of hex digits. DuckDB's `to_json` escapes the same characters (`"`, `\`, U+0000–U+001F) with
 * the same short forms, but writes the hex of `\u00XX` in upper case: {@link lowerHexEscapes} puts
 * it in lower case in the copied bytes. (Doing so in SQL — 32 nested `replace` calls per STRING
 * column — cost DuckDB ~3 ms of planning per STRING column for every bulk-encoded result.)
 */
function jsonStringSql(s: string): string {
  return `CAST(to_json(${s}) AS VARCHAR)`;
}

/** Kinds whose cell is a JSON string built by {@link jsonStringSql} (or `null`). */
const TEXTUAL_KINDS = new Set<BqType['kind']>(['STRING', 'JSON', 'GEOGRAPHY']);

/** A piece of one `concat`: a string literal, or a DuckDB VARCHAR expression. */
type Piece = { lit: string } | { sql: string };

/**
 * The REST cell JSON of column `c` (of a kind in BULK_KINDS) as pieces of one `concat`, for a value
 * known not to be NULL — or, for STRING, any value (its expression is `null` for NULL).
 */
function cellPieces(c: string, t: BqType): Piece[] {
  const quoted = (sql: string): Piece[] => [{ lit: '"' }, { sql }, { lit: '"' }];
  switch (t.kind) {
    case 'INT64':
      return quoted(`CAST(CAST(${c} AS BIGINT) AS VARCHAR)`);
    case 'FLOAT64': {
      // The value as the decoder (src/engine/duckdb/values.ts) sees it: a DOUBLE as it is, anything
      // else through its exact decimal text (a correctly rounded parse, as JavaScript's Number()).
      // typeof() is constant for a column, so DuckDB folds the CASE away.
      const x = `(CASE WHEN typeof(${c}) = 'DOUBLE' THEN CAST(${c} AS DOUBLE) ELSE CAST(CAST(${c} AS VARCHAR) AS DOUBLE) END)`;
      // NaN compares above every number in DuckDB, so it and ±Infinity fail the first test. In
      // [10^-3, 10^7) the text is DuckDB's JSON writer's (yyjson: the same shortest round-trip
      // digits and `.0` as CAST(… AS VARCHAR) writes there, checked over 3M values by
      // bench/paging-sql.ts `--check-float`, at half its CPU: ~160 vs ~330 ms per 1M values).
      // Outside it, Java's exponent form is written in JavaScript (javaFloatCells).
      return quoted(
        `CASE WHEN abs(${x}) >= 0.001 AND abs(${x}) < 10000000 THEN CAST(to_json(${x}) AS VARCHAR) WHEN ${x} = 0 THEN CAST(${x} AS VARCHAR) ` +
          `WHEN isnan(${x}) THEN 'NaN' WHEN isinf(${x}) THEN CASE WHEN ${x} > 0 THEN 'Infinity' ELSE '-Infinity' END ELSE chr(${JAVA_FLOAT_MARK}) || CAST(${x} AS VARCHAR) END`,
      );
    }
    case 'BOOL':
      return [{ sql: `CASE WHEN CAST(${c} AS BOOLEAN) THEN '"true"' ELSE '"false"' END` }];
    case 'STRING':
    case 'JSON':
    case 'GEOGRAPHY':
      // to_json of NULL is NULL: written `null`. JSON and GEOGRAPHY (WKT) cells are their text.
      return [{ sql: `coalesce(${jsonStringSql(`CAST(${c} AS VARCHAR)`)}, 'null')` }];
    case 'DATETIME': {
      // DuckDB writes `YYYY-MM-DD HH:MM:SS[.f…]` with the fraction's trailing zeros dropped; the
      // REST cell has a `T` and six fraction digits when there is a fraction.
      const x = `replace(CAST(CAST(${c} AS TIMESTAMP) AS VARCHAR), ' ', 'T')`;
      return quoted(`CASE WHEN contains(${x}, '.') THEN rpad(${x}, 26, '0') ELSE ${x} END`);
    }
    case 'TIME': {
      const x = `CAST(CAST(${c} AS TIME) AS VARCHAR)`;
      return quoted(`CASE WHEN contains(${x}, '.') THEN rpad(${x}, 15, '0') ELSE ${x} END`);
    }
    case 'NUMERIC':
    case 'BIGNUMERIC': {
      // A DECIMAL's text without the fraction's trailing zeros (nor a bare `.`); a BIGNUMERIC kept
      // as text is its canonical text already. typeof() is constant for a column: folded.
      const x = `CAST(${c} AS VARCHAR)`;
      return quoted(`CASE WHEN typeof(${c}) = 'VARCHAR' OR NOT contains(${x}, '.') THEN ${x} ELSE rtrim(rtrim(${x}, '0'), '.') END`);
    }
    case 'BYTES':
      return quoted(`to_base64(CAST(${c} AS BLOB))`);
    case 'DATE':
      return quoted(`CAST(CAST(${c} AS DATE) AS VARCHAR)`);
    default:
      throw BigQueryError.cannotEncodeRestCell('(bulk)', t.kind);
  }
}

/** One `concat` of `pieces`, adjacent literals joined (each argument is a string DuckDB builds per row). */
function concatSql(pieces: Piece[]): string {
  const args: string[] = [];
  let lit = '';
  for (const p of pieces) {
    if ('lit' in p) lit += p.lit;
    else {
      if (lit) args.push(`'${lit.replace(/'/g, "''")}'`);
      lit = '';
      args.push(p.sql);
    }
  }
  if (lit) args.push(`'${lit.replace(/'/g, "''")}'`);
  return `concat(${args.join(', ')})`;
}

/**
 * A DuckDB expression of the REST row JSON (`{"f":[{"v":…},…]}`) followed by `,` of columns `cols` of types
 * `types` (all in BULK_KINDS). The row is one `concat` of its cells' pieces (each cell wrapped in
 * its own string first cost ~40% more); a row with a NULL in a column other than a STRING one
 * takes a second form where each such cell is `null` or its text.
 */
function restRowSql(cols: readonly string[], types: readonly BqType[]): string {
  const row = (cell: (i: number) => Piece[]) => concatSql([{ lit: '{"f":[' }, ...cols.flatMap((_c, i) => [{ lit: i ? ',{"v":' : '{"v":' }, ...cell(i), { lit: '}' }]), { lit: ']},' }]);
  const fast = row((i) => cellPieces(cols[i]!, types[i]!));
  const textual = (t: BqType) => TEXTUAL_KINDS.has(t.kind);
  const nullable = cols.filter((_c, i) => !textual(types[i]!));
  if (!nullable.length) return fast;
  const orNull = (i: number): Piece[] => (textual(types[i]!) ? cellPieces(cols[i]!, types[i]!) : [{ sql: `CASE WHEN ${cols[i]} IS NULL THEN 'null' ELSE ${concatSql(cellPieces(cols[i]!, types[i]!))} END` }]);
  return `CASE WHEN ${nullable.map((c) => `${c} IS NULL`).join(' OR ')} THEN ${row(orNull)} ELSE ${fast} END`;
}

/**
 * The DuckDB SQL whose one VARCHAR column is, per row of `sql` (a SELECT whose columns are
 * `fields`, in order) and in its order, the row's REST text followed by `,`.
 * `sizesGuarded`: `sql`'s values were already checked against the largest value
 * (src/engine/result-size.ts guardValueSizes: rows kept from a run that did).
 */
export function restRowsSql(sql: string, fields: readonly ResultField[], sizesGuarded = false): string {
  const cols = fields.map((_f, i) => `"c${i}"`);
  return `SELECT ${restRowSql(cols, fields.map((f) => f.type))} AS j FROM (${sizesGuarded ? sql : guardValueSizes(sql, fields)}) AS __q(${cols.join(', ')})`;
}

/** UTF-8 bytes past which one block is not decoded into one JavaScript string (V8's string limit is ~512 MB). */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;

/**
 * Hands `keep` the texts of the row strings of a chunk's first column (a VARCHAR vector of
 * `chunk.rowCount` values, none NULL, read through DuckDB's binding: @duckdb/node-api's vector
 * objects cost ~30 ms per 1M rows of the event loop's time) copied out of DuckDB, as runs of consecutive rows' texts end to end (`bytes`, `rows` of them).
 * A string over 12 bytes lives behind the pointer of its `string_t` (length: bytes 0–3, pointer:
 * 8–15); strings a projection builds one after another sit one after another in the vector's
 * string heap, so each run of adjacent strings is copied with one call (a chunk of 2,048 rows is
 * ~6 runs; copying row by row cost ~1 µs per row). Any other layout gives shorter runs, down to
 * one string each. `lengths` holds each row's byte length (its text and `,`), read from the same
 * `string_t`s, so where each row starts is known without scanning the bytes for row boundaries.
 */
function chunkRuns(chunk: DuckDBDataChunk, keep: (bytes: Uint8Array, rows: number, lengths: Int32Array) => void): void {
  const n = chunk.rowCount;
  const dv = stringTs(chunk, 0);
  const lengths = new Int32Array(n);
  for (let i = 0; i < n; i++) lengths[i] = dv.getUint32(i * 16, true);
  const flush = (first: number, rows: number, bytes: number) => {
    const at = dv.byteOffset + first * 16;
    keep(bytes <= 12 ? new Uint8Array(dv.buffer, at + 4, bytes).slice() : duckdbBindings.get_data_from_pointer(dv.buffer as ArrayBuffer, at + 8, bytes), rows, lengths.subarray(first, first + rows));
  };
  let first = 0;
  let run = dv.getUint32(0, true);
  let lo = dv.getUint32(8, true);
  let hi = dv.getUint32(12, true);
  for (let i = 1; i < n; i++) {
    const len = dv.getUint32(i * 16, true);
    const plo = dv.getUint32(i * 16 + 8, true);
    const phi = dv.getUint32(i * 16 + 12, true);
    // Adjacent when both live behind pointers and this one starts where the run ends (64-bit add).
    const end = lo + run;
    if (run > 12 && len > 12 && plo === end % 2 ** 32 && phi === hi + Math.floor(end / 2 ** 32)) {
      run += len;
      continue;
    }
    flush(first, i - first, run);
    first = i;
    run = len;
    lo = plo;
    hi = phi;
  }
  flush(first, n - first, run);
}

/**
 * Runs `sql` (a SELECT whose columns are `fields`, all {@link bulkEncodable}) with its REST row
 * texts built inside DuckDB ({@link restRowsSql}, in parallel and in the result's order) and keeps
 * the runs of them copied out of DuckDB's chunks gathered into blocks of {@link EncodedRows} of
 * ~1 MB ({@link Slab}; ~64 blocks per million rows of 64 bytes). Returns undefined when a block is too large to become one
 * string (the caller reads the rows as domain values instead).
 * @throws BigQueryError `responseTooLarge` (403) when the rows' text (counted at 2 bytes per
 *   character, as the decoded rows are by readRows) passes `maxBytes`; the query's own errors.
 */
export async function readEncodedRows(e: Engine, sql: string, fields: readonly ResultField[], maxBytes = e.maxResponseBytes): Promise<EncodedRows | undefined> {
  return encodeRowTexts(fields, maxBytes, (visit, restart) => e.db.readChunks(restRowsSql(sql, fields), visit, restart));
}

/**
 * {@link readEncodedRows} of a result already read whole: its DuckDB `chunks` (of DuckDB column
 * types `duckTypes`) put in a temporary table whose row texts DuckDB builds
 * (src/engine/duckdb/kept-chunks.ts) — the query does not run again.
 * @throws BigQueryError as readEncodedRows; DuckDB's error when the table cannot be made.
 */
export async function readEncodedChunks(e: Engine, chunks: readonly DuckDBDataChunk[], duckTypes: readonly string[], fields: readonly ResultField[], maxBytes = e.maxResponseBytes): Promise<EncodedRows | undefined> {
  return encodeRowTexts(fields, maxBytes, (visit) => readKeptChunks(e.db, chunks, duckTypes, (table) => restRowsSql(`SELECT * FROM ${table}`, fields, true), visit));
}

/**
 * The row texts `stream` hands over (chunks of one VARCHAR column of {@link restRowsSql}; `restart`
 * when it starts over) as EncodedRows; undefined when a block is too large to become one string.
 * @throws BigQueryError `responseTooLarge` past `maxBytes` (2 bytes per character); `stream`'s errors.
 */
async function encodeRowTexts(
  fields: readonly ResultField[],
  maxBytes: number,
  stream: (visit: (chunk: DuckDBDataChunk) => void, restart: () => void) => Promise<void>,
): Promise<EncodedRows | undefined> {
  // Dropped kept rows give their slabs back for the next result (src/engine/result-slabs.ts).
  let out = new EncodedRows(recycleSlabs);
  let bytes = 0;
  let tooLarge = false;
  const slab = new Slab((block, rows, starts) => out.pushFlatBytes(block, rows, starts));
  const textual = fields.some((f) => TEXTUAL_KINDS.has(f.type.kind));
  const floats = fields.some((f) => f.type.kind === 'FLOAT64');
  const startOver = () => {
    out.drop();
    out = new EncodedRows(recycleSlabs);
    slab.clear();
  };
  try {
    await stream(
      (chunk) => {
        if (tooLarge || !chunk.rowCount) return;
        chunkRuns(chunk, (copied, rows, lengths) => {
          const text = floats ? javaFloatCells(copied, lengths) : copied;
          if (textual) lowerHexEscapes(text);
          bytes += 2 * (text.length - rows);
          if (text.length > MAX_BLOCK_BYTES) tooLarge = true;
          else slab.add(text, rows, lengths);
        });
        // Copied out: the chunk's memory goes back to DuckDB now (V8 does not count it).
        releaseChunk(chunk);
        if (bytes > maxBytes) throw BigQueryError.responseTooLarge();
      },
      () => {
        startOver();
        bytes = 0;
        tooLarge = false;
      },
    );
  } catch (e) {
    startOver();
    throw e;
  }
  slab.seal();
  if (!tooLarge) return out;
  startOver();
  return undefined;
}
