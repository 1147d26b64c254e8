/**
 * Time travel (BigQuery "Access historical data" and "Data retention with time travel"): a read
 * `FROM t FOR SYSTEM_TIME AS OF ts` sees the version of `t` that was current at `ts`.
 *
 * How versions are kept: only tables that are written keep history. Before a write to a stored
 * table (DML, TRUNCATE, insertAll, query destinations), inside the same database write turn, the
 * table's rows are copied (`CREATE TABLE "<duckName>__v<n>" AS SELECT * FROM "<duckName>"`) and
 * the copy is recorded with the interval it was current: `[from, to)` in microseconds since the
 * epoch. A write that only appends (INSERT, insertAll, appended query results) copies nothing: its
 * version is the first n rows (by rowid) of the live table, copied only when a later write changes
 * or removes rows (in-memory databases; a file database may renumber rowids at a checkpoint). CREATE OR REPLACE (and WRITE_TRUNCATE) keeps the replaced table itself as a version, so
 * the history continues across replacements ("After you replace an existing table by using the
 * CREATE OR REPLACE TABLE statement, you can use FOR SYSTEM_TIME AS OF to query the previous
 * version"). DROP discards the history: a read of a dropped table is `Not found`.
 *
 * Bounds: versions that ended before the time-travel window (dataset `maxTimeTravelHours`, 48 to
 * 168 hours, default 168) are dropped on the next write; at most {@link MAX_VERSIONS} versions and
 * {@link MAX_VERSION_ROWS} rows are kept per table (older ones are dropped first, and the earliest
 * readable time moves forward with them; a table larger than the row budget keeps no version at
 * all, so its history starts at its latest write: emulator limits).
 *
 * Known gaps: a version is read with the table's current schema (columns it lacks read as NULL;
 * BigQuery reads the schema of that time); writes inside a multi-statement transaction each leave
 * a version, so a time inside the transaction sees its uncommitted rows.
 *
 * Errors (documented text): a time before the table was created or before the window is
 * `Invalid snapshot time <ms> for table p:d.t@<ms>. Cannot read before <ms>.`; a time in the
 * future is refused; a table with row access policies refuses time travel ("Time travel and
 * row-level access": only table administrators may, and the emulator has no IAM roles).
 */
import { logIgnored } from '../config/logger.js';
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine } from './engine-types.js';
import { metaSql } from './duckdb/db.js';
import { duckType } from './duckdb/types.js';
import { ident } from './lower/context.js';
import { isIngestionPartitioned } from './partitioning.js';

/** Versions kept per table at most. */
export const MAX_VERSIONS = 64;
/** Rows kept per table over all its versions at most. */
export const MAX_VERSION_ROWS = 1_000_000;
/** BigQuery's default time-travel window: 168 hours. */
export const DEFAULT_WINDOW_HOURS = 168;

/** One earlier version of a table's rows. Times are microseconds since the epoch. */
interface TableVersion {
  duckName: string;
  /** DuckDB columns the copy has (by name; columns added later read as NULL). */
  columns: string[];
  from: number;
  to: number;
  rows: number;
  /**
   * An append-only write left the earlier rows untouched: this version is the first `rows` rows
   * (by rowid) of the table `duckName` itself, not a copy. Copied ("materialised") before any
   * write that changes or removes rows (in-memory databases only; see keepVersion).
   */
  prefix?: boolean;
}

/** A table's retained history (keyed by project, dataset and table id). */
interface TableHistory {
  /** The DuckDB table holding the current rows; another name means the table was dropped and re-created. */
  live: string;
  /** Since when (µs) the current rows are current. */
  liveSince: number;
  /** Oldest first. */
  versions: TableVersion[];
  seq: number;
}

interface Registry {
  byTable: Map<string, TableHistory>;
  loaded?: Promise<void>;
}

