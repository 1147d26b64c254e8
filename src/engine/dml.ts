/**
 * UPDATE, DELETE and MERGE (GoogleSQL DML). Target rows are addressed by DuckDB's `rowid`: each
 * statement first computes, in one SELECT over the lowered scans, which target rows change and
 * their new values, then applies them in one transaction. BigQuery's rule that a target row may
 * match at most one source row is checked (`UPDATE/MERGE must match at most one source row for
 * each target row`). A statement that would change rows still in the target's streaming buffer
 * (tabledata.insertAll) fails before it writes (src/engine/streaming-buffer.ts).
 */
import { logIgnored } from '../config/logger.js';
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';
import type { Engine, QueryOptions, StatementHandler, StatementHandlers, StatementResult } from './engine-types.js';
import { colName, exprType, ident, type BoundTable, type LowerContext } from './lower/context.js';
import { duckFieldName } from './duckdb/types.js';
import { sqlString } from '../functions/registry.js';
import { typeToSql, type BqType } from '../types/types.js';
import { lowerExpr } from './lower/exprs.js';
import { lowerScan } from './lower/scans.js';
import { columnHasParams, enforceSql } from './type-params.js';
import { duckType } from './duckdb/types.js';
import { mapDuckDBError, runWithJsUdfs } from './duckdb/db.js';
import { checkDmlOverStreamingBuffer, hasStreamingBuffer } from './streaming-buffer.js';

function bound(ctx: LowerContext, scan: Node): BoundTable {
  const t = ctx.tables.get(String(scan.table?.serializationId));
  if (!t) throw BigQueryError.targetNotBound('DML target');
  return t;
}

/** The target scan with its rowid: `SELECT rowid AS __r, "col" AS c<id>, … FROM t`. */
function targetSelect(t: BoundTable, scan: Node): string {
  const idx: string[] = scan.columnIndexList ?? [];
  const cols = (scan.columnList ?? []).map((c: Node, i: number) => `${ident(t.columns[Number(idx[i] ?? i)])} AS ${colName(c)}`);
  return `SELECT rowid AS __r${cols.length ? ', ' + cols.join(', ') : ''} FROM ${t.relation}`;
}

/**
 * An update item's target: the column it writes (its ColumnRef) and the STRUCT field path below it
 * (`SET s.a.b = …` → [GetStructField of s.a, GetStructField of s.a.b], outermost first; empty for
 * `SET col = …`). Other targets (array elements) are not supported.
 */
function updateTarget(item: Node): { column: Node; path: Node[] } {
  const path: Node[] = [];
  let target: Node = item.target;
  while (target.kind === 'GetStructField') {
    path.unshift(target);
    target = target.expr;
  }
  if (target.kind !== 'ColumnRef') throw BigQueryError.notSupported('UPDATE of an array element');
  return { column: target, path };
}

/** Target column name of an update item's root column. */
function updateColumn(t: BoundTable, scan: Node, column: Node): string {
  const idx: string[] = scan.columnIndexList ?? [];
  const pos = (scan.columnList as Node[]).findIndex((c) => String(c.columnId) === String(column.column.columnId));
  return t.columns[Number(idx[pos] ?? pos)];
}

/**
 * `struct` (SQL) with the field that `path[0]` reads — and below it the rest of the path — set to
 * `value`: the STRUCT rebuilt field by field. A NULL STRUCT on the path fails with ZetaSQL's
 * `Cannot set field of NULL STRUCT<a INT64, b INT64>` (the reference evaluator's EvaluateModify).
 */
