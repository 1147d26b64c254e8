/**
 * The script interpreter (docs/ARCHITECTURE.md §1; BigQuery procedural language reference,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/procedural-language).
 *
 * Walks the analyzer's script parse tree statement by statement. Procedural statements are
 * handled in procedural.ts; every other statement is analyzed at its own position in the script
 * (so error locations are the script's) with the visible variables bound as catalog constants, and
 * executed by the engine. Expressions of SET, IF, WHILE … are evaluated as `SELECT <expr>`.
 *
 * What the request answers (BigQuery, "Multi-statement queries": jobs.getQueryResults on a script
 * returns the result of the last SELECT, DML or DDL statement executed) is the last element of
 * `results`; each element carries its statement's byte range (`span`) for the child jobs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { walk, type Node } from '../analyzer/ast.js';
import type { Engine, QueryOptions, StatementResult } from '../engine/engine.js';
import type { ParamValue } from '../engine/lower/context.js';
import type { AnalyzedStatement, ParamTypes } from '../engine/analyze.js';
import { executeStatement } from '../engine/statements.js';
import { resultFields } from '../engine/statement-context.js';
import type { NameDefaults } from '../engine/names.js';
import { BigQueryError, asBigQueryError } from '../errors/errors.js';
import type { BqType, Value } from '../types/types.js';
import type { ParamTree } from '../types/type-params.js';
import { castParams } from '../engine/type-params.js';
import { FragmentSql, ScriptSource } from './source.js';
import { Scopes, SystemVariables, loweringValues, typeSql } from './variables.js';
import { TempFunctions } from './functions.js';
import { errorContext, setErrorContext, type ErrorFrame } from './errors.js';
import { ScriptTransaction } from './transactions.js';
import { sessionStateOf, type SessionState } from '../engine/session-state.js';

/** How control leaves a statement list: BREAK/LEAVE, CONTINUE/ITERATE (optionally labelled), RETURN. */
export type Flow = { kind: 'break' | 'continue'; label?: string } | { kind: 'return' } | undefined;

export type StatementHandler = (it: Interpreter, n: Node) => Promise<Flow>;

/** A typed value (an expression's result). */
export interface Typed {
  type: BqType;
  value: Value;
}

/** A piece of generated SQL: literal text or a script node. */
export type Piece = string | Node;

type Span = StatementResult & { span?: [number, number] };

/**
 * The id of the `i`th child job of script job `jobId`: `script_job_<md5 of "project:jobId">_<i>`,
 * the naming of the job manager's child jobs (src/jobs/jobs.ts addChildJobs).
 */
export function childJobId(projectId: string, jobId: string, i: number): string {
  return `script_job_${createHash('md5').update(`${projectId}:${jobId}`).digest('hex')}_${i}`;
}

export class Interpreter {
  readonly src: ScriptSource;
  /** The session the request runs in: its variables, set system variables and temp functions persist. */
  readonly session: SessionState | undefined;
  readonly scopes: Scopes;
  readonly sys = new SystemVariables();
  readonly functions: TempFunctions;
  readonly txn: ScriptTransaction;
  /** Results of the SELECT, DML and DDL statements executed, in order. */
  readonly results: StatementResult[] = [];
  /** Errors being handled (innermost last): `@@error.*` and `RAISE;`. */
  readonly handling: BigQueryError[] = [];
  defaults: NameDefaults;
  private iterations = 0;

  constructor(
    readonly engine: Engine,
    sql: string,
    readonly opts: QueryOptions,
    /** The statement handlers (src/scripting/procedural.ts PROCEDURAL); a procedure's body runs with the same. */
    readonly handlers: Record<string, StatementHandler>,
    /** A single statement run here only to see session state or system variables: not a script. */
    readonly single = false,
    /** A procedure body: its variables and temp functions are its own, never the session's. */
    nested = false,
  ) {
    this.src = new ScriptSource(sql);
    this.txn = new ScriptTransaction(engine);
    this.session = sessionStateOf(opts);
    this.scopes = new Scopes(nested ? undefined : this.session?.variables);
    this.functions = new TempFunctions(nested ? undefined : this.session?.functions);
    this.defaults = { projectId: opts.projectId, defaultDataset: opts.defaultDataset, temp: opts.temp, location: opts.location };
    this.initSystemVariables();
  }

