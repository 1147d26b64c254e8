/**
 * Read sessions of the Storage Read API: what CreateReadSession reads and how its rows are split
 * into streams. A session's query is `SELECT <selectedFields> FROM <table> WHERE (<rowRestriction>)`,
 * analyzed by ZetaSQL (names, types, row access policies and errors are the query's) and lowered
 * to DuckDB SQL once, at creation, when its rows are counted; `tableModifiers.snapshotTime` adds
 * `FOR SYSTEM_TIME AS OF` (the table history), `samplePercentage` samples the rows
 * (src/engine/storage-read.ts sampledSql) and nested selected fields prune STRUCT columns
 * (selected-fields.ts). Each stream owns a contiguous range of the session's rows, numbered in the
 * query's fixed order (src/engine/storage-read.ts); ReadRows streams a range straight from DuckDB
 * (`batches`), never the whole table in memory. A session reads the table as of its creation:
 * rows a later INSERT appends come after the rows it counted and are never read, and after a later
 * UPDATE, DELETE, MERGE or replacement its streams read the table version of that moment from the
 * table history (`settlePin`; emulator gaps: not for tables with row access policies, which refuse
 * time travel, nor past the history's budgets, src/engine/history.ts). A query job's anonymous
 * result table is read from the rows the job kept (already in memory). Sessions live 6 hours
 * (ReadSession.expire_time, storage.proto).
 */
import { randomBytes } from 'node:crypto';
import { preParseRewrites } from '../../analyzer/pre-parse.js';
import { stripComments } from '../../engine/analyze.js';
import type { Engine, QueryOptions } from '../../engine/engine.js';
import { checkQueryText } from '../../engine/query-text-limits.js';
import { lowerReadQuery, measureRows, readBatches, sampledSql, type RowBatch } from '../../engine/storage-read.js';
import { databaseNowMicros, rewrittenSince } from '../../engine/history.js';
import type { TableMeta } from '../../catalog/store.js';
import { BigQueryError } from '../../errors/errors.js';
import type { JobManager } from '../../jobs/jobs.js';
import type { BqType, Value } from '../../types/types.js';
import type { BufferCompression } from '../../wire/arrow-compression.js';
import { decodeJsonValue } from '../../wire/rest-values.js';
import { RAW_LAYOUT } from '../../wire/arrow.js';
import { nestedPrunings, type ColumnPruning } from './selected-fields.js';

/** How long a session can be read (BigQuery: 6 hours; ReadSession.expire_time). */
export const READ_SESSION_TTL_MS = 6 * 3600 * 1000;
/** Fewest rows a stream gets: a small table is one stream whatever maxStreamCount asks (recorded: storage_read/sr_create_session_multi_stream, 10 rows and max 4 → 1 stream). */
export const MIN_ROWS_PER_STREAM = 1000;
/** How long the name of an expired session is remembered, so ReadRows can say it expired (the emulator's choice: a day). */
export const EXPIRED_SESSION_MEMORY_MS = 24 * 3600 * 1000;
/** BigQuery's system limit on streams per session (CreateReadSessionRequest.max_stream_count). */
export const MAX_STREAMS = 1000;

/** A column of a session: name, BigQuery type, mode (the field shape src/wire/arrow.ts encodes). */
export interface SessionField {
  name: string;
  type: BqType;
  required?: boolean;
}

/** The rows a stream serves: `[start, end)` of its session's rows. */
export interface StreamRange {
  start: number;
  end: number;
}

/** The row format of a session (ReadSession.data_format). */
export type DataFormat = 'ARROW' | 'AVRO';

/**
 * Where a session's rows come from: a DuckDB query (tables; its columns of the unpruned `types`)
 * or rows already in memory (a query job's kept results). `prunings[j]` prunes column j's values
 * to the session's field type (nested selected fields).
 */
export type SessionRows = SessionRowsSource & { prunings: ColumnPruning[] };

/**
 * The moment a table session's rows were counted (database clock, µs) and how to lower its query
 * as of then: when a write after it rewrote the table in place (src/engine/history.ts
 * rewrittenSince), ReadRows reads that version instead of the live table.
 */
