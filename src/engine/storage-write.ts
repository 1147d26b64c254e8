/**
 * The engine side of the BigQuery Storage Write API (served by src/server/grpc/write-service.ts):
 * write streams, their offsets and the visibility of their rows
 * (https://cloud.google.com/bigquery/docs/write-api#application-created_streams):
 *
 * - `_default` (implicit, `…/streams/_default`) and COMMITTED streams: rows are appended to the
 *   table itself and queryable once the append is acknowledged;
 * - PENDING streams: rows are held until BatchCommitWriteStreams commits the (finalized) streams
 *   of a batch, all of them or none;
 * - BUFFERED streams: rows are held until FlushRows makes them visible up to an offset.
 *
 * Durability (`--data-dir`). Everything lives in the DuckDB file: a stream's record (type, end
 * offset, flushed offset, finalize and commit times) is a `__bqemu_meta` row of kind `writeStream`,
 * written in the same transaction as the rows it counts (src/engine/storage-write-commit.ts); rows
 * held by a PENDING or BUFFERED stream are staged in a DuckDB table of their own
 * (`__bqemu_ws_<id>`), moved into the table by a commit or a flush in one transaction with the
 * stream's record. BigQuery keeps a pending stream's data until it is committed or the stream
 * expires, so a restart keeps staged rows too: an acknowledged append of any stream type, a flush
 * and a batch commit all survive `kill -9`, and nothing unacknowledged is half-written.
 *
 * Table guards follow insertAll: type parameters are checked on the rows (src/engine/type-params.ts),
 * snapshots refuse writes (src/engine/table-guards.ts), and a write keeps the table's previous
 * rows for time travel (src/engine/history.ts).
 */
import { noteStreamedRows } from './streaming-buffer.js';
import { randomUUID } from 'node:crypto';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import type { Value } from '../types/types.js';
import type { WriteRowError } from '../wire/write-rows.js';
import type { Engine } from './engine-types.js';
import { metaSql } from './duckdb/db.js';
import { versionedWrite } from './history.js';
import { ident } from './lower/context.js';
import { AppendGroups, appendWithMeta, batchBytes, moveStagedSql, rowCountOf, stagingTableSql, type RowBatch, type RowBatches } from './storage-write-commit.js';
import { isWriteColumnBatch } from '../wire/write-rows-columnar.js';
import { checkRows, guardSnapshot, refusalOf } from './storage-write-checks.js';

/** `WriteStream.Type` of a created stream (the `_default` stream is COMMITTED-like and has no record). */
export type WriteStreamType = 'COMMITTED' | 'PENDING' | 'BUFFERED';

/** One created write stream, as stored (JSON) in `__bqemu_meta`. */
export interface WriteStreamRecord {
  /** `projects/P/datasets/D/tables/T/streams/ID`. */
  name: string;
  projectId: string;
  datasetId: string;
  tableId: string;
  /** The table's DuckDB name at creation: a table dropped or replaced since fails the stream. */
  duckName: string;
  type: WriteStreamType;
  /** Epoch milliseconds. */
  createMs: number;
  /** COMMITTED: the creation; PENDING: the batch commit. */
  commitMs?: number;
  finalizeMs?: number;
  /** The stream's end offset: rows appended so far. */
  rowCount: number;
  /** BUFFERED: rows [0, flushed) are in the table. */
  flushed: number;
  /** PENDING/BUFFERED: the DuckDB staging table (dropped once a PENDING stream is committed). */
  stage?: string;
  /** PENDING/BUFFERED: the columns the staging table holds, in its order. */
  columns: string[];
}

/** What an AppendRows request writes to: the table and, but for `_default`, the stream. */
export interface WriteTarget {
  name: string;
  table: TableMeta;
  stream?: WriteStreamRecord;
}

/**
 * One AppendRows request's decoded rows (rows, or columns from src/wire/write-rows-columnar.ts) and
 * its `offset` (undefined: at the stream's end).
 */
export interface AppendPart {
  rows: RowBatch;
  offset?: number;
}

/**
 * The outcome of one append: the offset of its first row (created streams; nothing for `_default`),
 * or its row errors, or its refusal (offset, finalized stream, snapshot) — then nothing of it is appended.
 */
export interface AppendOutcome {
  offset?: number;
  rowErrors?: WriteRowError[];
  error?: BigQueryError;
}

/** `StorageError` of a BatchCommitWriteStreams answer (storage.proto StorageError.StorageErrorCode names). */
export interface StreamCommitError {
  code: 'STREAM_NOT_FOUND' | 'INVALID_STREAM_TYPE' | 'INVALID_STREAM_STATE' | 'STREAM_ALREADY_COMMITTED' | 'TABLE_NOT_FOUND';
  entity: string;
  errorMessage: string;
}