const registries = new WeakMap<Engine, Registry>();
const keyOf = (t: Pick<TableMeta, 'projectId' | 'datasetId' | 'tableId'>) => JSON.stringify([t.projectId, t.datasetId, t.tableId]);

/** The engine's history registry (loaded from the metadata table of a `--data-dir` database once). */
async function registry(e: Engine): Promise<Registry> {
  let r = registries.get(e);
  if (!r) {
    r = { byTable: new Map() };
    registries.set(e, r);
    const reg = r;
    if (e.db.persistent)
      r.loaded = e.db.loadAll().then((rows) => {
        for (const row of rows) if (row.kind === 'history') reg.byTable.set(row.key, JSON.parse(row.json) as TableHistory);
      });
  }
  await r.loaded;
  return r;
}

/**
 * Stores the history `h` of `key` (`--data-dir`); with `into`, the statement is pushed there for
 * the caller to run in its own transaction instead.
 */
async function persist(e: Engine, key: string, h: TableHistory | undefined, into?: string[]): Promise<void> {
  if (!e.db.persistent) return;
  const change = { kind: 'history', key, json: h ? JSON.stringify(h) : null };
  if (into) into.push(metaSql(change));
  else await e.db.save(change.kind, change.key, change.json);
}

/** Whether writes to `t` keep history: stored tables outside hidden (script/session TEMP) datasets. */
export function keepsHistory(t: TableMeta | undefined): boolean {
  return !!t && t.type === 'TABLE' && !!t.duckName && !t.wildcard && !t.infoSchema && !t.datasetId.startsWith('_');
}

/** The time-travel window of a table's dataset, in ms (`maxTimeTravelHours`, 48–168; default 168). */
export function windowMs(e: Engine, t: Pick<TableMeta, 'projectId' | 'datasetId'>): number {
  const h = Number(e.catalog.getDataset(t.projectId, t.datasetId)?.fields.maxTimeTravelHours);
  return (Number.isFinite(h) && h >= 48 && h <= 168 ? h : DEFAULT_WINDOW_HOURS) * 3_600_000;
}

/** Now in microseconds, from the database clock (the one CURRENT_TIMESTAMP() reads). */
async function nowMicros(e: Engine, after = 0): Promise<number> {
  const r = await e.db.readAll('SELECT epoch_us(get_current_timestamp())');
  return Math.max(Number(r.getRowsJS()[0][0]), after + 1);
}

/** The DuckDB columns of a table's relation (its columns plus ingestion-time pseudo-columns). */
function duckColumns(t: TableMeta): string[] {
  const cols = t.columns.map((c) => c.name);
  if (isIngestionPartitioned(t)) cols.push('_PARTITIONTIME', '_PARTITIONDATE');
  return cols;
}

/** The history of `t`, discarding one left by an earlier table of the same name. */
async function historyOf(e: Engine, t: TableMeta, create: boolean): Promise<TableHistory | undefined> {
  const r = await registry(e);
  const key = keyOf(t);
  let h = r.byTable.get(key);
  if (h && h.live !== t.duckName) {
    await discard(e, key, h);
    h = undefined;
  }
  if (!h && create) {
    h = { live: t.duckName, liveSince: t.creationTime * 1000, versions: [], seq: 0 };
    r.byTable.set(key, h);
  }
  return h;
}

async function dropVersion(e: Engine, v: TableVersion): Promise<void> {
  if (v.prefix) return; // its rows are the live table's
  await e.db.run(`DROP TABLE IF EXISTS ${ident(v.duckName)}`);
}

/**
 * The rows of a prefix version: the first `rows` rows of the live table in rowid order. Not
 * `rowid < rows`: rows deleted before the version leave gaps in the rowids (in memory) and a file
 * database renumbers them when it checkpoints, but the order of the rows that remain, and appends
 * coming after them, hold either way (and no row before the boundary changes while the version is a
 * prefix: {@link materialize} copies it first).
 */
