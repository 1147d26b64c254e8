/**
 * Harness of the lowering golden tests (test/lowering-golden.test.ts): one engine analyzes a
 * GoogleSQL query exactly as a job would (src/engine/analyze.ts `StatementAnalyzer.analyze`) and
 * lowers it (src/engine/statement-context.ts `makeContext` + `lowerQuery`); a raw DuckDB with the engine's
 * function prelude (src/functions/prelude.ts) runs a golden SQL text; the ZetaSQL reference
 * evaluator (the analyzer binary's `EvaluateQuery` RPC, local_service.proto of
 * `@fivetrandevelopers/zetasql`) answers the same GoogleSQL query over the same rows.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Engine } from '../../src/engine/engine.js';
import { lowerQuery, makeContext } from '../../src/engine/statement-context.js';
import { executeRequest } from '../../src/scripting/request.js';
import { scriptVariableKey, systemVariableKey } from '../../src/engine/lower/exprs.js';
import { installFunctionPrelude } from '../../src/functions/prelude.js';
import { duckType } from '../../src/engine/duckdb/types.js';
import { makeColumnDecoder, toDuckLiteral } from '../../src/engine/duckdb/values.js';
import { fromTypeProto, toTypeProto } from '../../src/analyzer/types.js';
import { walk, type Node } from '../../src/analyzer/ast.js';
import { valueFromProto } from '../../src/analyzer/values.js';
import type { BqType, Value } from '../../src/types/types.js';

/** A typed value bound by name: a query parameter, a script variable or a system variable. */
export interface Binding {
  name: string;
  type: BqType;
  value: Value;
}

/** The one table every case may read: `ds.t` (DuckDB table `t1`, the engine's first table). */
export const TABLE = {
  dataset: 'ds',
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'INT64' } },
    { name: 's', type: { kind: 'STRING' } },
    { name: 'x', type: { kind: 'FLOAT64' } },
    { name: 'k', type: { kind: 'STRING' } },
  ] as { name: string; type: BqType }[],
  rows: [
    [1n, 'a', 1.5, 'p'],
    [2n, 'b', -2, 'p'],
    [3n, null, 0.25, 'q'],
    [4n, 'd', null, 'q'],
    [5n, 'e', 10, null],
  ] as Value[][],
};

const TABLE_PATH = new RegExp(`\\b${TABLE.dataset}\\.${TABLE.name}\\b`, 'g');

/** What a lowering produced: the DuckDB SQL, the output types and the resolved node kinds it holds. */
export interface Lowered {
  sql: string;
  types: BqType[];
  kinds: Set<string>;
}

/** The ValueProto of a domain value of a scalar column of TABLE (INT64, STRING, FLOAT64 only). */
function cellProto(v: Value, t: BqType): object {
  if (v === null) return {};
  if (t.kind === 'INT64') return { int64Value: String(v) };
  if (t.kind === 'FLOAT64') return { doubleValue: v };
  if (t.kind === 'STRING') return { stringValue: v };
  throw new Error(`no ValueProto for ${t.kind} in the test table`);
}

/** An engine to analyze and lower with, a raw DuckDB to run goldens on, and the reference evaluator. */
export class LoweringHarness {
  private constructor(
    readonly engine: Engine,
    private readonly duck: DuckDBInstance,
    private readonly con: DuckDBConnection,
  ) {}

  /** Starts an in-memory engine with `ds.t` and a raw DuckDB holding the same rows as `t1`. */
  static async start(): Promise<LoweringHarness> {
    const engine = await Engine.start();
    const o = { projectId: 'p' };
    await executeRequest(engine, `CREATE SCHEMA ${TABLE.dataset}`, o);
    await executeRequest(engine, `CREATE TABLE ${TABLE.dataset}.${TABLE.name} (${TABLE.columns.map((c) => `${c.name} ${c.type.kind}`).join(', ')})`, o);
    const duckName = engine.catalog.getTable('p', TABLE.dataset, TABLE.name)!.duckName;
    const duck = await DuckDBInstance.create(':memory:');
    const con = await duck.connect();
    await installFunctionPrelude(con);
    await con.run(`CREATE TABLE "${duckName}" (${TABLE.columns.map((c) => `"${c.name}" ${duckType(c.type)}`).join(', ')})`);
    const values = TABLE.rows.map((r) => `(${r.map((v, i) => toDuckLiteral(v, TABLE.columns[i].type)).join(', ')})`);
    await con.run(`INSERT INTO "${duckName}" VALUES ${values.join(', ')}`);
    return new LoweringHarness(engine, duck, con);
  }