const META_KIND = 'writeStream';
const NAME = /^projects\/([^/]+)\/datasets\/([^/]+)\/tables\/([^/]+)\/streams\/([^/]+)$/;
const TABLE_NAME = /^projects\/([^/]+)\/datasets\/([^/]+)\/tables\/([^/]+)$/;

/**
 * The parts of a table resource name `projects/P/datasets/D/tables/T`.
 * @throws BigQueryError invalid for another shape.
 */
export function parseWriteTableName(parent: string): { projectId: string; datasetId: string; tableId: string } {
  const m = TABLE_NAME.exec(parent);
  if (!m) throw BigQueryError.invalidWriteRequest(`Invalid table name. Entity: ${parent}`);
  return { projectId: m[1]!, datasetId: m[2]!, tableId: m[3]! };
}

/**
 * A stream id in BigQuery's form: base64 (URL alphabet, no padding) of a small message holding a
 * UUID and a serial, like the ids BigQuery issues (`Cig2ZDU3…`).
 */
function newStreamId(serial: number): string {
  const text = Buffer.from(`${randomUUID()}:s${serial}`);
  return Buffer.concat([Buffer.from([0x0a, text.length]), text]).toString('base64url');
}

/** Write streams of one engine (see the file comment). */
export class WriteStreams {
  private readonly streams = new Map<string, WriteStreamRecord>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly tableGroups = new AppendGroups();
  private loaded?: Promise<void>;
  private serial = 0;

  constructor(private readonly e: Engine) {}

  /** Loads the stored streams (once); every other method expects it done. */
  ready(): Promise<void> {
    this.loaded ??= (async () => {
      for (const r of await this.e.db.loadAll()) if (r.kind === META_KIND) this.streams.set(r.key, JSON.parse(r.json) as WriteStreamRecord);
    })();
    return this.loaded;
  }

