/**
 * What the statement handlers share: the lowering context of a statement's bound tables (row
 * access filters applied — src/engine/row-access.ts decides who is granted —, expired partitions
 * dropped), BigQuery's result column names, lowering a
 * query, reading a lowered SELECT's rows under the response-size limit, and the relation of a view.
 */
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Value } from '../types/types.js';
import type { Engine, QueryOptions, ResultField } from './engine-types.js';
import { colName, colType, makeAliaser, type BoundTable, type LowerContext } from './lower/context.js';
import { lowerScan } from './lower/scans.js';
import { duckType } from './duckdb/types.js';
import { makeColumnDecoder, toDuckLiteral } from './duckdb/values.js';
import { approxValueBytes, FIXED_CELL_BYTES, guardValueSizes, isVariableSize } from './result-size.js';
import { variableCellsBound } from './duckdb/string-lengths.js';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import type { NameDefaults } from './names.js';
import { effectiveCaller, filterQuery, grants, type Caller } from './row-access.js';
import { bindSystemTime } from './system-time.js';
import { expirePartitions } from './expiration.js';
import { releaseChunk } from './duckdb/native-memory.js';

/** Builds the lowering context for a statement's bound tables. */
export async function makeContext(e: Engine, tables: Map<string, TableMeta>, opts: NameDefaults & Partial<QueryOptions> & { noRowAccess?: boolean }): Promise<LowerContext> {
  const bound = new Map<string, BoundTable>();
  for (const [id, t] of tables) {
    await expirePartitions(e, t);
    const b: BoundTable = await e.relationOf(t, opts);
    // Reads of a table with row access policies see only the rows granted to the caller.
    const read = opts.noRowAccess ? undefined : await filteredRelation(e, t, b, opts.caller);
    bound.set(id, { ...b, ...(read ? { read } : {}), ...(t.type === 'TABLE' ? { schema: t.columns } : {}) });
  }
  return {
    tables: bound,
    namedParams: opts.namedParams ?? new Map(),
    positionalParams: opts.positionalParams ?? [],
    duckType,
    literal: toDuckLiteral,
    alias: makeAliaser(),
    scan: lowerScan,
  };
}

/**
 * The relation a read of table `t` sees under its row access policies, or undefined when it has
 * none. `b` is the table's unfiltered binding.
 */
export async function filteredRelation(e: Engine, t: TableMeta, b: BoundTable, caller: Caller | undefined): Promise<string | undefined> {
  if (t.type !== 'TABLE' || t.wildcard || t.infoSchema) return undefined;
  const policies = e.catalog.listRowAccessPolicies(t.projectId, t.datasetId, t.tableId);
  if (!policies.length) return undefined;
  const who = effectiveCaller(caller);
  const mine = policies.filter((p) => grants(p.grantees, who));
  if (!mine.length) return `(SELECT * FROM ${b.relation} WHERE FALSE)`;
  const defaults: NameDefaults = { projectId: t.projectId, defaultDataset: { projectId: t.projectId, datasetId: t.datasetId } };
  const a = await e.statements.analyze(filterQuery(t, mine.map((p) => p.filterPredicate)), 0, defaults, {});
  // The predicate's own table reads are not filtered again (no recursion through the policy).
  const ctx = await makeContext(e, a.tables, { ...defaults, noRowAccess: true });
  const outs: Node[] = a.stmt.outputColumnList ?? [];
  const items = outs.map((o, i) => `${colName(o.column)} AS ${dq(b.columns[i] ?? `f${i}_`)}`);
  return `(SELECT ${items.join(', ')} FROM (${lowerScan(a.stmt.query, ctx)}))`;
}

/** Rows in one DuckDB data chunk (its STANDARD_VECTOR_SIZE): a result of at most this many is read in one call. */
export const DUCKDB_CHUNK_ROWS = 2048;

/**
 * BigQuery's names for result columns: anonymous ones are `f0_`, `f1_`, …; a repeated name gets
 * `_1`, `_2`, … (recorded standard_functions/tpcds_q39: `w_warehouse_sk`, `w_warehouse_sk_1`).
 */
export function resultFields(outputs: Node[]): ResultField[] {
  let anon = 0;
  const seen = new Map<string, number>();
  return outputs.map((o) => {
    let name = !o.name || String(o.name).startsWith('$') ? `f${anon++}_` : String(o.name);
    const key = name.toLowerCase();
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    if (n > 0) name = `${name}_${n}`;
    return { name, type: colType(o.column) };
  });
}

/** Lowers a query statement's scan to a SELECT of its output columns, in order. */
export function lowerQuery(stmt: Node, ctx: LowerContext): string {
  const outs: Node[] = stmt.outputColumnList ?? [];
  return `SELECT ${outs.map((o) => colName(o.column)).join(', ')} FROM (${lowerScan(stmt.query, ctx)})`;
}