function withField(struct: string, path: Node[], value: string): string {
  const [step, ...rest] = path;
  const type = exprType(step!.expr) as Extract<BqType, { kind: 'STRUCT' }>;
  const at = Number(step!.fieldIdx ?? 0);
  const fields = type.fields.map((_f, i) => {
    const name = duckFieldName(type, i).replace(/"/g, '""');
    const current = `struct_extract(${struct}, '${duckFieldName(type, i).replace(/'/g, "''")}')`;
    return `"${name}" := ${i !== at ? current : rest.length ? withField(current, rest, value) : value}`;
  });
  const nullStruct = `error(${sqlString(`Cannot set field of NULL ${typeToSql(type)}`)})`;
  return `(CASE WHEN ${struct} IS NULL THEN ${nullStruct} ELSE struct_pack(${fields.join(', ')}) END)`;
}

/**
 * The target columns an UPDATE writes and each one's new value (SQL over the change set's source):
 * items on fields of one STRUCT column are applied in order to that column's current value.
 */
function updateAssignments(t: BoundTable, scan: Node, items: Node[], ctx: LowerContext): { cols: string[]; vals: string[] } {
  const byColumn = new Map<string, { col: string; value: string }>();
  for (const item of items) {
    const { column, path } = updateTarget(item);
    const key = String(column.column.columnId);
    const value = updateValue(item, ctx);
    const prior = byColumn.get(key);
    const base = prior?.value ?? lowerExpr(column, ctx);
    byColumn.set(key, { col: prior?.col ?? updateColumn(t, scan, column), value: path.length ? withField(base, path, value) : value });
  }
  const entries = [...byColumn.values()];
  return { cols: entries.map((e) => e.col), vals: entries.map((e) => e.value) };
}

/**
 * The value written to target column `col` from `x` (a column of the change set): columns with
 * type parameters are checked and rounded (src/engine/type-params.ts).
 */
function written(t: BoundTable, col: string, x: string): string {
  const c = t.schema?.find((m) => m.name.toLowerCase() === col.toLowerCase());
  return c && columnHasParams(c) ? enforceSql(`CAST(${x} AS ${duckType(c.type)})`, c.type, c, c.name) : x;
}

function updateValue(item: Node, ctx: LowerContext): string {
  const v: Node = item.setValue?.value;
  if (!v || v.kind === 'Dmldefault') return 'NULL';
  return lowerExpr(v, ctx);
}

async function deleteStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const t = bound(ctx, stmt.tableScan);
  const where = stmt.whereExpr ? lowerExpr(stmt.whereExpr, ctx) : 'TRUE';
  const sel = `SELECT __r FROM (${targetSelect(t, stmt.tableScan)}) WHERE ${where}`;
  if (opts.dryRun) return { statementType: 'DELETE', numDmlAffectedRows: 0 };
  if (await hasStreamingBuffer(e, t.relation)) return deleteCheckingBuffer(e, t, sel);
  const [n] = await e.db.transaction([`DELETE FROM ${t.relation} WHERE rowid IN (${sel})`]);
  return { statementType: 'DELETE', numDmlAffectedRows: n };
}

