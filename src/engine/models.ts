/**
 * BigQuery ML model statements. The emulator holds no models (BigQuery ML is out of its scope), so
 * the model DDL answers as BigQuery does where no model exists, and what would make or read one is
 * refused with a clear error:
 * - CREATE [OR REPLACE] MODEL [IF NOT EXISTS] → 400 `CREATE MODEL (BigQuery ML) is not supported by bqemu`;
 * - EXPORT MODEL → refused the same way;
 * - DROP MODEL m → 404 `Not found: Model p:d.m` (`IF EXISTS`: nothing to drop, ddlOperationPerformed SKIP);
 * - ALTER MODEL m → 404 likewise (`IF EXISTS`: SKIP).
 * Sources: https://cloud.google.com/bigquery/docs/reference/standard-sql/bigqueryml-syntax-drop-model,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/bigqueryml-syntax-alter-model.
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementHandlers, StatementResult } from './engine-types.js';
import { resolveTablePath } from './names.js';

/**
 * The answer for a statement on a model, which never exists: SKIP with IF EXISTS, else BigQuery's 404
 * for the model's dataset (`Not found: Dataset p:d was not found in location US`) or the model.
 */
function missingModel(e: Engine, namePath: string[], opts: QueryOptions, statementType: string, ifExists: boolean): StatementResult {
  const r = resolveTablePath(namePath, opts);
  if (ifExists) return { statementType, ddlOperationPerformed: 'SKIP' };
  if (!e.catalog.getDataset(r.projectId, r.datasetId)) throw BigQueryError.datasetNotFound(r.projectId, r.datasetId);
  throw BigQueryError.modelNotFound(r.projectId, r.datasetId, r.tableId);
}

/**
 * DROP MODEL [IF EXISTS] (called by DropStmt's handler, src/engine/ddl.ts): no model exists.
 * @throws BigQueryError 404 `Not found: Model p:d.m` without IF EXISTS.
 */
export function dropModel(e: Engine, stmt: Node, opts: QueryOptions): StatementResult {
  return missingModel(e, stmt.namePath as string[], opts, 'DROP_MODEL', Boolean(stmt.isIfExists));
}

/** Handlers of the model statements (spread into HANDLERS, src/engine/statements.ts). */
export const MODELS = {
  CreateModelStmt: async () => {
    throw BigQueryError.bigQueryMlNotSupported('CREATE MODEL');
  },
  ExportModelStmt: async () => {
    throw BigQueryError.bigQueryMlNotSupported('EXPORT MODEL');
  },
  AlterModelStmt: async (e, stmt, _ctx, opts) => missingModel(e, stmt.namePath ?? [], opts, 'ALTER_MODEL', Boolean(stmt.isIfExists)),
} satisfies StatementHandlers;