  /**
   * System variables (procedural language reference, "System variables"). `@@script.job_id` is
   * the request's job id; `@@current_job_id` the job of the current statement: in a script its
   * child job ({@link childJobId}), else the job itself.
   */
  private initSystemVariables(): void {
    const S: BqType = { kind: 'STRING' };
    const I: BqType = { kind: 'INT64' };
    const jobId = this.opts.jobId ?? `bqemu_${randomUUID().replace(/-/g, '')}`;
    this.sys.set('current_job_id', S, this.single ? (this.opts.jobId ?? null) : childJobId(this.opts.projectId, jobId, 0));
    this.sys.set('last_job_id', S, null);
    this.sys.set('project_id', S, this.opts.projectId);
    this.sys.set('dataset_id', S, this.opts.defaultDataset?.datasetId ?? null, true);
    this.sys.set('dataset_project_id', S, this.opts.defaultDataset?.projectId ?? null, true);
    this.sys.set('time_zone', S, 'UTC', true);
    this.sys.set('query_label', S, null, true);
    this.sys.set('row_count', I, null);
    this.sys.set('session_id', S, this.session?.id ?? null);
    this.sys.set('script.job_id', S, this.single ? null : jobId);
    this.sys.set('script.creation_time', { kind: 'TIMESTAMP' }, BigInt(Date.now()) * 1000n);
    this.sys.set('script.num_child_jobs', I, 0n);
    this.sys.set('script.bytes_billed', I, 0n);
    this.sys.set('script.bytes_processed', I, 0n);
    this.sys.set('script.slot_ms', I, 0n);
    // System variables an earlier job of the session SET.
    for (const [path, v] of this.session?.system ?? []) this.sys.vars.set(path, v);
    if (this.session?.system.has('dataset_id') || this.session?.system.has('dataset_project_id')) this.useDefaultDataset();
  }

  /** `@@dataset_id` / `@@dataset_project_id` name the default dataset of the statements that follow. */
  useDefaultDataset(): void {
    const datasetId = this.sys.get('dataset_id')!.value as string | null;
    const projectId = (this.sys.get('dataset_project_id')!.value as string | null) ?? this.opts.projectId;
    this.defaults = { ...this.defaults, defaultDataset: datasetId ? { projectId, datasetId } : undefined };
  }

  /** SET @@path: the new value also holds for the session's later jobs. */
  rememberSystem(path: string): void {
    const v = this.sys.get(path);
    if (this.session && v) this.session.system.set(path.toLowerCase(), v);
  }

  /** Runs the script; a RETURN at any depth ends it. A transaction left open is rolled back. */
  async run(list: Node[]): Promise<void> {
    try {
      await this.execList(list);
    } finally {
      if (this.txn.open) await this.txn.rollback();
    }
  }

  async execList(list: Node[] | undefined): Promise<Flow> {
    for (const n of list ?? []) {
      const f = await this.exec(n);
      if (f) return f;
    }
    return undefined;
  }

  /** Executes one statement; an error leaving it is tagged with this statement (`@@error.*`). */
  async exec(n: Node): Promise<Flow> {
    const h = this.handlers[n.kind];
    try {
      if (h) return await h(this, n);
      await this.runStatement(n);
      return undefined;
    } catch (e) {
      const err = asBigQueryError(e);
      if (!errorContext(err)) setErrorContext(err, { statementText: this.statementText(n), frames: [this.frame(n)] });
      throw err;
    }
  }

  /** Loops yield to the event loop now and then, so a long loop never starves the server. */
  async tick(): Promise<void> {
    if (++this.iterations % 32 === 0) await new Promise((r) => setImmediate(r));
  }

  statementText(n: Node): string {
    return this.src.textOf(n).trim().replace(/;$/, '').trim();
  }

  frame(n: Node): ErrorFrame {
    const { line, column } = this.src.lineCol(this.src.range(n).start);
    return { line, column, filename: null, location: null };
  }

  /** Analyzer inputs for the current state: query parameters, variables, system variables, temp functions. */
  paramTypes(named?: Map<string, BqType>, positional?: BqType[]): ParamTypes {
    const variables = new Map<string, BqType>();
    for (const [k, v] of this.scopes.visible()) variables.set(k, v.type);
    const systemVariables = new Map<string, BqType>();
    for (const [k, v] of this.sys.vars) systemVariables.set(k, v.type);
    const types = <T extends { type: BqType }>(m?: Map<string, T>) => new Map([...(m ?? [])].map(([k, v]) => [k, v.type] as const));
    return {
      named: named ?? types(this.opts.namedParams),
      positional: positional ?? (this.opts.positionalParams ?? []).map((p) => p.type),
      variables,
      systemVariables,
      functions: this.functions.protos(),
    };
  }

  /**
   * The positional parameters (`?`) of some script nodes: the parser numbers them across the
   * whole script, each statement binds from its first one on.
   */
  positionalIn(nodes: Piece[]): ParamValue[] {
    const all = this.opts.positionalParams ?? [];
    if (!all.length) return all;
    let first = Infinity;
    for (const n of nodes) if (typeof n !== 'string') walk(n, (x) => x.kind === 'ParameterExpr' && x.position !== undefined && (first = Math.min(first, Number(x.position))));
    return first === Infinity ? [] : all.slice(first - 1);
  }

  /** Engine options for the current state; `statement` keeps the job's per-statement hooks. */
  options(statement: boolean, params?: Pick<QueryOptions, 'namedParams' | 'positionalParams'>): QueryOptions {
    const base = { ...this.opts } as QueryOptions & { onScan?: unknown };
    if (!statement) delete base.onScan;
    return {
      ...base,
      ...this.defaults,
      namedParams: loweringValues(params?.namedParams ?? this.opts.namedParams, this.scopes.visible(), this.sys),
      positionalParams: params?.positionalParams ?? this.opts.positionalParams,
    };
  }

