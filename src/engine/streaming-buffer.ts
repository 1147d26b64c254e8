/**
 * The streaming buffer (BigQuery "Streaming data into BigQuery", "Streaming data availability":
 * https://cloud.google.com/bigquery/docs/streaming-data-into-bigquery#dataavailability). Rows
 * written by tabledata.insertAll (and by the Storage Write API's `_default` stream) are stored
 * at once — queries and tabledata.list read them — but for a while they sit in the table's
 * streaming buffer, and while they do:
 *
 * - tables.get reports `streamingBuffer {estimatedRows, estimatedBytes, oldestEntryTime}` (int64
 *   strings; oldestEntryTime in ms since the epoch) and leaves them out of `numRows`/`numBytes`
 *   (discovery, Table.numRows: "excluding any data in the streaming buffer"); no `streamingBuffer`
 *   when the buffer is empty (Table.streamingBuffer: "This field will be absent if the table is
 *   not being streamed to or if there is no data in the streaming buffer");
 * - copy and extract jobs leave them out ("The streamed data can take up to 90 minutes to become
 *   available for copy operations", https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations);
 * - UPDATE, DELETE and MERGE that would change them, and TRUNCATE TABLE, fail (same page: "Rows
 *   that were recently written using the tabledata.insertall streaming method can't be modified
 *   with … UPDATE, DELETE, MERGE, or TRUNCATE statements … All other rows in the table remain
 *   modifiable"); INSERT is allowed. The decision is per row, as that page states, so on a
 *   partitioned table a statement that only touches other partitions runs.
 *
 * The window: BigQuery flushes after a variable time ("typically for a few minutes, but in rare
 * cases, up to 90 minutes", https://cloud.google.com/bigquery/docs/error-messages, badRequest);
 * the DML limitations call "recent" the writes "that occurred within the last 30 minutes". The
 * emulator keeps rows buffered for a fixed window, DEFAULT_STREAMING_BUFFER_SECONDS
 * (src/config/timeouts.ts: those 30 minutes) unless `--streaming-buffer-seconds` says otherwise; 0 turns the buffer off.
 *
 * How buffered rows are identified: a table's rows live in one DuckDB table; each streamed batch
 * is the range of DuckDB rowids it was appended at (read in the same write turn as the append).
 * Rowids of rows that stay are stable under appends, UPDATE and DELETE of other rows; a table that
 * is replaced (CREATE OR REPLACE, WRITE_TRUNCATE, DROP and create) has a new DuckDB table, so its
 * buffer starts empty. Before use the ranges are checked against the rows they hold: a range that
 * no longer holds its batch's row count (rowids renumbered, e.g. a `--data-dir` database compacting
 * after deletes) counts as flushed. The buffer lives in memory: after a restart of a `--data-dir`
 * emulator its rows are ordinary stored rows (they count as flushed).
 */
import type { TableMeta } from '../catalog/store.js';
import { DEFAULT_STREAMING_BUFFER_SECONDS } from '../config/timeouts.js';
import { BigQueryError } from '../errors/errors.js';
import type { BqType, Value } from '../types/types.js';
import type { Engine } from './engine-types.js';
import { ident } from './lower/context.js';


/** One streamed batch: the inclusive rowid range it was appended at. */
interface Batch {
  from: number;
  to: number;
  rows: number;
  bytes: number;
  /** When it was written, ms since the epoch. */
  atMs: number;
  /** Written by the Storage Write API: UPDATE, DELETE and MERGE may change these rows (not TRUNCATE). */
  dmlAllowed?: boolean;
}

interface TableBuffer {
  ref: { projectId: string; datasetId: string; tableId: string };
  batches: Batch[];
}

interface BufferState {
  windowMs: number;
  now: () => number;
  /** By DuckDB table name (a replaced table has a new one). */
  byDuckName: Map<string, TableBuffer>;
}

const states = new WeakMap<Engine, BufferState>();

function stateOf(e: Engine): BufferState {
  let s = states.get(e);
  if (!s) states.set(e, (s = { windowMs: DEFAULT_STREAMING_BUFFER_SECONDS * 1000, now: Date.now, byDuckName: new Map() }));
  return s;
}