interface SessionPin {
  table: TableMeta;
  micros: number;
  /** The session's SQL as of `micros` (FOR SYSTEM_TIME AS OF), sampled like the session's. */
  lowerAsOf: () => Promise<string>;
  /** Checked (and `sql` re-lowered if needed) once. */
  settled?: boolean;
}

/** One read session. */
export interface ReadSessionState {
  name: string;
  dataFormat: DataFormat;
  expireMs: number;
  fields: SessionField[];
  /** Rows of the session (every stream's range lies in [0, rowCount)). */
  rowCount: number;
  /** A rough size of the rows in bytes (CreateReadSession's estimates). */
  estimatedBytes: number;
  source: SessionRows;
  /** Stream names → their ranges (split streams are added here too). */
  streams: Map<string, StreamRange>;
  /** ARROW sessions: the record batches' buffer compression (read_options.arrow_serialization_options). */
  bufferCompression?: BufferCompression;
}

/** A table path of the API: `projects/P/datasets/D/tables/T`. */
export interface TablePath {
  projectId: string;
  datasetId: string;
  tableId: string;
}

const TABLE_NAME = /^projects\/([^/]+)\/datasets\/([^/]+)\/tables\/([^/]+)$/;
const STREAM_NAME = /^(projects\/[^/]+\/locations\/[^/]+\/sessions\/[^/]+)\/streams\/[^/]+$/;

/** Parses `projects/P/datasets/D/tables/T`. @throws BigQueryError invalid (INVALID_ARGUMENT) otherwise. */
export function parseTablePath(name: string): TablePath {
  const m = TABLE_NAME.exec(name);
  if (!m) throw BigQueryError.malformedResourceName('table', name, 'projects/{project}/datasets/{dataset}/tables/{table}');
  return { projectId: m[1], datasetId: m[2], tableId: m[3] };
}

/** The texts of the query path's time-travel errors (src/errors/query-errors.ts): a snapshot time's, not the restriction's. */
const TIME_TRAVEL_ERROR = /^(Invalid snapshot time |Cannot read from a timestamp in the future|FOR SYSTEM_TIME AS OF )/;