function prefixWhere(v: TableVersion): string {
  return ` WHERE rowid IN (SELECT rowid FROM ${ident(v.duckName)} ORDER BY rowid LIMIT ${v.rows})`;
}

/** Copies every prefix version into a table of its own (before rows of the live table change). */
async function materialize(e: Engine, h: TableHistory): Promise<void> {
  for (const v of h.versions) {
    if (!v.prefix) continue;
    const name = `${h.live}__v${++h.seq}`;
    await e.db.run(`CREATE OR REPLACE TABLE ${ident(name)} AS SELECT * FROM ${ident(v.duckName)}${prefixWhere(v)} ORDER BY rowid`);
    v.duckName = name;
    v.prefix = undefined;
  }
}

async function discard(e: Engine, key: string, h: TableHistory): Promise<void> {
  (await registry(e)).byTable.delete(key);
  await e.db.serializeWrite(async () => {
    for (const v of h.versions) await dropVersion(e, v);
    await persist(e, key, undefined);
  });
}

/** Drops versions that ended before the window, and the oldest ones beyond the budgets. */
async function prune(e: Engine, t: TableMeta, h: TableHistory): Promise<void> {
  const horizon = (Date.now() - windowMs(e, t)) * 1000;
  let rows = h.versions.reduce((n, v) => n + (v.prefix ? 0 : v.rows), 0);
  while (h.versions.length && (h.versions[0].to < horizon || h.versions.length > MAX_VERSIONS || rows > MAX_VERSION_ROWS)) {
    const v = h.versions.shift()!;
    if (!v.prefix) rows -= v.rows;
    await dropVersion(e, v);
  }
}

/**
 * Keeps the current rows of `t` as a version before a write; call inside the write turn
 * (Database.serializeWrite), before the write. The table's row count is the one the turn's previous
 * write noted (src/engine/duckdb/row-facts.ts) when there is one, else counted. `persistInto`: the
 * statement storing the history is pushed there (for the write's own transaction) instead of run.
 * @returns an undo for a write that then fails, and the rows the table had.
 */
async function keepVersion(e: Engine, t: TableMeta, append: boolean, persistInto?: string[]): Promise<{ undo: () => Promise<void>; rows: number }> {
  const h = (await historyOf(e, t, true))!;
  const n = e.db.rowFacts.atTurnStart(t.duckName)?.rows ?? Number((await e.db.readAll(`SELECT count(*) FROM ${ident(t.duckName)}`)).getRowsJS()[0][0]);
  // An append leaves the first n rows as they are: the version is that prefix of the live table, no
  // copy (with --data-dir too: prefixWhere reads by rowid order, which a checkpoint keeps). Copying
  // the table at every append cost 0.6–0.8 s per 10k-row append to a 300k-row file table.
  const prefix = append;
  if (!prefix) await materialize(e, h);
  if (n > MAX_VERSION_ROWS) {
    // Too large to keep: the history ends here (reads before this write: "Cannot read before").
    for (const v of h.versions.splice(0)) await dropVersion(e, v);
    h.liveSince = await nowMicros(e, h.liveSince);
    await persist(e, keyOf(t), h, persistInto);
    return { undo: async () => undefined, rows: n };
  }
  let name = t.duckName;
  if (!prefix) {
    name = `${t.duckName}__v${++h.seq}`;
    await e.db.run(`CREATE OR REPLACE TABLE ${ident(name)} AS SELECT * FROM ${ident(t.duckName)}`);
  }
  const at = await nowMicros(e, h.liveSince);
  const v: TableVersion = { duckName: name, columns: duckColumns(t), from: h.liveSince, to: at, rows: n, ...(prefix ? { prefix: true } : {}) };
  const before = h.liveSince;
  h.versions.push(v);
  h.liveSince = at;
  await prune(e, t, h);
  await persist(e, keyOf(t), h, persistInto);
  const undo = async () => {
    const i = h.versions.indexOf(v);
    if (i < 0) return;
    h.versions.splice(i, 1);
    h.liveSince = before;
    await dropVersion(e, v);
    await persist(e, keyOf(t), h);
  };
  return { undo, rows: n };
}