/**
 * Sets the engine's buffer window (`--streaming-buffer-seconds`; 0 = no buffer) and, for tests,
 * its clock (ms since the epoch). Called once when the emulator starts (src/server/server.ts).
 */
export function configureStreamingBuffer(e: Engine, opts: { seconds?: number; now?: () => number }): void {
  const s = stateOf(e);
  if (opts.seconds !== undefined) s.windowMs = Math.max(0, opts.seconds) * 1000;
  if (opts.now) s.now = opts.now;
}

/** The table's buffer with batches older than the window dropped (flushed); undefined when empty. */
function liveBuffer(e: Engine, t: Pick<TableMeta, 'duckName'>): TableBuffer | undefined {
  const s = stateOf(e);
  const b = s.byDuckName.get(t.duckName);
  if (!b) return undefined;
  const horizon = s.now() - s.windowMs;
  b.batches = b.batches.filter((x) => x.atMs > horizon);
  if (!b.batches.length) {
    s.byDuckName.delete(t.duckName);
    return undefined;
  }
  return b;
}

/** Contiguous rowid ranges of the buffer's batches (successive insertAll calls append contiguously), with their batches. */
function rangesOf(batches: Batch[]): { from: number; to: number; rows: number; batches: Batch[] }[] {
  const out: { from: number; to: number; rows: number; batches: Batch[] }[] = [];
  for (const x of [...batches].sort((a, c) => a.from - c.from)) {
    const last = out[out.length - 1];
    if (last && x.from === last.to + 1 && !last.batches[0].dmlAllowed === !x.dmlAllowed) {
      last.to = x.to;
      last.rows += x.rows;
      last.batches.push(x);
    } else out.push({ from: x.from, to: x.to, rows: x.rows, batches: [x] });
  }
  return out;
}

/** A DuckDB predicate: `col` (a rowid) is in one of the batches' ranges (FALSE for none). */
function inRanges(batches: Batch[], col: string): string {
  const ranges = rangesOf(batches);
  return ranges.length ? `(${ranges.map((r) => `${col} BETWEEN ${r.from} AND ${r.to}`).join(' OR ')})` : 'FALSE';
}

/** Drops the batches whose rowid range no longer holds the batch's rows (see the file comment). */
async function verifiedBuffer(e: Engine, t: Pick<TableMeta, 'duckName'>): Promise<TableBuffer | undefined> {
  const b = liveBuffer(e, t);
  if (!b) return undefined;
  const ranges = rangesOf(b.batches);
  const counts = ranges.map((r) => `(SELECT count(*) FROM ${ident(t.duckName)} WHERE rowid BETWEEN ${r.from} AND ${r.to})`);
  const found = (await e.db.readAll(`SELECT ${counts.join(', ')}`)).getRowsJS()[0];
  const stale = new Set(ranges.filter((r, i) => Number(found[i]) !== r.rows).flatMap((r) => r.batches));
  if (stale.size) {
    // Expected when DML changed rows of the Storage Write API; otherwise rowids were renumbered.
    if ([...stale].some((x) => !x.dmlAllowed)) e.log.warn({ table: b.ref, batches: stale.size }, 'streaming buffer: rowids of buffered rows changed; those rows now count as flushed');
    b.batches = b.batches.filter((x) => !stale.has(x));
  }
  return liveBuffer(e, t);
}

/** Logical bytes of a non-null value of the fixed-size kinds ({@link valueBytes}'s sizes). */
const FIXED_BYTES: Partial<Record<BqType['kind'], number>> = {
  BOOL: 1,
  NUMERIC: 16,
  INTERVAL: 16,
  BIGNUMERIC: 32,
  INT64: 8,
  FLOAT64: 8,
  DATE: 8,
  DATETIME: 8,
  TIME: 8,
  TIMESTAMP: 8,
};

