/**
 * Partitioning and clustering of CREATE TABLE (BigQuery "Creating partitioned tables"): the
 * resolved `PARTITION BY` / `CLUSTER BY` read into the REST table fields `timePartitioning`,
 * `rangePartitioning` and `clustering`, and the pseudo-columns of ingestion-time partitioned
 * tables (`_PARTITIONTIME`, `_PARTITIONDATE`), which are stored as hidden DuckDB columns filled
 * with the insertion day.
 */
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import type { Column } from '../types/schema.js';
import { scalar } from '../types/types.js';
import type { Value } from '../types/types.js';

/** The pseudo-columns of an ingestion-time partitioned table, in catalog order. */
export const INGESTION_PSEUDO_COLUMNS: Column[] = [
  { name: '_PARTITIONTIME', type: scalar('TIMESTAMP'), required: false },
  { name: '_PARTITIONDATE', type: scalar('DATE'), required: false },
];

/** DuckDB column definitions of the pseudo-columns: the day (UTC) of insertion. */
export const INGESTION_PSEUDO_DDL = [
  `"_PARTITIONTIME" TIMESTAMPTZ DEFAULT (date_trunc('day', get_current_timestamp()))`,
  `"_PARTITIONDATE" DATE DEFAULT (CAST(get_current_timestamp() AS DATE))`,
];

/** Whether a table is partitioned by ingestion time (it then has the pseudo-columns). */
export function isIngestionPartitioned(t: Pick<TableMeta, 'fields'>): boolean {
  const tp = t.fields.timePartitioning as { field?: string } | undefined;
  return !!tp && !tp.field;
}

const colOf = (n: Node | undefined): string | undefined => (n?.kind === 'ColumnRef' ? String(n.column?.name) : undefined);

/** The date part named by a DATE_TRUNC-like call's second argument (`MONTH`, `HOUR` …). */
function partOf(n: Node | undefined): string {
  const v = n?.value?.value;
  const raw = String(v?.enumValue ?? v?.int64Value ?? '');
  const byNumber: Record<string, string> = { '1': 'YEAR', '2': 'MONTH', '3': 'DAY', '7': 'HOUR' }; // zetasql.functions.DateTimestampPart
  return (/^\d+$/.test(raw) ? byNumber[raw] : raw.toUpperCase()) || 'DAY';
}

const intArg = (n: Node | undefined): string | undefined => {
  const v = n?.kind === 'Literal' ? n.value?.value : undefined;
  return v?.int64Value !== undefined ? String(v.int64Value) : undefined;
};

/** REST partitioning and clustering fields of a CREATE TABLE statement. */
export function partitioningFields(stmt: Node, literalOptions: Record<string, Value>): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  const p: Node | undefined = (stmt.partitionByList ?? [])[0];
  if (p) {
    const col = colOf(p);
    if (col) {
      const lc = col.toLowerCase();
      f.timePartitioning = lc === '_partitiondate' || lc === '_partitiontime' ? { type: 'DAY' } : { type: 'DAY', field: col };
    } else if (p.kind === 'FunctionCall') {
      const fn = String(p.function?.name ?? '').replace(/^ZetaSQL:/, '').toLowerCase();
      const args: Node[] = p.argumentList ?? [];
      const c = colOf(args[0]);
      if (fn === 'range_bucket' && c) {
        const ga = args[1];
        const gargs: Node[] = ga?.argumentList ?? [];
        f.rangePartitioning = { field: c, range: { start: intArg(gargs[0]) ?? '0', end: intArg(gargs[1]) ?? '0', interval: intArg(gargs[2]) ?? '1' } };
      } else if (c) {
        const type = /_trunc$/.test(fn) ? partOf(args[1]) : 'DAY';
        const lc = c.toLowerCase();
        f.timePartitioning = lc === '_partitiondate' || lc === '_partitiontime' ? { type } : { type, field: c };
      }
    }
  }
  const expDays = literalOptions.partition_expiration_days;
  // An integer literal (`partition_expiration_days=1`) arrives as a bigint, a fraction as a number.
  if (f.timePartitioning && (typeof expDays === 'number' || typeof expDays === 'bigint'))
    (f.timePartitioning as Record<string, unknown>).expirationMs = String(Math.round(Number(expDays) * 86400000));
  if (literalOptions.require_partition_filter === true) f.requirePartitionFilter = true;
  const cluster = (stmt.clusterByList ?? []).map(colOf).filter((x: string | undefined): x is string => !!x);
  if (cluster.length) f.clustering = { fields: cluster };
  return f;
}