const newId = () => randomBytes(12).toString('hex');
const quote = (s: string) => '`' + s.replace(/[`\\]/g, (c) => '\\' + c) + '`';

/**
 * Streams for `rows` rows: none for an empty table; else `maxStreamCount` (0: as many as the table
 * size allows), never more than one per MIN_ROWS_PER_STREAM rows nor MAX_STREAMS, and not fewer
 * than one. Contiguous, near-equal ranges covering every row exactly once.
 * @throws BigQueryError invalid when 0 < maxStreamCount < preferredMinStreamCount.
 */
export function partitionRows(rows: number, maxStreamCount: number, preferredMinStreamCount: number): StreamRange[] {
  if (maxStreamCount < 0 || preferredMinStreamCount < 0) throw BigQueryError.invalidReadArgument('max_stream_count and preferred_min_stream_count must be non-negative');
  if (maxStreamCount > 0 && preferredMinStreamCount > maxStreamCount) {
    throw BigQueryError.invalidReadArgument(`max_stream_count (${maxStreamCount}) must be at least preferred_min_stream_count (${preferredMinStreamCount})`);
  }
  if (rows === 0) return [];
  const cap = Math.min(MAX_STREAMS, Math.ceil(rows / MIN_ROWS_PER_STREAM));
  const n = Math.max(1, Math.min(cap, maxStreamCount > 0 ? maxStreamCount : cap));
  return Array.from({ length: n }, (_, i) => ({ start: Math.floor((i * rows) / n), end: Math.floor(((i + 1) * rows) / n) }));
}

/** What CreateReadSession asks for, already taken from the request. */
export interface SessionRequest {
  table: TablePath;
  selectedFields: string[];
  rowRestriction: string;
  /** TableModifiers.snapshot_time as a GoogleSQL timestamp literal text (`2024-01-02 03:04:05.123456+00`); absent = now. */
  snapshotTime?: string;
  /** ReadOptions.sample_percentage, 0–100 (already checked); absent = every row. */
  samplePercentage?: number;
  caller?: QueryOptions['caller'];
}

/** The live sessions of one emulator. */
export class ReadSessions {
  private readonly sessions = new Map<string, ReadSessionState>();
  /** Names of expired sessions whose rows were dropped → their expiry (ms since the epoch). */
  private readonly expired = new Map<string, number>();

  constructor(
    private readonly engine: Engine,
    private readonly jobs: JobManager,
  ) {}

  /**
   * A new session over the table of `req`, its rows split into the given stream ranges, served in
   * `dataFormat`. The table's rows are counted, not read.
   * @throws BigQueryError notFound for a missing dataset or table; invalid for an unknown selected
   *   field or a restriction the analyzer rejects; the query's own errors otherwise.
   */
  async create(req: SessionRequest, location: string, split: (rows: number) => StreamRange[], dataFormat: DataFormat = 'ARROW'): Promise<ReadSessionState> {
    this.evictExpired();
    this.engine.db.warmCursorConnection();
    const read = await this.readTable(req);
    const { projectId, datasetId, tableId } = req.table;
    const { fields, prunings } = nestedPrunings(read.fields, req.selectedFields, `${projectId}:${datasetId}.${tableId}`);
    const name = `projects/${req.table.projectId}/locations/${location}/sessions/${newId()}`;
    const streams = new Map<string, StreamRange>();
    for (const r of split(read.rows)) streams.set(`${name}/streams/${newId()}`, r);
    const s: ReadSessionState = { name, dataFormat, expireMs: Date.now() + READ_SESSION_TTL_MS, fields, rowCount: read.rows, estimatedBytes: read.bytes, source: { ...read.source, prunings }, streams };
    this.sessions.set(name, s);
    return s;
  }

  /**
   * Rows [from, to) of `session`, in batches of about `rowsPerBatch` rows (src/engine/storage-read.ts
   * readBatches: pulled from DuckDB as the consumer iterates; stopping the iteration ends the
   * query). Columns come as raw Arrow columns where the type allows and `raw` (Arrow sessions), else
   * as domain values; nested selected fields are pruned here.
   * @throws BigQueryError the query's errors.
   */
  async *batches(session: ReadSessionState, from: number, to: number, rowsPerBatch: number, raw: boolean): AsyncGenerator<RowBatch> {
    const src = session.source;
    const prune = (b: RowBatch): RowBatch => {
      if (src.prunings.every((p) => !p)) return b;
      return { rowCount: b.rowCount, columns: b.columns.map((c, j) => (src.prunings[j] ? (c as Value[]).map(src.prunings[j]!) : c)) };
    };
    if (src.kind === 'memory') {
      for (let at = from; at < to; at += rowsPerBatch) {
        const rows = src.rows.slice(at, Math.min(to, at + rowsPerBatch));
        yield prune({ rowCount: rows.length, columns: session.fields.map((_, j) => rows.map((r) => r[j])) });
      }
      return;
    }
    // The table dropped since the session was created: its rows are gone (the emulator keeps no
    // dropped table's data; BigQuery's answer here is not documented).
    if (src.table && !this.engine.catalog.getTable(src.table.projectId, src.table.datasetId, src.table.tableId)) {
      throw BigQueryError.tableNotFound(src.table.projectId, src.table.datasetId, src.table.tableId, false);
    }
    await this.settlePin(src);
    const rawColumns = src.types.map((t, j) => raw && !src.prunings[j] && !!RAW_LAYOUT[t.kind]);
    for await (const b of readBatches(this.engine, { sql: src.sql, types: src.types, raw: rawColumns, from, count: to - from, rowsPerBatch })) yield prune(b);
  }

  /**
   * A table session whose table was rewritten in place since its rows were counted reads the
   * version of that moment from then on (a table whose history could not keep it is read live).
   */
  private async settlePin(src: Extract<SessionRows, { kind: 'query' }>): Promise<void> {
    const pin = src.pin;
    if (!pin || pin.settled) return;
    if (await rewrittenSince(this.engine, pin.table, pin.micros)) {
      try {
        src.sql = await pin.lowerAsOf();
      } catch (e) {
        if (!(e instanceof BigQueryError)) throw e;
        // The version is gone (history budget): the live rows, as before this check.
      }
    }
    pin.settled = true;
  }

  /**
   * The session and range of a stream name.
   * @throws BigQueryError invalid for a malformed name; conditionNotMet (FAILED_PRECONDITION,
   *   "session expired at …") once the session's expireTime has passed; notFound for an unknown one.
   */
  stream(name: string): { session: ReadSessionState; range: StreamRange } {
    const m = STREAM_NAME.exec(name);
    if (!m) throw BigQueryError.malformedResourceName('read stream', name, 'projects/{project}/locations/{location}/sessions/{session}/streams/{stream}');
    const session = this.sessions.get(m[1]);
    const expiredAt = session ? session.expireMs : this.expired.get(m[1]);
    if (expiredAt !== undefined && expiredAt <= Date.now()) throw BigQueryError.readSessionExpired(name, expiredAt);
    if (!session) throw BigQueryError.readSessionNotFound('session', m[1]);
    const range = session.streams.get(name);
    if (!range) throw BigQueryError.readSessionNotFound('stream', name);
    return { session, range };
  }

  /** Adds a stream serving `range` to `session`; returns its name. */
  addStream(session: ReadSessionState, range: StreamRange): string {
    const name = `${session.name}/streams/${newId()}`;
    session.streams.set(name, range);
    return name;
  }

  /**
   * Drops the rows of expired sessions, keeping their names and expiry (for EXPIRED_SESSION_MEMORY_MS)
   * so that a late ReadRows answers "session expired" rather than "not found".
   */
  private evictExpired(): void {
    const now = Date.now();
    for (const [k, s] of this.sessions) {
      if (s.expireMs > now) continue;
      this.sessions.delete(k);
      this.expired.set(k, s.expireMs);
    }
    for (const [k, at] of this.expired) if (at + EXPIRED_SESSION_MEMORY_MS <= now) this.expired.delete(k);
  }

  /** The session query of `req`: its columns, its rows' source, their count and estimated bytes. */
  private async readTable(req: SessionRequest): Promise<{ fields: SessionField[]; rows: number; bytes: number; source: SessionRowsSource }> {
    const { projectId, datasetId, tableId } = req.table;
    if (Buffer.byteLength(req.rowRestriction, 'utf8') > MAX_ROW_RESTRICTION_BYTES) throw BigQueryError.rowRestrictionTooLong(MAX_ROW_RESTRICTION_BYTES);
    const anon = this.jobs.jobOfAnonymousTable(projectId, datasetId, tableId);
    if (anon) return this.readAnonymous(req, anon);
    if (!this.engine.catalog.getDataset(projectId, datasetId) || !this.engine.catalog.getTable(projectId, datasetId, tableId)) {
      throw BigQueryError.tableNotFound(projectId, datasetId, tableId, false);
    }
    const table = this.engine.catalog.getTable(projectId, datasetId, tableId)!;
    if (table.type !== 'TABLE') throw BigQueryError.storageReadNonTable();
    const columns = pickColumns(table.columns.map((c) => c.name), req.selectedFields, `${projectId}:${datasetId}.${tableId}`);
    const select = columns.map((c) => quote(c)).join(', ') || '*';
    const where = req.rowRestriction.trim() ? `\nWHERE (\n${req.rowRestriction}\n)` : '';
    const queryAsOf = (asOf: string) => `SELECT ${select} FROM ${quote(`${projectId}.${datasetId}.${tableId}`)}${asOf}${where}`;
    const opts: QueryOptions = { projectId, caller: req.caller };
    const restriction = where ? { table: `${projectId}.${datasetId}.${tableId}`, filter: req.rowRestriction } : undefined;
    // Reading as of now: the moment is noted first, so that a later in-place write can be read around.
    const pinned = !req.snapshotTime && !this.engine.catalog.listRowAccessPolicies(projectId, datasetId, tableId).length;
    const micros = pinned ? await databaseNowMicros(this.engine) : 0;
    const lowered = await this.lowerQuery(queryAsOf(req.snapshotTime ? ` FOR SYSTEM_TIME AS OF TIMESTAMP '${req.snapshotTime}'` : ''), opts, restriction);
    const required = new Map(table.columns.map((c) => [c.name, c.required] as const));
    const sample = (sql: string) => (req.samplePercentage === undefined ? sql : sampledSql(sql, req.samplePercentage));
    const sampled = sample(lowered.sql);
    const size = await measureRows(this.engine, sampled, lowered.fields);
    const lowerAsOf = async () => sample((await this.lowerQuery(queryAsOf(` FOR SYSTEM_TIME AS OF TIMESTAMP_MICROS(${micros})`), opts, restriction)).sql);
    return {
      fields: lowered.fields.map((f) => ({ name: f.name, type: f.type, required: !!required.get(f.name) })),
      ...size,
      source: { kind: 'query', sql: sampled, types: lowered.fields.map((f) => f.type), table: req.table, ...(pinned ? { pin: { table, micros, lowerAsOf } } : {}) },
    };
  }

  /**
   * One SELECT analyzed by the engine's analyzer and lowered (not run); a restriction that breaks
   * it, or holds a subquery (the API filters rows of one table, it runs no query), is
   * INVALID_ARGUMENT. The restriction starts on line 3 of `sql` (readTable), so the analyzer's
   * `at [L:C]` is moved back two lines.
   */
  private async lowerQuery(sql: string, opts: QueryOptions, restriction?: { table: string; filter: string }) {
    const invalid = (detail?: string) => BigQueryError.invalidRowRestriction(restriction!.table, restriction!.filter, detail && restrictionLocation(detail, restriction!.filter));
    try {
      checkQueryText(sql);
      const text = preParseRewrites(sql);
      const a = await this.engine.statements.analyze(text, 0, opts, { named: new Map(), positional: [] });
      const rest = Buffer.from(text).subarray(a.next).toString('utf8');
      if (a.stmt.kind !== 'QueryStmt' || stripComments(rest)) throw invalid();
      if (restriction && hasSubquery(a.stmt)) throw invalid();
      return await lowerReadQuery(this.engine, a.stmt, a.tables, opts);
    } catch (e) {
      if (restriction && e instanceof BigQueryError && e.reason === 'invalidQuery' && !TIME_TRAVEL_ERROR.test(e.message)) throw invalid(e.message);
      throw e;
    }
  }

  private readAnonymous(req: SessionRequest, job: Parameters<JobManager['page']>[0]): { fields: SessionField[]; rows: number; bytes: number; source: SessionRowsSource } {
    if (req.rowRestriction.trim()) throw BigQueryError.notSupported('A row restriction on a query result table', { in: 'request' });
    if (req.snapshotTime) throw BigQueryError.notSupported('A snapshot time on a query result table', { in: 'request' });
    const page = this.jobs.page(job, 0, Number.MAX_SAFE_INTEGER);
    const types = page.fields.map((f) => f.type);
    const kept = page.rows ?? page.encodedRows?.texts().map((r) => decodeRestRow(JSON.parse(r) as RestRow, types));
    if (!kept) throw BigQueryError.tableNotFound(req.table.projectId, req.table.datasetId, req.table.tableId, false);
    const { projectId, datasetId, tableId } = req.table;
    const all = page.fields.map((f) => f.name);
    const columns = pickColumns(all, req.selectedFields, `${projectId}:${datasetId}.${tableId}`);
    const index = columns.map((c) => all.indexOf(c));
    const picked = kept.map((r) => index.map((i) => r[i]));
    const rows = req.samplePercentage === undefined ? picked : sampleRows(picked, req.samplePercentage);
    return {
      fields: index.map((i) => ({ name: page.fields[i].name, type: page.fields[i].type, required: !!page.fields[i].required })),
      rows: rows.length,
      bytes: estimatedBytes(rows),
      source: { kind: 'memory', rows },
    };
  }
}

/** Longest row restriction, in UTF-8 bytes (TableReadOptions.row_restriction: "Restricted to a maximum length for 1 MB"). */
export const MAX_ROW_RESTRICTION_BYTES = 1_048_576;

/** Whether a resolved statement holds a subquery anywhere (a `SubqueryExpr` node, src/analyzer/ast.ts kinds). */
function hasSubquery(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasSubquery);
  if (!node || typeof node !== 'object') return false;
  if ((node as { kind?: unknown }).kind === 'SubqueryExpr') return true;
  return Object.values(node).some(hasSubquery);
}

/**
 * The analyzer's `detail` with its `at [L:C]` made relative to the restriction (which starts on
 * line 3 of the generated SELECT); a location outside the restriction (the SELECT's own closing
 * parenthesis) is dropped.
 */
function restrictionLocation(detail: string, filter: string): string {
  const lines = filter.split('\n').length;
  return detail.replace(/ at \[(\d+):(\d+)\]/, (_, l: string, c: string) => (Number(l) - 2 >= 1 && Number(l) - 2 <= lines ? ` at [${Number(l) - 2}:${c}]` : ''));
}

/** A session's row source before its prunings are known. */
type SessionRowsSource = { kind: 'query'; sql: string; types: BqType[]; pin?: SessionPin; table?: TablePath } | { kind: 'memory'; rows: Value[][] };

/** A rough size of in-memory rows (8 bytes per fixed-width value, the length of strings and bytes). */
function estimatedBytes(rows: Value[][]): number {
  let n = 0;
  for (const r of rows) for (const v of r) n += typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.length : 8;
  return n;
}

/**
 * A sample of about `percent`% of in-memory `rows` (ReadOptions.sample_percentage on a query
 * result table; tables are sampled in SQL, src/engine/storage-read.ts sampledSql): each row is one
 * block, kept when a hash of its position falls below the percentage — deterministic for a given
 * row order, 0 keeps no row and 100 keeps every row, as TABLESAMPLE does.
 */
export function sampleRows<T>(rows: T[], percent: number): T[] {
  if (percent >= 100) return rows;
  if (percent <= 0) return [];
  const threshold = (percent / 100) * 2 ** 32;
  return rows.filter((_, i) => mix32(i) < threshold);
}

/** A 32-bit integer hash (the finalizer of MurmurHash3), unsigned. */
function mix32(n: number): number {
  let h = (n ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The columns to read, in the table's order: all of them when `selected` is empty, else those
 * named (case-insensitively, as BigQuery column names are).
 * @throws BigQueryError invalid for a name the table lacks.
 */
function pickColumns(all: string[], selected: string[], table: string): string[] {
  if (!selected.length) return all;
  const wanted = new Set<string>();
  for (const f of selected) {
    const top = f.split('.')[0].toLowerCase();
    const hit = all.find((c) => c.toLowerCase() === top);
    if (!hit) throw BigQueryError.selectedFieldNotFound(f, table);
    wanted.add(hit);
  }
  return all.filter((c) => wanted.has(c));
}

/** A result row kept as its REST JSON text (`{f:[{v}]}`, src/jobs/job-results.ts). */
interface RestRow {
  f: { v: unknown }[];
}

/**
 * A REST JSON row of a kept query result back to domain values: ARRAY cells are `[{v}]`, STRUCT
 * cells `{f:[{v}]}`, scalars their REST text decoded by the JSON value decoder (src/wire/rest-json.ts).
 */
function decodeRestRow(row: RestRow, types: BqType[]): Value[] {
  const cell = (v: unknown, t: BqType, path: string): Value => {
    if (v === null || v === undefined) return null;
    if (t.kind === 'ARRAY') return (v as { v: unknown }[]).map((e, i) => cell(e.v, t.element, `${path}[${i}]`));
    if (t.kind === 'STRUCT') return (v as RestRow).f.map((c, i) => cell(c.v, t.fields[i].type, `${path}.${t.fields[i].name}`));
    return decodeJsonValue(v, t, path);
  };
  return row.f.map((c, i) => cell(c.v, types[i], `f${i}`));
}