/** Logical bytes of a value by BigQuery's data size rules (the sizes of src/jobs/bytes.ts). */
function valueBytes(v: Value | undefined, t: BqType): number {
  if (v === null || v === undefined) return 0;
  switch (t.kind) {
    case 'BOOL':
      return 1;
    case 'NUMERIC':
    case 'INTERVAL':
    case 'RANGE':
      return 16;
    case 'BIGNUMERIC':
      return 32;
    case 'STRING':
    case 'JSON':
    case 'GEOGRAPHY':
      return 2 + Buffer.byteLength(String(v));
    case 'BYTES':
      return 2 + (v instanceof Uint8Array ? v.length : Buffer.byteLength(String(v)));
    case 'ARRAY':
      return Array.isArray(v) ? v.reduce((n: number, x) => n + valueBytes(x, t.element), 0) : 0;
    case 'STRUCT':
      return Array.isArray(v) ? t.fields.reduce((n, f, i) => n + valueBytes(v[i], f.type), 0) : 0;
    default:
      return 8;
  }
}

/** Estimated logical bytes of rows of `t` (values in its column order), for estimatedBytes. */
export function streamedRowBytes(t: Pick<TableMeta, 'columns'>, rows: readonly (readonly (Value | undefined)[])[]): number {
  let n = 0;
  // Column by column: fixed-size kinds count their non-null values (a per-row closure over the
  // columns cost ~0.4 s per 1M rows, bench --only write).
  t.columns.forEach((c, j) => {
    const fixed = FIXED_BYTES[c.type.kind];
    if (fixed !== undefined) {
      for (const r of rows) if (r[j] !== null && r[j] !== undefined) n += fixed;
    } else for (const r of rows) n += valueBytes(r[j], c.type);
  });
  return n;
}

/** Options of {@link noteStreamedRows}. */
export interface StreamedRowsOptions {
  /** When the rows were written, ms since the epoch (default: now). */
  atMs?: number;
  /**
   * The rows come from the Storage Write API (`_default` stream): UPDATE, DELETE and MERGE may
   * change them ("rows that were recently written using the Storage Write API can be modified
   * using UPDATE, DELETE, or MERGE statements",
   * https://cloud.google.com/bigquery/docs/data-manipulation-language#limitations); TRUNCATE TABLE
   * is still refused, and copy/extract still leave them out. A batch some of whose rows such a
   * statement deletes leaves the buffer whole (it counts as flushed).
   */
  dmlAllowed?: boolean;
}

/**
 * Puts the last `rowCount` rows (by rowid) of `t` in its streaming buffer: call it in the same
 * database write turn as the append that added them, e.g.
 * `await e.db.serializeWrite(async () => { await insertValues(e, t, rows); await noteStreamedRows(e, t, rows.length, streamedRowBytes(t, rows)); })`
 * (tabledata.insertAll, src/server/rest/tabledata.ts; the Storage Write API's `_default` stream
 * passes `{ dmlAllowed: true }`). Nothing happens when the window is 0 or `rowCount` is 0.
 * @param bytes estimated logical bytes of the rows (streamedRowBytes), reported as estimatedBytes.
 */
export async function noteStreamedRows(e: Engine, t: TableMeta, rowCount: number, bytes: number, opts: StreamedRowsOptions = {}): Promise<void> {
  const s = stateOf(e);
  if (s.windowMs <= 0 || rowCount <= 0 || t.type !== 'TABLE' || !t.duckName) return;
  await e.db.serializeWrite(async () => {
    // The rows just appended are the last `rowCount` rowids (this write turn appended them, and
    // DuckDB numbers appended rows after every earlier one, deleted ones included): they end at the
    // largest rowid the turn's previous write noted plus `rowCount` (in-memory databases, see
    // src/engine/duckdb/row-facts.ts), else at max(rowid) — one pass over the rowid column, 1.6 ms
    // at 1M rows (the former `ORDER BY rowid DESC LIMIT n` sort cost ~45 ms; bench --only write).
    const known = e.db.persistent ? undefined : e.db.rowFacts.atTurnStart(t.duckName)?.maxRowid;
    const max = known !== undefined ? known + Math.floor(rowCount) : (await e.db.readAll(`SELECT max(rowid) FROM ${ident(t.duckName)}`)).getRowsJS()[0][0];
    if (max === null || max === undefined) return;
    const to = Number(max);
    if (!e.db.persistent) e.db.rowFacts.note(t.duckName, { maxRowid: to });
    const n = Math.min(Math.floor(rowCount), to + 1);
    const from = to - n + 1;
    // Forget the flushed batches of every table (dropped and replaced tables included).
    for (const duckName of [...s.byDuckName.keys()]) liveBuffer(e, { duckName });
    const b = liveBuffer(e, t) ?? { ref: { projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId }, batches: [] };
    b.batches.push({ from, to, rows: n, bytes, atMs: opts.atMs ?? s.now(), ...(opts.dmlAllowed ? { dmlAllowed: true } : {}) });
    s.byDuckName.set(t.duckName, b);
  });
}