/**
 * Runs a lowered SELECT and decodes its rows into domain values, chunk by chunk as DuckDB produces
 * them. A single STRING/BYTES/JSON value over 100 MB fails in DuckDB before it is decoded, and the
 * decoded size is counted as it grows (src/engine/result-size.ts): past `maxBytes` (default the
 * engine's response limit) the query stops. `duckTypes`, when given, receives the DuckDB types of
 * the result's columns as DuckDB names them (`DECIMAL(38,9)`), from its first chunk. `rowsAtMost`:
 * the most rows the query can return when known (src/engine/lower/row-bound.ts); one chunk's worth
 * or fewer is read in one call to DuckDB (Database.readChunks `materialize`).
 * @throws BigQueryError `responseTooLarge` (403) "Response too large to return. …" past the limit.
 */
export async function readRows(e: Engine, sql: string, fields: ResultField[], maxBytes = e.maxResponseBytes, duckTypes?: string[], rowsAtMost?: number): Promise<Value[][]> {
  const d = chunkDecoder(fields, maxBytes, duckTypes);
  await e.db.readChunks(guardValueSizes(sql, fields), d.visit, d.reset, rowsAtMost !== undefined && rowsAtMost <= DUCKDB_CHUNK_ROWS);
  checkNoNullArrayElements(d.out, fields);
  return d.out;
}

/** readRows' measure of a row's cells of fixed size (src/engine/result-size.ts), with the row's own 16 bytes. */
function fixedBytesPerRow(fields: ResultField[]): number {
  return 16 + fields.filter((f) => !isVariableSize(f.type)).length * FIXED_CELL_BYTES;
}

/** Fills an empty `duckTypes` with the DuckDB types of `chunk`'s columns as DuckDB names them. */
function noteDuckTypes(chunk: DuckDBDataChunk, duckTypes: string[]): void {
  if (!duckTypes.length) for (let j = 0; j < chunk.columnCount; j++) duckTypes.push(chunk.getColumnVector(j).type.toString());
}

/**
 * Decodes DuckDB chunks of a result of `fields` into `out` (domain values, row-major), counting
 * their decoded size (src/engine/result-size.ts) as it grows; `reset` forgets what was decoded.
 * `duckTypes`, when given and empty, receives the DuckDB types of the columns from the first chunk.
 * @throws BigQueryError `responseTooLarge` from `visit` once the size passes `maxBytes`.
 */
function chunkDecoder(fields: ResultField[], maxBytes: number, duckTypes?: string[]) {
  const decoders = fields.map((f) => makeColumnDecoder(f.type));
  const variable = fields.map((f) => isVariableSize(f.type));
  const fixedRowBytes = fixedBytesPerRow(fields);
  const out: Value[][] = [];
  let bytes = 0;
  const visit = (chunk: DuckDBDataChunk) => {
    if (duckTypes) noteDuckTypes(chunk, duckTypes);
    // Column-major read (cheaper than per-row arrays), decoded straight into rows.
    const columns = chunk.getColumns();
    const n = chunk.rowCount;
    const base = out.length;
    for (let i = 0; i < n; i++) out.push(new Array(decoders.length));
    bytes += n * fixedRowBytes;
    for (let j = 0; j < decoders.length; j++) {
      const col = columns[j];
      const dec = decoders[j];
      for (let i = 0; i < n; i++) {
        const v = dec(col[i]);
        out[base + i][j] = v;
        if (variable[j]) bytes += approxValueBytes(v);
      }
      if (bytes > maxBytes) throw BigQueryError.responseTooLarge();
    }
  };
  const reset = () => {
    out.length = 0;
    bytes = 0;
  };
  return { out, visit, reset };
}

/**
 * What {@link readRowsIfSmall} read of a result: its rows, when small; or, when large, every DuckDB
 * chunk of it undecoded (`chunks`) — or nothing, the query having been stopped (`stopped`).
 */
export type FirstRead = { rows: Value[][] } | { chunks: DuckDBDataChunk[] } | { stopped: true };

/**
 * Most decoded bytes (the upper bound readRowsIfSmall counts) of a large result whose chunks are
 * kept rather than the query run again: past it the query stops. DuckDB's chunks hold about a
 * third of it (1M rows of INT64, FLOAT64 and a short STRING: a bound of ~80 MB), and the result's
 * row texts, kept until the job is forgotten, about as much.
 */
const KEEP_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Whether a large result's chunks are kept (its query not run again): by default while streaming
 * them has taken at most a quarter of the time before the first chunk came. That time is about
 * what running the query again would cost before its first row (a sort, an aggregate, a join's
 * build: the work done before any row); keeping costs the streaming, about as much again to append
 * the chunks to a table (src/engine/duckdb/kept-chunks.ts), and a scan of that table where a second
 * run would stream from its plan. Measured (bench/large-results.ts at 18:09 in
 * bench/results/2026-11-27-large-results.md, wall ms, kept / run again / this choice): an aggregate of 2M rows into 5,000 groups 42 / 49 / 40, a sort of 1M rows returning
 * 20,000 147 / 258 / 137; sorts returning all of their 500k or 1M rows 518 / 415 / 461 and
 * 868 / 734 / 757 (keeping loses there; stopped after a quarter, the chunks kept are wasted), a
 * scan of 1M rows (first rows at once: run again) 686 / 509 / 482. `policy`
 * (Engine.largeResults) forces one way.
 * @param startMs, firstChunkMs, nowMs `performance.now()` at the query's start, its first chunk, now.
 */