/** Options of {@link versionedWrite}. */
export interface VersionedWriteOptions {
  /**
   * The write appends exactly this many rows (when it succeeds): the table's new row count is noted
   * for the next write (src/engine/duckdb/row-facts.ts), which then need not count the rows.
   */
  appendedRows?: number;
  /**
   * The write runs the statements it is given (`f`'s argument: storing the table's history,
   * `--data-dir`) in its own transaction, so the history and the rows are stored together in one
   * commit instead of two.
   */
  persistWithWrite?: boolean;
}

/**
 * Runs a write `f` to the table `t` in one write turn, after keeping the table's current rows as
 * a version (nothing is kept for tables outside {@link keepsHistory}, or for a write that fails).
 * `append`: `f` only adds rows (INSERT, insertAll, appends), so the version needs no copy.
 */
export async function versionedWrite<T>(
  e: Engine,
  t: TableMeta | undefined,
  f: (historyStatements: string[]) => Promise<T>,
  kind: 'append' | 'rewrite' = 'rewrite',
  opts: VersionedWriteOptions = {},
): Promise<T> {
  if (!t) return f([]);
  // The write turn names the table it changes: a write to `t` leaves other tables' cached sizes and
  // prepared statements current (src/engine/duckdb/write-generations.ts). The writes `f` and the
  // version keeping run inside it change only `t`, its versions and scratch tables no query names.
  const scope = t.type === 'TABLE' && t.duckName && !t.wildcard && !t.infoSchema ? [t.duckName] : 'all';
  if (!keepsHistory(t)) return e.db.serializeWrite(() => f([]), scope);
  return e.db.serializeWrite(async () => {
    const live = e.catalog.getTable(t.projectId, t.datasetId, t.tableId);
    // Replaced or dropped since the statement was analyzed: its rows now belong to the history.
    if (!live) throw BigQueryError.tableNotFound(t.projectId, t.datasetId, t.tableId);
    if (live.duckName !== t.duckName)
      throw BigQueryError.concurrentUpdate(`${t.projectId}:${t.datasetId}.${t.tableId}`);
    const statements: string[] = [];
    const kept = keepsHistory(live) ? await keepVersion(e, live, kind === 'append', opts.persistWithWrite ? statements : undefined) : undefined;
    let out: T;
    try {
      out = await f(statements);
    } catch (err) {
      // The write's own error is the answer; a version that cannot be dropped only costs space.
      await kept?.undo().catch(logIgnored(e.log, 'dropping the version kept for a failed write', 'warn'));
      throw err;
    }
    if (kept && opts.appendedRows !== undefined) e.db.rowFacts.note(live.duckName, { rows: kept.rows + opts.appendedRows });
    return out;
  }, scope);
}

const WRITES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt']);

/** The stored table a DML or TRUNCATE statement writes (undefined for other statements). */
export function writeTarget(stmt: Node, tables: Map<string, TableMeta>): TableMeta | undefined {
  if (!WRITES.has(stmt.kind)) return undefined;
  return tables.get(String(stmt.tableScan?.table?.serializationId ?? ''));
}

/**
 * CREATE OR REPLACE / WRITE_TRUNCATE replaced `old` by `next`: the replaced DuckDB table (which
 * the caller kept instead of dropping, see {@link keepsHistory}) becomes the latest version.
 */
export async function retainReplaced(e: Engine, old: TableMeta, next: TableMeta): Promise<void> {
  await e.db.serializeWrite(async () => {
    const h = (await historyOf(e, old, true))!;
    const at = await nowMicros(e, h.liveSince);
    h.versions.push({ duckName: old.duckName, columns: duckColumns(old), from: h.liveSince, to: at, rows: 0 });
    const n = Number((await e.db.readAll(`SELECT count(*) FROM ${ident(old.duckName)}`)).getRowsJS()[0][0]);
    h.versions[h.versions.length - 1].rows = n;
    h.live = next.duckName;
    h.liveSince = at;
    await prune(e, next, h);
    await persist(e, keyOf(next), h);
  });
}

