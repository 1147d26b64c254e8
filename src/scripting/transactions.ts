/**
 * Multi-statement transactions inside a script (BigQuery "Multi-statement transactions":
 * BEGIN [TRANSACTION]; … COMMIT [TRANSACTION] | ROLLBACK [TRANSACTION]).
 *
 * The statements run in place; before the first DML statement on a table inside the transaction
 * the table's rows are copied aside, and ROLLBACK puts them back (COMMIT drops the copies), each
 * in one DuckDB transaction; a crash while the transaction is open rolls it back at the next start
 * (src/engine/duckdb/db.ts keepCopy). A
 * transaction still open when the script fails, or when it ends, is rolled back. Statements of
 * the transaction read its own writes (recorded routines_scripting/txn_in_exception_block: a
 * handled error inside an open transaction leaves the insert visible to the script).
 * Known gap: other jobs see the uncommitted rows (no snapshot isolation between jobs), and DDL
 * inside a transaction is refused but for CREATE TEMP TABLE / CREATE TEMP FUNCTION (which ROLLBACK
 * keeps; DROP of a temporary table is refused too).
 */
import type { Node } from '../analyzer/ast.js';
import type { TableMeta } from '../catalog/store.js';
import type { Engine } from '../engine/engine.js';
import type { NameDefaults } from '../engine/names.js';
import { BigQueryError } from '../errors/errors.js';

const DML = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt']);
const READ_ONLY = new Set(['QueryStmt', 'AssertStmt']);
/**
 * DDL a transaction may hold when it creates a temporary table or function (BigQuery
 * "Multi-statement transactions", statements supported in transactions: `CREATE TEMP TABLE`,
 * `CREATE TEMP FUNCTION`). The object is the script's; ROLLBACK does not drop it.
 */
const TEMP_DDL = new Set(['CreateTableStmt', 'CreateTableAsSelectStmt', 'CreateFunctionStmt']);

export class ScriptTransaction {
  /** Table relation → the table holding its rows as they were when the transaction first wrote it. */
  private readonly saved = new Map<string, string>();
  open = false;

  constructor(private readonly engine: Engine) {}

  begin(): void {
    if (this.open) throw BigQueryError.transaction.alreadyInProgress();
    this.open = true;
  }

  /** Called before each analyzed statement runs: keeps the rows a DML statement is about to change. */
  async before(stmt: Node, tables: Map<string, TableMeta>, defaults: NameDefaults): Promise<void> {
    if (!this.open || READ_ONLY.has(stmt.kind)) return;
    if (TEMP_DDL.has(stmt.kind) && stmt.createScope === 'CREATE_TEMP') return;
    if (!DML.has(stmt.kind)) throw BigQueryError.notSupported(`Statement ${stmt.kind.replace(/Stmt$/, '')} inside a multi-statement transaction`);
    const meta = tables.get(String(stmt.tableScan?.table?.serializationId ?? ''));
    if (!meta || meta.type !== 'TABLE') return;
    const { relation } = await this.engine.relationOf(meta, defaults);
    if (this.saved.has(relation)) return;
    // Noted durably: a crash before COMMIT / ROLLBACK rolls the transaction back at the next start.
    this.saved.set(relation, await this.engine.db.keepCopy(relation));
  }

  async commit(): Promise<void> {
    if (!this.open) throw BigQueryError.transaction.noneToCommit();
    await this.engine.db.dropCopies([...this.saved.values()]);
    this.saved.clear();
    this.open = false;
  }

  async rollback(): Promise<void> {
    if (!this.open) throw BigQueryError.transaction.noneToRollBack();
    await this.engine.db.restoreCopies([...this.saved]);
    this.saved.clear();
    this.open = false;
  }
}