function keepLargeResult(policy: Engine['largeResults'], startMs: number, firstChunkMs: number, nowMs: number): boolean {
  if (policy) return policy === 'keep';
  return 4 * (nowMs - firstChunkMs) <= firstChunkMs - startMs;
}

/**
 * The rows of `sql` (a SELECT of `fields`, all scalar) as domain values when their decoded size
 * stays within `small` bytes. DuckDB's chunks are kept undecoded while an upper bound of that size
 * (string cells by their UTF-8 length from DuckDB's `string_t`s, src/engine/duckdb/string-lengths.ts)
 * stays within `small`. Past it the result is large and read as text built in DuckDB
 * (src/engine/result-json.ts), with no row decoded here: the rest of its chunks are kept too while
 * that costs less than running the query again ({@link keepLargeResult}; up to
 * {@link KEEP_MAX_BYTES}) — `chunks` — else the query is stopped — `stopped`.
 * `duckTypes` receives the DuckDB types of the columns (from the first chunk).
 * @throws BigQueryError the query's errors.
 */
export async function readRowsIfSmall(e: Engine, sql: string, fields: ResultField[], small: number, duckTypes: string[]): Promise<FirstRead> {
  const fixedRowBytes = fixedBytesPerRow(fields);
  const kept: DuckDBDataChunk[] = [];
  let bound = 0;
  let large = false;
  let stopped = false;
  const startMs = performance.now();
  let firstChunkMs = 0;
  await e.db.readChunks(guardValueSizes(sql, fields), (chunk) => {
    if (stopped) return;
    firstChunkMs ||= performance.now();
    noteDuckTypes(chunk, duckTypes);
    bound += chunk.rowCount * fixedRowBytes;
    for (let j = 0; j < fields.length; j++) if (isVariableSize(fields[j]!.type)) bound += variableCellsBound(chunk, j);
    if (bound > small) {
      large = true;
      if (bound > KEEP_MAX_BYTES || !keepLargeResult(e.largeResults, startMs, firstChunkMs, performance.now())) {
        stopped = true;
        // Not read again: their memory goes back to DuckDB now (V8 does not count it).
        kept.forEach(releaseChunk);
        kept.length = 0;
        // Stops the query: it runs again with its text built in DuckDB.
        throw BigQueryError.responseTooLarge();
      }
    }
    kept.push(chunk);
  }, () => {
    kept.length = 0;
    bound = 0;
    large = false;
    firstChunkMs = 0;
  }).catch((err: unknown) => {
    if (!stopped || !(err instanceof BigQueryError) || err.reason !== 'responseTooLarge') throw err;
  });
  if (stopped) return { stopped: true };
  if (large) return { chunks: kept };
  return { rows: decodeChunks(kept, fields, e.maxResponseBytes) };
}

/**
 * Decodes kept DuckDB chunks of a result of `fields` (all scalar) into domain values, as readRows would.
 * @throws BigQueryError `responseTooLarge` past `maxBytes` of decoded size.
 */
export function decodeChunks(chunks: readonly DuckDBDataChunk[], fields: ResultField[], maxBytes: number): Value[][] {
  const d = chunkDecoder(fields, maxBytes);
  for (const chunk of chunks) d.visit(chunk);
  return d.out;
}

/** BigQuery refuses arrays with NULL elements in results (docs/ARCHITECTURE.md §4). */
function checkNoNullArrayElements(rows: Value[][], fields: ResultField[]): void {
  const arrayCols = fields.map((f, i) => (f.type.kind === 'ARRAY' ? i : -1)).filter((i) => i >= 0);
  if (!arrayCols.length) return;
  for (const r of rows)
    for (const i of arrayCols) {
      const v = r[i];
      if (Array.isArray(v) && v.some((x) => x === null))
        throw BigQueryError.arrayNullElement(fields[i].name);
    }
}

/** The relation of a view: its query analyzed and lowered, exposing the view's column names. */
export async function lowerView(e: Engine, t: TableMeta, opts: NameDefaults & Pick<QueryOptions, 'caller'>): Promise<{ relation: string; columns: string[] }> {
  const defaults: NameDefaults = { projectId: t.projectId, defaultDataset: undefined };
  const a = await e.statements.analyze(t.viewQuery!, 0, defaults, {});
  // The view's tables are read as the caller (row access policies apply through views).
  const ctx = await makeContext(e, a.tables, { ...defaults, caller: opts.caller });
  await bindSystemTime(e, a.stmt, a.tables, ctx);
  const outs: Node[] = a.stmt.outputColumnList ?? [];
  const names = t.columns.map((c) => c.name);
  const items = outs.map((o, i) => `${colName(o.column)} AS "${(names[i] ?? `f${i}_`).replace(/"/g, '""')}"`);
  return { relation: `(SELECT ${items.join(', ')} FROM (${lowerScan(a.stmt.query, ctx)}))`, columns: names };
}

const dq = (s: string) => `"${s.replace(/"/g, '""')}"`;
