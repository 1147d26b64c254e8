/**
 * Writes a query's result into `configuration.query.destinationTable` with the create and write
 * dispositions of contract §4.3 (CREATE_IF_NEEDED / CREATE_NEVER; WRITE_EMPTY / WRITE_TRUNCATE /
 * WRITE_APPEND). The response still carries the SELECT's projection.
 */
import type { Engine, StatementResult } from '../engine/engine.js';
import { createStoredTable } from '../engine/ddl.js';
import { insertValues } from '../engine/dml-values.js';
import { readRows } from '../engine/statements.js';
import { BigQueryError } from '../errors/errors.js';

export async function applyDestination(e: Engine, projectId: string, q: Record<string, any>, result: StatementResult): Promise<void> {
  const d = q.destinationTable;
  const ref = { projectId: d.projectId ?? projectId, datasetId: d.datasetId, tableId: d.tableId };
  if (!e.catalog.getDataset(ref.projectId, ref.datasetId)) throw BigQueryError.datasetNotFound(ref.projectId, ref.datasetId);
  const existing = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId);
  const write = String(q.writeDisposition ?? 'WRITE_EMPTY').toUpperCase();
  const create = String(q.createDisposition ?? 'CREATE_IF_NEEDED').toUpperCase();
  const schema = result.schema ?? [];
  const rows = result.rows ?? [];
  if (!existing) {
    if (create === 'CREATE_NEVER') throw BigQueryError.notFound(`Not found: Table ${ref.projectId}:${ref.datasetId}.${ref.tableId}`);
    const t = await createStoredTable(e, ref, schema.map((f) => ({ name: f.name, type: f.type, required: false })), {});
    await insertValues(e, t, rows);
  } else {
    if (write === 'WRITE_EMPTY') {
      const r = await e.db.readAll(`SELECT count(*) FROM "${existing.duckName}"`);
      if (Number(r.getRowsJS()[0][0]) > 0)
        throw BigQueryError.duplicate(`Already Exists: Table ${ref.projectId}:${ref.datasetId}.${ref.tableId}`);
    }
    if (write === 'WRITE_TRUNCATE') {
      const t = await createStoredTable(e, ref, schema.map((f) => ({ name: f.name, type: f.type, required: false })), existing.fields, undefined, existing);
      await insertValues(e, t, rows);
    } else await insertValues(e, existing, rows);
  }
  result.numDmlAffectedRows = rows.length;
  // A query job's results are its destination table (recorded api_configuration/write_append_*).
  const t = e.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId)!;
  const fields = t.columns.map((c) => ({ name: c.name, type: c.type }));
  const list = t.columns.map((c) => `"${c.name.replace(/"/g, '""')}"`).join(', ');
  result.schema = fields;
  result.rows = await readRows(e, `SELECT ${list} FROM "${t.duckName}" ORDER BY rowid`, fields);
}
