/**
 * ALTER SCHEMA [IF EXISTS] … SET OPTIONS (…) and SET DEFAULT COLLATE: dataset options changed in
 * place. Options set to NULL are cleared. Source: BigQuery DDL reference
 * (data-definition-language#alter_schema_set_options_statement): description, friendly_name,
 * labels, default_table_expiration_days, default_partition_expiration_days, max_time_travel_hours,
 * default_collation …; statementType ALTER_SCHEMA.
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import type { Value } from '../types/types.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import type { LowerContext } from './lower/context.js';
import { literalOptions } from './options.js';
import { datasetOptionFields } from './expiration.js';

/** REST Dataset fields of the plain options (name → field). */
const PLAIN: Record<string, string> = { description: 'description', friendly_name: 'friendlyName', default_collation: 'defaultCollation' };

/** `labels=[("k", "v"), …]` as the REST `labels` map. */
function labelsOf(v: Value): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of Array.isArray(v) ? v : []) if (Array.isArray(pair) && pair.length === 2) out[String(pair[0])] = String(pair[1]);
  return out;
}

/**
 * Applies ALTER SCHEMA actions to the dataset's metadata.
 * @throws BigQueryError notFound for a missing dataset without IF EXISTS; notSupported for
 *   actions other than SET OPTIONS / SET DEFAULT COLLATE (e.g. ADD REPLICA).
 */
async function alterSchema(e: Engine, stmt: Node, _ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const parts = (stmt.namePath as string[]).flatMap((s) => s.split('.'));
  const r = parts.length === 1 ? { projectId: opts.projectId, datasetId: parts[0] } : { projectId: parts[0], datasetId: parts[1] };
  const base: StatementResult = { statementType: 'ALTER_SCHEMA', ddlTargetDataset: r };
  const d = e.catalog.getDataset(r.projectId, r.datasetId);
  if (!d) {
    if (stmt.isIfExists) return { ...base, ddlOperationPerformed: 'SKIP' };
    throw BigQueryError.datasetNotFound(r.projectId, r.datasetId, false);
  }
  const fields = { ...d.fields };
  for (const a of (stmt.alterActionList ?? []) as Node[]) {
    if (a.kind === 'SetOptionsAction') {
      const o = literalOptions(a.optionList);
      for (const [name, v] of Object.entries(o)) {
        const field = PLAIN[name];
        if (field) {
          if (v === null) delete fields[field];
          else fields[field] = String(v);
        } else if (name === 'labels') fields.labels = labelsOf(v);
      }
      Object.assign(fields, datasetOptionFields(o));
    } else if (a.kind === 'SetCollateClause' || a.kind === 'AlterSchemaSetCollateAction') {
      fields.defaultCollation = String(a.collationName?.value?.stringValue ?? a.collationName ?? '');
    } else throw BigQueryError.notSupported(`ALTER SCHEMA action ${String(a.kind).replace(/Action$/, '')}`);
  }
  if (!opts.dryRun) await e.catalog.putDataset({ ...d, fields, lastModifiedTime: Date.now() });
  return { ...base, ddlOperationPerformed: 'ALTER' };
}

export const SCHEMA_DDL = { AlterSchemaStmt: alterSchema } satisfies StatementHandlers;