  /** Runs `f` after every earlier `f` of the same key finished (one stream's appends, finalize, flush in order). */
  private locked<T>(key: string, f: () => Promise<T>): Promise<T> {
    const next = (this.locks.get(key) ?? Promise.resolve()).then(f, f);
    const tail = next.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => this.locks.get(key) === tail && this.locks.delete(key));
    return next;
  }

  private liveTable(projectId: string, datasetId: string, tableId: string, duckName?: string): TableMeta {
    const t = this.e.catalog.getTable(projectId, datasetId, tableId);
    if (!t || t.type !== 'TABLE' || (duckName !== undefined && t.duckName !== duckName)) throw BigQueryError.writeTableNotFound(projectId, datasetId, tableId);
    return t;
  }

  /**
   * The table a CreateWriteStream `parent` names.
   * @throws BigQueryError invalid for a malformed name; notFound for a missing table.
   */
  tableOf(parent: string): TableMeta {
    const p = parseWriteTableName(parent);
    return this.liveTable(p.projectId, p.datasetId, p.tableId);
  }

  /**
   * Resolves a stream name to what it writes.
   * @throws BigQueryError invalid (`Invalid stream name`) for a malformed name or an id this
   *   emulator never issued; notFound when the stream's table was dropped or replaced.
   */
  resolve(name: string): WriteTarget {
    const m = NAME.exec(name);
    if (!m) throw BigQueryError.invalidWriteStreamName(name);
    const [, projectId, datasetId, tableId, id] = m as unknown as [string, string, string, string, string];
    if (id === '_default') return { name, table: this.liveTable(projectId, datasetId, tableId) };
    const stream = this.streams.get(name);
    if (!stream) throw BigQueryError.invalidWriteStreamName(name);
    return { name, table: this.liveTable(projectId, datasetId, tableId, stream.duckName), stream };
  }

  /** The columns an append to `w` decodes into: the table's now, or those a staging table holds. */
  columnsOf(w: WriteTarget): Column[] {
    if (!w.stream?.stage) return w.table.columns;
    const byName = new Map(w.table.columns.map((c) => [c.name, c]));
    return w.stream.columns.flatMap((n) => byName.get(n) ?? []);
  }

  /**
   * CreateWriteStream: a new stream of `type` on `t` (a staging table for PENDING/BUFFERED),
   * stored before it is answered.
   * @throws BigQueryError invalid for a table snapshot.
   */
  async create(t: TableMeta, type: WriteStreamType): Promise<WriteStreamRecord> {
    guardSnapshot(t);
    const id = newStreamId(++this.serial);
    const now = Date.now();
    const s: WriteStreamRecord = {
      name: `projects/${t.projectId}/datasets/${t.datasetId}/tables/${t.tableId}/streams/${id}`,
      projectId: t.projectId,
      datasetId: t.datasetId,
      tableId: t.tableId,
      duckName: t.duckName,
      type,
      createMs: now,
      ...(type === 'COMMITTED' ? { commitMs: now } : {}),
      rowCount: 0,
      flushed: 0,
      columns: [],
    };
    const statements: string[] = [];
    if (type !== 'COMMITTED') {
      s.stage = `__bqemu_ws_${randomUUID().replace(/-/g, '')}`;
      s.columns = t.columns.map((c) => c.name);
      statements.push(await stagingTableSql(this.e, t.duckName, s.stage, t.columns));
    }
    await this.e.db.transaction([...statements, this.metaOf(s)]);
    this.streams.set(s.name, s);
    return s;
  }

  private metaOf(s: WriteStreamRecord): string {
    return metaSql({ kind: META_KIND, key: s.name, json: JSON.stringify(s) });
  }

  /**
   * Appends the rows of several AppendRows requests of one connection (`parts`, in request order;
   * values in {@link columnsOf} order, `undefined` = DEFAULT) in ONE DuckDB transaction, each at its
   * `offset` (the stream's end when undefined), and answers once they are committed. Each part has
   * its own outcome, as if appended alone: a part refused (offset, finalized stream, row errors)
   * appends nothing and moves no offset; the others are written.
   * @throws BigQueryError notFound for a dropped table (nothing appended); the DuckDB error of the
   *   write (nothing appended).
   */
  async appendAll(w: WriteTarget, parts: AppendPart[]): Promise<AppendOutcome[]> {
    const columns = this.columnsOf(w);
    const s = w.stream;
    const run = async (): Promise<AppendOutcome[]> => {
      const t = this.liveTable(w.table.projectId, w.table.datasetId, w.table.tableId, s?.duckName);
      const outcomes: AppendOutcome[] = [];
      const accepted: RowBatch[] = [];
      let end = s?.rowCount ?? 0;
      for (const p of parts) {
        const error = refusalOf(w, p.offset, end);
        if (error) {
          outcomes.push({ error });
          continue;
        }
        // A columnar batch has no column with type parameters (src/wire/write-rows-columnar.ts).
        const checked = isWriteColumnBatch(p.rows) ? { rows: p.rows } : checkRows(columns, p.rows as (Value | undefined)[][]);
        if ('rowErrors' in checked) {
          outcomes.push(checked);
          continue;
        }
        outcomes.push(s ? { offset: end } : {});
        accepted.push(checked.rows);
        end += p.rows.length;
      }
      if (!accepted.length) return outcomes;
      const rows: RowBatches = accepted;
      const meta = s ? [this.metaOf({ ...s, rowCount: end })] : [];
      if (s?.stage) await appendWithMeta(this.e, s.stage, columns, rows, meta);
      else {
        // Grouped with the other connections' appends to this table (group commit).
        const key = `${t.duckName}\n${JSON.stringify(columns.map((c) => [c.name, c.type]))}`;
        await this.tableGroups.append(key, rows, meta, async (all, metas) => {
          // The rows sit in the table's streaming buffer (src/engine/streaming-buffer.ts), noted in the
          // append's write turn; rows written by the Storage Write API may still be changed by DML
          // (BigQuery "DML limitations": only tabledata.insertAll rows are refused). The table's
          // history is stored in the append's transaction (one commit per group, not two).
          const n = rowCountOf(all);
          await versionedWrite(
            this.e,
            t,
            async (history) => {
              await appendWithMeta(this.e, t.duckName, columns, all, [...metas, ...history]);
              await noteStreamedRows(this.e, t, n, all.reduce((k, b) => k + batchBytes(t, b), 0), { dmlAllowed: true });
            },
            'append',
            { appendedRows: n, persistWithWrite: true },
          );
          t.lastModifiedTime = Date.now();
        });
      }
      if (s) s.rowCount = end;
      return outcomes;
    };
    return s ? this.locked(s.name, run) : run();
  }

  /** {@link appendAll} of one request. */
  async append(w: WriteTarget, rows: (Value | undefined)[][], offset?: number): Promise<AppendOutcome> {
    return (await this.appendAll(w, [{ rows, offset }]))[0]!;
  }

  /**
   * FinalizeWriteStream: the stream takes no more appends. Returns its row count.
   * @throws BigQueryError notFound for `_default` (recorded sw_finalize_default_invalid_argument).
   */
  async finalize(w: WriteTarget): Promise<number> {
    const s = w.stream;
    if (!s) throw BigQueryError.writeStreamEntityNotFound(w.name);
    return this.locked(s.name, async () => {
      if (s.finalizeMs === undefined) {
        const finalizeMs = Date.now();
        await this.e.db.run(this.metaOf({ ...s, finalizeMs }));
        s.finalizeMs = finalizeMs;
      }
      return s.rowCount;
    });
  }

  /**
   * FlushRows: a BUFFERED stream's rows up to and including `offset` become visible (each once:
   * rows flushed before are not moved again). Returns the offset.
   * @throws BigQueryError invalid for a stream that is not BUFFERED; outOfRange for an offset at
   *   or past the stream's end (recorded sw_flush_rows_buffered_zero).
   */
  async flush(w: WriteTarget, offset: number | undefined): Promise<number> {
    const s = w.stream;
    if (!s || s.type !== 'BUFFERED') throw BigQueryError.flushNotBuffered(w.name);
    return this.locked(s.name, async () => {
      const at = offset ?? s.rowCount - 1;
      if (at >= s.rowCount || at < 0) throw BigQueryError.flushOffsetBeyondEnd(at, s.name);
      if (at < s.flushed) return at;
      const t = this.liveTable(s.projectId, s.datasetId, s.tableId, s.duckName);
      const next = { ...s, flushed: at + 1 };
      await versionedWrite(this.e, t, () => this.e.db.transaction([moveStagedSql(t.duckName, s.stage!, liveNames(t, s), s.flushed, at + 1), this.metaOf(next)]), 'append');
      t.lastModifiedTime = Date.now();
      s.flushed = at + 1;
      return at;
    });
  }

  /**
   * BatchCommitWriteStreams: every named PENDING stream's rows become visible in its table, in one
   * DuckDB transaction — all streams or none (https://cloud.google.com/bigquery/docs/write-api#pending_type).
   * Returns the commit time, or the streams' errors (then nothing is committed).
   */
  async batchCommit(names: string[]): Promise<{ commitMs?: number; streamErrors: StreamCommitError[] }> {
    return this.locked('\0batchCommit', async () => {
      const errors: StreamCommitError[] = [];
      const chosen: { s: WriteStreamRecord; t: TableMeta }[] = [];
      for (const name of names) {
        const s = this.streams.get(name);
        const fail = (code: StreamCommitError['code'], text: string) => errors.push({ code, entity: name, errorMessage: `${text} Entity: ${name}` });
        if (!s) fail('STREAM_NOT_FOUND', 'Stream is not found.');
        else if (s.type !== 'PENDING') fail('INVALID_STREAM_TYPE', `Stream of type ${s.type} cannot be committed; only PENDING streams are committed.`);
        else if (s.commitMs !== undefined) fail('STREAM_ALREADY_COMMITTED', 'Stream is already committed.');
        else if (s.finalizeMs === undefined) fail('INVALID_STREAM_STATE', 'Stream is not finalized.');
        else {
          const t = this.e.catalog.getTable(s.projectId, s.datasetId, s.tableId);
          if (!t || t.duckName !== s.duckName) fail('TABLE_NOT_FOUND', `Table ${s.projectId}:${s.datasetId}.${s.tableId} is not found.`);
          else if (!chosen.some((c) => c.s === s)) chosen.push({ s, t });
        }
      }
      if (errors.length) return { streamErrors: errors };
      const commitMs = Date.now();
      const statements = chosen.flatMap(({ s, t }) => [
        moveStagedSql(t.duckName, s.stage!, liveNames(t, s), 0, s.rowCount),
        `DROP TABLE IF EXISTS ${ident(s.stage!)}`,
        this.metaOf({ ...s, commitMs, stage: undefined }),
      ]);
      // Each table keeps its previous rows for time travel; the nested writes share one write turn.
      const tables = [...new Map(chosen.map(({ t }) => [t.duckName, t])).values()];
      const run = tables.reduce<() => Promise<unknown>>((inner, t) => () => versionedWrite(this.e, t, inner, 'append'), () => this.e.db.transaction(statements));
      await run();
      for (const { s, t } of chosen) {
        s.commitMs = commitMs;
        delete s.stage;
        t.lastModifiedTime = commitMs;
      }
      return { commitMs, streamErrors: [] };
    });
  }
}

/** The staged columns of `s` that `t` still has (a column dropped since is left behind). */
function liveNames(t: TableMeta, s: WriteStreamRecord): string[] {
  const names = new Set(t.columns.map((c) => c.name));
  return s.columns.filter((n) => names.has(n));
}