/** DROP TABLE: the table's versions go with it. */
export async function dropHistory(e: Engine, t: TableMeta): Promise<void> {
  const r = await registry(e);
  const h = r.byTable.get(keyOf(t));
  if (h) await discard(e, keyOf(t), h);
}

/**
 * Whether the rows `t` (as it was bound then) had at `micros` may no longer be the first rows of
 * its live table: a write since changed or removed rows in place, or replaced the table (appends
 * alone keep them: their versions are prefixes of the live table). A Storage Read session pinned
 * at `micros` then reads that version (relationAsOf) instead of the live table.
 */
export async function rewrittenSince(e: Engine, t: TableMeta, micros: number): Promise<boolean> {
  if (!keepsHistory(t)) return false;
  const h = (await registry(e)).byTable.get(keyOf(t));
  if (!h || micros >= h.liveSince) return false;
  if (h.live !== t.duckName) return true;
  const v = h.versions.find((x) => micros >= x.from && micros < x.to);
  return !v?.prefix;
}

/** Now in microseconds since the epoch, from the database clock (the one table versions are stamped with). */
export function databaseNowMicros(e: Engine): Promise<number> {
  return nowMicros(e);
}

/** The earliest time (µs) a read of `t` may ask for. */
function earliest(e: Engine, t: TableMeta, h: TableHistory | undefined): number {
  const created = h ? (h.versions[0]?.from ?? h.liveSince) : t.creationTime * 1000;
  return Math.max(created, (Date.now() - windowMs(e, t)) * 1000);
}

/**
 * The DuckDB relation of `t` as it was at `micros` (µs since the epoch), with the columns of `t`'s
 * current relation.
 * @throws BigQueryError invalidQuery for a time before the table's creation or the window, or in
 *   the future; accessDenied for a table with row access policies.
 */
export async function relationAsOf(e: Engine, t: TableMeta, micros: number): Promise<string> {
  const name = `${t.projectId}:${t.datasetId}.${t.tableId}`;
  if (t.type !== 'TABLE' || t.wildcard || t.infoSchema) throw BigQueryError.timeTravelNotStored(name);
  if (e.catalog.listRowAccessPolicies(t.projectId, t.datasetId, t.tableId).length)
    throw BigQueryError.timeTravelForbiddenByRowAccess(name);
  const ms = Math.floor(micros / 1000);
  if (ms > Date.now() + 1000) throw BigQueryError.timestampInFuture();
  const h = keepsHistory(t) ? await historyOf(e, t, false) : undefined;
  const first = earliest(e, t, h);
  if (micros < first) throw BigQueryError.snapshotTooOld(name, ms, Math.floor(first / 1000));
  if (!h || micros >= h.liveSince) return ident(t.duckName);
  const v = h.versions.find((x) => micros >= x.from && micros < x.to) ?? h.versions[0];
  const have = new Set(v.columns.map((c) => c.toLowerCase()));
  const types = new Map(t.columns.map((c) => [c.name.toLowerCase(), c.type]));
  const items = duckColumns(t).map((c) => {
    const ty = types.get(c.toLowerCase());
    if (!have.has(c.toLowerCase())) return ty ? `CAST(NULL AS ${duckType(ty)}) AS ${ident(c)}` : `NULL AS ${ident(c)}`;
    return ty ? `CAST(${ident(c)} AS ${duckType(ty)}) AS ${ident(c)}` : ident(c);
  });
  return `(SELECT ${items.join(', ')} FROM ${ident(v.duckName)}${v.prefix ? prefixWhere(v) : ''})`;
}
