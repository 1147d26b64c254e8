/**
 * Table and partition expiration (BigQuery "Manage tables": table expiration; "Manage partitioned
 * tables": partition expiration; "Manage datasets": default table and partition expiration).
 *
 * - A table's `expirationTime` (REST, ms since the epoch; DDL `OPTIONS(expiration_timestamp=…)`)
 *   removes it once passed: the catalog drops it when it is next looked up (get answers 404, list
 *   leaves it out, queries say `Not found`), and its data is dropped here ({@link installExpiration}).
 * - A dataset's `defaultTableExpirationMs` (DDL `default_table_expiration_days`) gives every table
 *   created afterwards an `expirationTime` of creation + that; its `defaultPartitionExpirationMs`
 *   (`default_partition_expiration_days`) gives new time-partitioned tables
 *   `timePartitioning.expirationMs` ({@link withDatasetDefaults}). Values set on the table win.
 * - A time partition expires at its boundary plus `timePartitioning.expirationMs`: "for daily
 *   partitions the partition boundary is at midnight (00:00:00 UTC); with a partition expiration of
 *   6 hours each partition expires at 06:00:00 UTC the following day". Its rows are deleted before
 *   the table is next read or written ({@link expirePartitions}); a NULL partition never expires.
 */
import { logIgnored } from '../config/logger.js';
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import type { Value } from '../types/types.js';
import { outsideWriteTurn } from './duckdb/db.js';
import type { Engine } from './engine-types.js';
import { dropTableObject } from './drop-table.js';
import { ident, type LowerContext } from './lower/context.js';
import { lowerExpr } from './lower/exprs.js';
import type { TableRef } from './names.js';

const DAY_MS = 86_400_000;

/** Drops the data of tables the catalog finds expired (called once, when the engine starts). */
export function installExpiration(e: Engine): void {
  e.catalog.onExpire = (t) => {
    // The lookup may happen inside another write's turn; the drop takes a turn of its own.
    outsideWriteTurn(() =>
      setImmediate(() => {
        // Best effort: a table whose data cannot be dropped now is already gone from the catalog.
        void dropTableObject(e, t).catch(logIgnored(e.log, 'dropping an expired table\'s data', 'warn'));
      }),
    );
  };
}

/**
 * The REST fields of a new table in dataset `r` with the dataset's default table and partition
 * expirations applied (what the table sets itself is kept).
 */
export function withDatasetDefaults(e: Engine, r: Pick<TableRef, 'projectId' | 'datasetId'>, fields: Record<string, unknown>, now = Date.now()): Record<string, unknown> {
  const d = e.catalog.getDataset(r.projectId, r.datasetId)?.fields;
  if (!d) return fields;
  const out = { ...fields };
  const tableMs = Number(d.defaultTableExpirationMs);
  if (out.expirationTime === undefined && d.defaultTableExpirationMs != null && Number.isFinite(tableMs) && tableMs > 0) out.expirationTime = String(now + tableMs);
  const partMs = Number(d.defaultPartitionExpirationMs);
  const tp = out.timePartitioning as Record<string, unknown> | undefined;
  if (tp && tp.expirationMs === undefined && d.defaultPartitionExpirationMs != null && Number.isFinite(partMs) && partMs > 0)
    out.timePartitioning = { ...tp, expirationMs: String(partMs) };
  return out;
}

const days = (v: Value): string | undefined => (typeof v === 'number' || typeof v === 'bigint' ? String(Math.round(Number(v) * DAY_MS)) : undefined);

/**
 * Dataset REST fields of CREATE SCHEMA options: `default_table_expiration_days` →
 * `defaultTableExpirationMs`, `default_partition_expiration_days` → `defaultPartitionExpirationMs`,
 * `max_time_travel_hours` → `maxTimeTravelHours` (all as strings, as the REST Dataset has them).
 */
export function datasetOptionFields(o: Record<string, Value>): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  const t = days(o.default_table_expiration_days);
  if (t !== undefined) f.defaultTableExpirationMs = t;
  const p = days(o.default_partition_expiration_days);
  if (p !== undefined) f.defaultPartitionExpirationMs = p;
  if (typeof o.max_time_travel_hours === 'number' || typeof o.max_time_travel_hours === 'bigint') f.maxTimeTravelHours = String(o.max_time_travel_hours);
  return f;
}

/**
 * ALTER TABLE … SET OPTIONS(expiration_timestamp = …, partition_expiration_days = …): the table's
 * new REST fields (NULL removes the expiration).
 */
export function expirationOptionFields(fields: Record<string, unknown>, o: Record<string, Value>): Record<string, unknown> {
  const out = { ...fields };
  if ('expiration_timestamp' in o) {
    if (typeof o.expiration_timestamp === 'bigint') out.expirationTime = String(o.expiration_timestamp / 1000n);
    else if (o.expiration_timestamp === null) delete out.expirationTime;
  }
  const tp = out.timePartitioning as Record<string, unknown> | undefined;
  if (tp && 'partition_expiration_days' in o) {
    const ms = days(o.partition_expiration_days);
    const next = { ...tp };
    if (ms !== undefined) next.expirationMs = ms;
    else if (o.partition_expiration_days === null) delete next.expirationMs;
    out.timePartitioning = next;
  }
  return out;
}

/**
 * `OPTIONS(expiration_timestamp = <constant expression>)` (the documented form is
 * `TIMESTAMP_ADD(CURRENT_TIMESTAMP(), INTERVAL 48 HOUR)`): `fields` with the expression's value
 * as `expirationTime` (literal values are already in `fields`).
 */
export async function withExpirationExpression(e: Engine, optionList: Node[] | undefined, ctx: LowerContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const o = (optionList ?? []).find((x) => String(x.name).toLowerCase() === 'expiration_timestamp');
  if (!o?.value || o.value.kind === 'Literal') return fields;
  const r = await e.db.readAll(`SELECT epoch_ms(CAST((${lowerExpr(o.value, ctx)}) AS TIMESTAMPTZ))`);
  const ms = r.getRowsJS()[0]?.[0];
  const out = { ...fields };
  if (ms === null || ms === undefined) delete out.expirationTime;
  else out.expirationTime = String(ms);
  return out;
}

const UNITS: Record<string, string> = { HOUR: 'hour', DAY: 'day', MONTH: 'month', YEAR: 'year' };

/**
 * Deletes the rows of `t`'s expired time partitions (a no-op for tables without partition
 * expiration). Called before a table is read or written.
 */
export async function expirePartitions(e: Engine, t: TableMeta): Promise<void> {
  if (t.type !== 'TABLE' || !t.duckName) return;
  const tp = t.fields.timePartitioning as { type?: string; field?: string; expirationMs?: string } | undefined;
  const ms = Number(tp?.expirationMs);
  if (!tp || tp.expirationMs === undefined || !Number.isFinite(ms) || ms <= 0) return;
  const unit = UNITS[String(tp.type ?? 'DAY').toUpperCase()] ?? 'day';
  const col = ident(tp.field ?? '_PARTITIONTIME');
  const cutoff = Date.now() - ms;
  // A partition [start, start + 1 unit) expires at its end plus expirationMs. The write names its
  // table: run inside another table's write turn, it still moves this table's write generation.
  const sql = `DELETE FROM ${ident(t.duckName)} WHERE ${col} IS NOT NULL AND epoch_ms(date_trunc('${unit}', CAST(${col} AS TIMESTAMP)) + INTERVAL 1 ${unit}) <= ${cutoff}`;
  await e.db.serializeWrite(() => e.db.run(sql), [t.duckName]);
}