  /** Runs a SQL statement of the script where it stands (error locations are the script's). */
  async runStatement(n: Node): Promise<StatementResult> {
    const { start, end } = this.src.range(n);
    const positional = this.positionalIn([n]);
    const a = await this.engine.statements.analyze(this.src.text, start, this.defaults, this.paramTypes(undefined, positional.map((p) => p.type))).catch((e) => {
      throw this.functions.errorText(e);
    });
    const r = await this.execute(a, this.options(true, { positionalParams: positional }));
    this.record(r, start, end);
    return r;
  }

  /** Executes an analyzed statement (inside an open transaction, after saving what it changes). */
  async execute(a: AnalyzedStatement, opts: QueryOptions): Promise<StatementResult> {
    await this.txn.before(a.stmt, a.tables, this.defaults);
    return executeStatement(this.engine, a.stmt, a.tables, opts);
  }

  /** Keeps a statement's result and updates `@@row_count`, `@@last_job_id`, `@@script.num_child_jobs`. */
  record(r: StatementResult, start: number, end: number): void {
    (r as Span).span = [start, end];
    this.results.push(r);
    const n = this.results.length;
    if (!this.single) {
      const jobId = String(this.sys.get('script.job_id')!.value);
      this.sys.set('last_job_id', { kind: 'STRING' }, childJobId(this.opts.projectId, jobId, n - 1));
      this.sys.set('current_job_id', { kind: 'STRING' }, childJobId(this.opts.projectId, jobId, n));
    }
    this.sys.set('script.num_child_jobs', { kind: 'INT64' }, BigInt(n));
    this.sys.set('row_count', { kind: 'INT64' }, r.numDmlAffectedRows !== undefined ? BigInt(r.numDmlAffectedRows) : null);
  }

  /**
   * Runs generated SQL (a query built from literal text and script fragments) with the script's
   * variables; analyzer errors point into the script.
   */
  async query(pieces: Piece[]): Promise<{ fields: { name: string; type: BqType }[]; rows: Value[][]; stmt: Node }> {
    const q = new FragmentSql(this.src, pieces);
    const positional = this.positionalIn(pieces);
    let a;
    try {
      a = await this.engine.statements.analyze(q.sql, 0, this.defaults, this.paramTypes(undefined, positional.map((p) => p.type)));
    } catch (e) {
      throw this.functions.errorText(q.remap(e));
    }
    if (a.stmt.kind !== 'QueryStmt') throw BigQueryError.expectedQuery();
    const r = await executeStatement(this.engine, a.stmt, a.tables, this.options(false, { positionalParams: positional }));
    return { fields: resultFields(a.stmt.outputColumnList ?? []), rows: r.rows ?? [], stmt: a.stmt };
  }

  /**
   * Evaluates an expression of the script. With a target type the value is converted by
   * GoogleSQL's assignment coercion: a typed STRUCT constructor coerces its field the way an
   * assignment does.
   */
  async evaluate(expr: Node, to?: { type: BqType }): Promise<Typed> {
    const target = to ? typeSql(to.type) : undefined;
    const pieces: Piece[] = target === undefined ? ['SELECT ', expr] : ['SELECT STRUCT<v ', target, '>((', expr, ')).v'];
    let res;
    try {
      res = await this.query(pieces);
    } catch (e) {
      if (target !== undefined && e instanceof BigQueryError && /coerce/i.test(e.message)) {
        const { line, column } = this.src.lineCol(this.src.range(expr).start);
        throw BigQueryError.cannotCoerceExpression(this.src.textOf(expr), target, line, column);
      }
      throw e;
    }
    return { type: res.fields[0].type, value: res.rows[0]?.[0] ?? null };
  }

  /**
   * The type a script type node names (`SELECT CAST(NULL AS <type>)`), with its type parameters
   * (`STRING(3)`, `NUMERIC(5, 2)`: the resolved Cast's `typeModifiers.typeParameters`).
   */
  async typeOf(typeNode: Node): Promise<{ type: BqType; params?: ParamTree }> {
    // A CAST of a literal folds into a Literal (parameters lost); a CAST of a column keeps them.
    const res = await this.query(['SELECT CAST(v AS ', typeNode, ') FROM (SELECT CAST(NULL AS ', typeNode, ') AS v)']);
    const type = res.fields[0].type;
    let tp: Node | undefined;
    walk(res.stmt, (n) => {
      if (n.kind === 'Cast' && n.typeModifiers?.typeParameters) tp ??= n.typeModifiers.typeParameters;
    });
    return { type, params: castParams(type, tp) };
  }

  /** A BOOL condition: NULL counts as FALSE (IF, WHILE, REPEAT … UNTIL). */
  async condition(expr: Node): Promise<boolean> {
    return (await this.evaluate(expr, { type: { kind: 'BOOL' } })).value === true;
  }
}