/** The `streamingBuffer` of a table resource (tables.get). */
export interface StreamingBufferStats {
  estimatedRows: string;
  estimatedBytes: string;
  oldestEntryTime: string;
}

/**
 * What `t`'s streaming buffer holds now, as tables.get reports it; undefined when it is empty.
 * `rows`/`bytes` are the numbers to leave out of numRows/numBytes.
 */
export async function streamingBufferOf(e: Engine, t: TableMeta): Promise<(StreamingBufferStats & { rows: number; bytes: number }) | undefined> {
  if (t.type !== 'TABLE') return undefined;
  const b = await verifiedBuffer(e, t);
  if (!b) return undefined;
  const rows = b.batches.reduce((n, x) => n + x.rows, 0);
  const bytes = b.batches.reduce((n, x) => n + x.bytes, 0);
  const oldest = Math.min(...b.batches.map((x) => x.atMs));
  return { estimatedRows: String(rows), estimatedBytes: String(bytes), oldestEntryTime: String(oldest), rows, bytes };
}

/**
 * A DuckDB predicate over `rowid` (or the column `col` holding rowids) that is TRUE for rows of
 * `t` outside its streaming buffer — what copy and extract jobs read. `TRUE` when the buffer is empty.
 */
export async function flushedRowsPredicate(e: Engine, t: TableMeta, col = 'rowid'): Promise<string> {
  const b = t.type === 'TABLE' ? await verifiedBuffer(e, t) : undefined;
  if (!b) return 'TRUE';
  return `NOT ${inRanges(b.batches, col)}`;
}

/** Finds the buffer of the table whose DuckDB relation (a quoted table name) is `relation`. */
async function bufferOfRelation(e: Engine, relation: string): Promise<TableBuffer | undefined> {
  for (const duckName of stateOf(e).byDuckName.keys()) if (ident(duckName) === relation) return verifiedBuffer(e, { duckName });
  return undefined;
}

/**
 * Refuses an UPDATE, DELETE or MERGE whose changed target rows include buffered rows. `count` runs
 * a query counting the changed rows whose rowid satisfies the predicate it is given (e.g. over the
 * statement's scratch table of changes). Nothing runs when the target's buffer is empty.
 * @param relation the DML target's DuckDB relation (BoundTable.relation).
 * @throws BigQueryError badRequest `UPDATE or DELETE statement over table p.d.t would affect rows
 *   in the streaming buffer, which is not supported`.
 */
export async function checkDmlOverStreamingBuffer(e: Engine, relation: string, count: (bufferedRowid: (col: string) => string) => Promise<number>): Promise<void> {
  const b = await bufferOfRelation(e, relation);
  if (!b) return;
  const fixed = b.batches.filter((x) => !x.dmlAllowed);
  if (fixed.length && (await count((col) => inRanges(fixed, col))) > 0) throw BigQueryError.dmlOverStreamingBuffer(`${b.ref.projectId}.${b.ref.datasetId}.${b.ref.tableId}`);
}

/** Whether the table behind `relation` has buffered rows (a DML statement then takes the checked path). */
export async function hasStreamingBuffer(e: Engine, relation: string): Promise<boolean> {
  return !!(await bufferOfRelation(e, relation));
}

/**
 * Refuses TRUNCATE TABLE of a table whose streaming buffer holds rows.
 * @throws BigQueryError badRequest `TRUNCATE DML statement over table p.d.t would affect rows in
 *   the streaming buffer, which is not supported`.
 */
export async function checkTruncateOverStreamingBuffer(e: Engine, relation: string): Promise<void> {
  const b = await bufferOfRelation(e, relation);
  if (b) throw BigQueryError.truncateOverStreamingBuffer(`${b.ref.projectId}.${b.ref.datasetId}.${b.ref.tableId}`);
}