/** DELETE of a table with buffered rows: the rows to delete are computed first, then checked. */
async function deleteCheckingBuffer(e: Engine, t: BoundTable, sel: string): Promise<StatementResult> {
  return e.db.serializeWrite(() =>
    e.db.withConnection(async (c) => {
      const tmp = `__del_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      try {
        // The only statement here that evaluates the user's expressions (JavaScript UDFs included).
        await runWithJsUdfs(() => c.run(`CREATE TEMP TABLE ${tmp} AS ${sel}`));
        await checkDmlOverStreamingBuffer(e, t.relation, async (buffered) => countOf(c, `SELECT count(*) FROM ${tmp} WHERE ${buffered('__r')}`));
        const r = await c.run(`DELETE FROM ${t.relation} WHERE rowid IN (SELECT __r FROM ${tmp})`);
        return { statementType: 'DELETE', numDmlAffectedRows: Number(r.rowsChanged) };
      } catch (err) {
        throw mapDuckDBError(err, e.log);
      } finally {
        // Cleanup of the statement's own scratch table: its failure cannot change the statement's answer.
        await c.run(`DROP TABLE IF EXISTS ${tmp}`).catch(logIgnored(e.log, 'dropping a DML scratch table'));
      }
    }),
  );
}

/** The single number a counting query answers. */
async function countOf(c: { runAndReadAll(sql: string): Promise<{ getRowsJS(): unknown[][] }> }, sql: string): Promise<number> {
  return Number((await c.runAndReadAll(sql)).getRowsJS()[0][0]);
}

async function updateStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const t = bound(ctx, stmt.tableScan);
  const items: Node[] = stmt.updateItemList ?? [];
  const { cols, vals } = updateAssignments(t, stmt.tableScan, items, ctx);
  const a = ctx.alias('tg');
  let source = `(${targetSelect(t, stmt.tableScan)}) AS ${a}`;
  if (stmt.fromScan) source += ` CROSS JOIN (${lowerScan(stmt.fromScan, ctx)}) AS ${ctx.alias('fr')}`;
  const where = stmt.whereExpr ? lowerExpr(stmt.whereExpr, ctx) : 'TRUE';
  const changes = `SELECT __r, ${vals.map((v, i) => `${v} AS __v${i}`).join(', ')} FROM ${source} WHERE ${where}`;
  if (opts.dryRun) return { statementType: 'UPDATE', numDmlAffectedRows: 0 };
  return e.db.serializeWrite(async () => {
    const tmp = `__upd_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    return e.db.withConnection(async (c) => {
      try {
        // The only statement here that evaluates the user's expressions (JavaScript UDFs included).
        await runWithJsUdfs(() => c.run(`CREATE TEMP TABLE ${tmp} AS ${changes}`));
        if (stmt.fromScan) {
          const dup = await c.runAndReadAll(`SELECT count(*) - count(DISTINCT __r) FROM ${tmp}`);
          if (Number(dup.getRowsJS()[0][0]) > 0) throw BigQueryError.multipleSourceRowsMatched();
        }
        await checkDmlOverStreamingBuffer(e, t.relation, async (buffered) => countOf(c, `SELECT count(*) FROM ${tmp} WHERE ${buffered('__r')}`));
        const set = cols.map((col, i) => `${ident(col)} = ${written(t, col, `s.__v${i}`)}`).join(', ');
        const r = await c.run(`UPDATE ${t.relation} SET ${set} FROM ${tmp} AS s WHERE ${t.relation}.rowid = s.__r`);
        return { statementType: 'UPDATE', numDmlAffectedRows: Number(r.rowsChanged) };
      } catch (err) {
        throw mapDuckDBError(err, e.log);
      } finally {
        // Cleanup of the statement's own scratch table: its failure cannot change the statement's answer.
        await c.run(`DROP TABLE IF EXISTS ${tmp}`).catch(logIgnored(e.log, 'dropping a DML scratch table'));
      }
    });
  });
}

async function mergeStmt(e: Engine, stmt: Node, ctx: LowerContext, opts: QueryOptions): Promise<StatementResult> {
  const t = bound(ctx, stmt.tableScan);
  const clauses: Node[] = stmt.whenClauseList ?? [];
  const tgt = ctx.alias('tg');
  const src = ctx.alias('sr');
  const on = lowerExpr(stmt.mergeExpr, ctx);
  const join =
    `FROM (SELECT *, TRUE AS __tm FROM (${targetSelect(t, stmt.tableScan)})) AS ${tgt} ` +
    `FULL JOIN (SELECT *, TRUE AS __sm FROM (${lowerScan(stmt.fromScan, ctx)})) AS ${src} ON ${on}`;
  const MATCH: Record<string, string> = {
    MATCHED: '__tm AND __sm',
    NOT_MATCHED_BY_TARGET: '__sm AND __tm IS NULL',
    NOT_MATCHED_BY_SOURCE: '__tm AND __sm IS NULL',
  };
  const pick = clauses
    .map((cl, i) => `WHEN ${MATCH[cl.matchType]}${cl.matchExpr ? ` AND (${lowerExpr(cl.matchExpr, ctx)})` : ''} THEN ${i}`)
    .join(' ');
  // Per clause, the values it writes (UPDATE set values / INSERT row), computed in the same scope.
  const values: string[] = [];
  const plan = clauses.map((cl, i) => {
    if (cl.actionType === 'UPDATE') {
      const { cols, vals } = updateAssignments(t, stmt.tableScan, cl.updateItemList as Node[], ctx);
      const v = vals.map((value, j) => {
        values.push(`CASE WHEN __clause = ${i} THEN ${value} END AS __c${i}_${j}`);
        return `__c${i}_${j}`;
      });
      return { kind: 'UPDATE' as const, cols, v };
    }
    if (cl.actionType === 'INSERT') {
      const scanCols: Node[] = stmt.tableScan.columnList ?? [];
      const idx: string[] = stmt.tableScan.columnIndexList ?? [];
      const cols = (cl.insertColumnList as Node[]).map((c) => {
        const pos = scanCols.findIndex((s) => String(s.columnId) === String(c.columnId));
        return t.columns[Number(idx[pos] ?? pos)];
      });
      const v = ((cl.insertRow?.valueList ?? []) as Node[]).map((dv, j) => {
        values.push(`CASE WHEN __clause = ${i} THEN ${dv.value?.kind === 'Dmldefault' ? 'NULL' : lowerExpr(dv.value, ctx)} END AS __c${i}_${j}`);
        return `__c${i}_${j}`;
      });
      return { kind: 'INSERT' as const, cols, v };
    }
    return { kind: 'DELETE' as const, cols: [], v: [] };
  });
  const decided = `SELECT *, CASE ${pick || 'WHEN FALSE THEN 0'} END AS __clause ${join}`;
  const sql = `SELECT __r, __tm, __sm, __clause${values.length ? ', ' + values.join(', ') : ''} FROM (${decided}) WHERE __clause IS NOT NULL`;
  if (opts.dryRun) return { statementType: 'MERGE', numDmlAffectedRows: 0 };
  return e.db.serializeWrite(() =>
    e.db.withConnection(async (c) => {
      const tmp = `__merge_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      try {
        // The only statement here that evaluates the user's expressions (JavaScript UDFs included).
        await runWithJsUdfs(() => c.run(`CREATE TEMP TABLE ${tmp} AS ${sql}`));
        const dup = await c.runAndReadAll(
          `SELECT count(*) FROM (SELECT __r FROM ${tmp} WHERE __tm AND __sm GROUP BY __r HAVING count(*) > 1)`,
        );
        if (Number(dup.getRowsJS()[0][0]) > 0) throw BigQueryError.multipleSourceRowsMatched();
        // Only the UPDATE and DELETE clauses change target rows (an INSERT clause adds rows).
        const changing = plan.map((p, i) => (p.kind === 'INSERT' ? -1 : i)).filter((i) => i >= 0);
        if (changing.length)
          await checkDmlOverStreamingBuffer(e, t.relation, async (buffered) =>
            countOf(c, `SELECT count(*) FROM ${tmp} WHERE __tm AND __clause IN (${changing.join(', ')}) AND ${buffered('__r')}`),
          );
        await c.run('BEGIN TRANSACTION');
        let n = 0;
        for (let i = 0; i < plan.length; i++) {
          const p = plan[i];
          if (p.kind === 'DELETE')
            n += Number((await c.run(`DELETE FROM ${t.relation} WHERE rowid IN (SELECT __r FROM ${tmp} WHERE __clause = ${i})`)).rowsChanged);
          else if (p.kind === 'UPDATE' && p.cols.length) {
            const set = p.cols.map((col, j) => `${ident(col)} = ${written(t, col, `s.${p.v[j]}`)}`).join(', ');
            n += Number((await c.run(`UPDATE ${t.relation} SET ${set} FROM ${tmp} AS s WHERE s.__clause = ${i} AND ${t.relation}.rowid = s.__r`)).rowsChanged);
          } else if (p.kind === 'INSERT') {
            const cols = p.cols.map(ident).join(', ');
            const vals = p.v.map((v, j) => written(t, p.cols[j], v));
            n += Number((await c.run(`INSERT INTO ${t.relation} (${cols}) SELECT ${vals.join(', ')} FROM ${tmp} WHERE __clause = ${i}`)).rowsChanged);
          }
        }
        await c.run('COMMIT');
        return { statementType: 'MERGE', numDmlAffectedRows: n };
      } catch (err) {
        // The statement's own error is the answer; a failed ROLLBACK (no transaction left) adds nothing.
        await c.run('ROLLBACK').catch(logIgnored(e.log, 'ROLLBACK after a failed MERGE'));
        throw mapDuckDBError(err, e.log);
      } finally {
        // Cleanup of the statement's own scratch table: its failure cannot change the statement's answer.
        await c.run(`DROP TABLE IF EXISTS ${tmp}`).catch(logIgnored(e.log, 'dropping a DML scratch table'));
      }
    }),
  );
}

export const DML = {
  DeleteStmt: deleteStmt,
  UpdateStmt: updateStmt,
  MergeStmt: mergeStmt,
} satisfies StatementHandlers;
