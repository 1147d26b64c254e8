/**
 * State shared while lowering one resolved statement to DuckDB SQL (docs/ARCHITECTURE.md §1): the tables the
 * statement references (by catalog serialization id), parameter values, and helpers for naming.
 *
 * Every scan lowers to a `SELECT` whose output columns are named `c<columnId>` (column ids are
 * unique within a statement, so names never clash and correlated references resolve outward).
 */
import type { BqType, Value } from '../../types/types.js';
import type { Node } from '../../analyzer/ast.js';
import { fromTypeProto } from '../../analyzer/types.js';
import type { Column } from '../../types/schema.js';

/** A table the statement reads, as bound in its catalog. */
export interface BoundTable {
  /** SQL of the relation in DuckDB (a quoted table name, or a parenthesised view query). */
  relation: string;
  /** The relation reads see when it differs from `relation` (a table's row access policies filter it). */
  read?: string;
  /** DuckDB column names by table column index. */
  columns: string[];
  /** The stored table's columns (type parameters, defaults) when the relation is a table. */
  schema?: Column[];
  /** Columns (stored names) DuckDB's statistics show hold no NULL now (src/engine/column-stats.ts). */
  nonNull?: ReadonlySet<string>;
  /** FLOAT64 columns (stored names) DuckDB's statistics show hold no NaN now (src/engine/column-stats.ts). */
  nanFree?: ReadonlySet<string>;
  /**
   * The relation's DuckDB columns in stored order, when the statement reads the stored table as it
   * is and scans it more than once (src/engine/stored-columns.ts): its scans are then lowered as
   * bare table references with a column alias list.
   */
  stored?: readonly string[];
}

/** A query parameter value with its type. */
export interface ParamValue {
  type: BqType;
  value: Value;
}

export interface LowerContext {
  tables: Map<string, BoundTable>;
  namedParams: Map<string, ParamValue>;
  positionalParams: ParamValue[];
  /** Lowers a GoogleSQL type to DuckDB. */
  duckType(t: BqType): string;
  /** A DuckDB literal for a domain value. */
  literal(v: Value, t: BqType): string;
  /** Unique alias generator. */
  alias(prefix?: string): string;
  /**
   * Lowers a scan (src/engine/lower/scans.ts `lowerScan`): how an expression holding a subquery
   * lowers it. Passed in rather than imported, so that scans.ts imports exprs.ts and not the reverse.
   */
  scan(n: Node, ctx: LowerContext): string;
  /** The table version each `FOR SYSTEM_TIME AS OF` scan reads (src/engine/system-time.ts bindSystemTime). */
  systemTime?: Map<Node, string>;
  /** Row conditions of aggregate calls with a `HAVING MAX/MIN` modifier, set by the aggregate scan (scans.ts). */
  havingFilters?: Map<Node, string>;
  /** The input scan of the aggregate scan whose calls are being lowered (their ORDER BY keys read it). */
  aggregateInput?: Node;
  /** AnalyticScans kept by a `rn <= n` filter on their ROW_NUMBER (src/engine/lower/nullability.ts topNWindowOf). */
  topNWindows?: Set<Node>;
  /**
   * Expressions that are whole conjuncts of a WHERE/HAVING condition or a join's ON (src/engine/lower/scans.ts
   * filterScan): there FALSE and NULL filter the row alike, which lets a comparison use a form
   * that differs from BigQuery's only in NULL versus FALSE (FnCall.condition).
   */
  conditions?: Set<Node>;
  /**
   * The literal arguments of a large statement's wide function calls (an IN list), already
   * converted: per call, each argument's DuckDB literal and type, or undefined for an argument the
   * lowering converts in place (src/engine/lower/literals-ahead.ts).
   */
  argumentsAhead?: Map<Node, { sql: (string | undefined)[]; types: (BqType | undefined)[] }>;
  /**
   * Checks may only mark a failing row (FnCall.recheck): set by a caller that lowers and runs the
   * statement again without it when the mark is met (src/engine/statements.ts queryStmt).
   */
  recheck?: boolean;
  /** Column ids that cannot hold NaN (src/engine/lower/nan-free.ts), set with the tables' statistics. */
  nanFree?: ReadonlySet<string>;
}

/** Resolved column (`ResolvedColumnProto`) → its DuckDB name. */
export const colName = (c: { columnId?: string | number } | Record<string, any>): string => `c${c.columnId}`;

/** Type of a resolved expression node. */
export const exprType = (n: Node): BqType => fromTypeProto(n.type);

/** Type of a resolved column. */
export const colType = (c: { type: any }): BqType => fromTypeProto(c.type);

/** Double-quoted DuckDB identifier. */
export const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** `SELECT c1, c2` list of a column list (or a dummy column for zero-column scans). */
export function selectList(cols: { columnId: string | number }[]): string {
  return cols.length ? cols.map(colName).join(', ') : 'NULL AS "__none"';
}

export function makeAliaser(): (prefix?: string) => string {
  let n = 0;
  return (prefix = 's') => `${prefix}${++n}`;
}