  /** Analyzes `sql` as the engine does and lowers it (query parameters, script and system variables bound). */
  async lower(sql: string, b: { params?: Binding[]; variables?: Binding[]; systemVariables?: Binding[] } = {}): Promise<Lowered> {
    const defaults = { projectId: 'p' };
    const types = (xs: Binding[] | undefined) => new Map((xs ?? []).map((x) => [x.name, x.type] as [string, BqType]));
    const a = await this.engine.statements.analyze(sql, 0, defaults, {
      named: types(b.params),
      variables: b.variables ? types(b.variables) : undefined,
      systemVariables: b.systemVariables ? types(b.systemVariables) : undefined,
    });
    const namedParams = new Map<string, { type: BqType; value: Value }>();
    for (const p of b.params ?? []) namedParams.set(p.name.toLowerCase(), p);
    for (const v of b.variables ?? []) namedParams.set(scriptVariableKey(v.name), v);
    for (const v of b.systemVariables ?? []) namedParams.set(systemVariableKey(v.name.split('.')), v);
    const ctx = await makeContext(this.engine, a.tables, { ...defaults, namedParams, noRowAccess: true });
    const kinds = new Set<string>();
    walk(a.stmt, (n: Node) => {
      if (typeof n.kind === 'string') kinds.add(n.kind);
    });
    const outs: Node[] = a.stmt.outputColumnList ?? [];
    return { sql: lowerQuery(a.stmt, ctx), types: outs.map((o) => fromTypeProto(o.column.type)), kinds };
  }

  /** Runs DuckDB SQL on the raw DuckDB; rows decoded as the engine decodes results. */
  async run(sql: string, types: BqType[]): Promise<Value[][]> {
    const reader = await this.con.runAndReadAll(sql);
    const decoders = types.map(makeColumnDecoder);
    return reader.getRows().map((r) => r.map((v, i) => decoders[i](v)));
  }

  /**
   * The ZetaSQL reference evaluator's answer to `sql` over TABLE's rows, with named parameters.
   * Its result types are the ones the analyzer gives the output columns. The evaluator sets
   * table contents on top-level tables only, so it sees `ds.t` as the top-level table `t`.
   */
  async evaluate(sql: string, params: Binding[] = []): Promise<{ types: BqType[]; rows: Value[][] }> {
    const lang = this.engine.analyzer.languageOptions;
    const table = {
      name: TABLE.name,
      serializationId: '1',
      column: TABLE.columns.map((c) => ({ name: c.name, type: toTypeProto(c.type) })),
    };
    const res = await this.engine.analyzer.call('evaluateQuery', {
      sql: sql.replace(TABLE_PATH, TABLE.name),
      options: { languageOptions: lang, defaultTimezone: 'UTC', queryParameters: params.map((p) => ({ name: p.name, type: toTypeProto(p.type) })) },
      simpleCatalog: { name: '', table: [table], builtinFunctionOptions: { languageOptions: lang } },
      tableContent: { [TABLE.name]: { tableData: { row: TABLE.rows.map((r) => ({ cell: r.map((v, i) => cellProto(v, TABLE.columns[i].type)) })) } } },
      params: params.map((p) => ({ name: p.name, value: cellProto(p.value, p.type) })),
    });
    const types: BqType[] = (res.prepared?.columns ?? []).map((c: { type: object }) => fromTypeProto(c.type as never));
    const rows = (res.content?.tableData?.row ?? []).map((r: { cell?: object[] }) => (r.cell ?? []).map((c, i) => valueOf(c, types[i])));
    return { types, rows };
  }

  /** Closes the raw DuckDB and stops the engine (its analyzer child). */
  async stop(): Promise<void> {
    this.con.closeSync();
    this.duck.closeSync();
    this.engine.stop();
  }
}

const valueOf = (c: object, t: BqType): Value => valueFromProto(c as never, t);

/** A value as comparable text: bigints, bytes and non-finite floats spelled out; JSON text normalised. */
export function comparable(v: Value, t?: BqType): string {
  if (t?.kind === 'JSON' && typeof v === 'string') return `json:${JSON.stringify(JSON.parse(v))}`;
  return JSON.stringify(v, (_k, x) => {
    if (typeof x === 'bigint') return `${x}n`;
    if (x instanceof Uint8Array) return `bytes:${Buffer.from(x).toString('hex')}`;
    if (typeof x === 'number' && !Number.isFinite(x)) return String(x);
    return x;
  });
}

/** Rows as comparable text lines; sorted unless the query's order is part of its answer. */
export function rowTexts(rows: Value[][], types: BqType[], ordered: boolean): string[] {
  const out = rows.map((r) => r.map((v, i) => comparable(v, types[i])).join(' | '));
  return ordered ? out : out.sort();
}
