/**
 * JavaScript UDFs (`CREATE [TEMP] FUNCTION f(x INT64) RETURNS INT64 LANGUAGE js AS "…"`).
 *
 * The code runs in a QuickJS sandbox (src/functions/js-udf-sandbox.ts) inside a pool of worker
 * threads (src/functions/js-udf-pool.ts), with a time limit (`BQEMU_JS_UDF_TIMEOUT_MS`) and a heap
 * limit (`BQEMU_JS_UDF_MEMORY_MB`, src/config/limits.ts): a runaway function fails its own query
 * with BigQuery's resources-exceeded error while every other client is served.
 *
 * Calls reach the code through one DuckDB scalar function, `bq_js_udf(id, args_json)`, registered
 * on every connection by the prelude: the lowering passes the arguments as a JSON array
 * (`to_json`, each encoded by src/functions/js-udf-encoding.ts), the sandbox converts them with
 * BigQuery's JavaScript type mapping, calls the function and answers the result as JSON text that
 * the lowering converts to the declared return type (js-udf-encoding.ts again). A thrown error fails the query with BigQuery's text (`Error: boom at f(INT64) line 1,
 * column 1`, recorded routines_scripting/js_udf_throws).
 *
 * DuckDB calls a scalar function synchronously on the main thread, one vector (≤ 2,048 rows) at a
 * time, and cannot wait for a promise. So the callback sends the vector's rows to a worker and
 * waits at most {@link JS_UDF_SYNC_WAIT_MS}; a batch still running then fails the statement with
 * an internal "pending" marker. The engine runs every DuckDB statement that can call a UDF through
 * {@link withJsUdfRetry}, which recognises only that marker, awaits the batch off the event loop,
 * keeps its answers for the retried statement and runs the statement again (a failed autocommit
 * statement changed nothing; an explicit DuckDB transaction is retried as a whole). Fast UDFs
 * answer inside the wait and never retry.
 *
 * Measured (2-core machine shared with other work, `return x + 1` over 100,000 rows): 3.6–5 µs
 * per row once warm, up to ~25 µs while batches outlast the wait and statements re-run (the
 * former main-thread `node:vm` runner: 136–205 µs per row, its per-call timeout dominating).
 */
import { DuckDBScalarFunction, BIGINT, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { JS_UDF_MAX_RETRIES, JS_UDF_SYNC_WAIT_MS, jsUdfTimeoutMs } from '../config/limits.js';
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import { jsUdfArgSql, jsUdfResultSql } from './js-udf-encoding.js';
import { JsUdfPool, type JsUdfBatch } from './js-udf-pool.js';
import type { FnCall } from './registry.js';
import { udfSignature, type SandboxResult } from './js-udf-signature.js';

export { typeText } from './js-udf-signature.js';

export interface JsUdfDef {
  /** Display name in error texts (`js_boom`). */
  name: string;
  argNames: string[];
  argTypes: BqType[];
  returnType: BqType;
  code: string;
}

const registry = new Map<number, JsUdfDef>();
const byKey = new Map<string, number>();
let nextId = 1;

/** The analyzer function group of JS UDF `id` (the lowering recognises `JsUdf_<id>:name`). */
export const jsUdfGroup = (id: number) => `JsUdf_${id}`;
export const jsUdfIdOf = (fullName: string): number | undefined => {
  const m = /^JsUdf_(\d+):/.exec(fullName);
  return m ? Number(m[1]) : undefined;
};
export const jsUdf = (id: number): JsUdfDef | undefined => registry.get(id);

let pool: JsUdfPool | undefined;
/** The worker pool, started by the first definition (its workers boot while the query is analyzed). */
const thePool = () => (pool ??= new JsUdfPool());

/** Registers a definition (identical definitions share an id). */
export function registerJsUdf(def: JsUdfDef): number {
  thePool();
  const key = JSON.stringify(def);
  const hit = byKey.get(key);
  if (hit !== undefined) return hit;
  const id = nextId++;
  registry.set(id, { ...def });
  byKey.set(key, id);
  return id;
}

/** The internal marker a callback fails a statement with; never shown to a client. */
const MARK = 'bqemu-js-udf-batch#';
const MARK_RE = /bqemu-js-udf-batch#(\d+)/;

/** A batch the statement must await (`batch`) or an error it must fail with (`error`). */
interface Outcome {
  id: number;
  rows: string[];
  batch?: JsUdfBatch;
  error?: BigQueryError;
}
const outcomes = new Map<number, Outcome>();
let nextToken = 1;
/** Outcomes never claimed (their statement failed for another reason) are dropped beyond this many. */
const OUTCOMES_KEPT = 64;

function mark(o: Outcome): string {
  const token = nextToken++;
  outcomes.set(token, o);
  if (outcomes.size > OUTCOMES_KEPT) outcomes.delete(outcomes.keys().next().value as number);
  return `${MARK}${token}`;
}

/** Answers of awaited batches, by `id \u0001 args JSON`, kept while their statement is retried. */
const answers = new Map<string, string>();
const answerKey = (id: number, args: string) => `${id}\u0001${args}`;

/**
 * UDFs (registry ids) whose batches are currently awaited synchronously, with the number of
 * statements so awaiting each (see withJsUdfRetry): only the UDFs of such a statement block, never
 * another statement's.
 */
const blocking = new Map<number, number>();
/** Key of {@link blocking} for a statement that must block but has seen none of its UDFs' batches yet (every UDF blocks, as before). */
const ANY_UDF = -1;
/** Rows answered from `answers` (a retry that used none has arguments that change on each run). */
let answerHits = 0;

/** The query error of a batch that did not answer rows. */
function failure(r: Exclude<SandboxResult, { ok: string[] }>, d: JsUdfDef | undefined, timeoutMs: number): BigQueryError {
  if ('error' in r) return BigQueryError.runtime(r.error);
  if (r.limit === 'memory') return BigQueryError.jsUdfOutOfMemory();
  return BigQueryError.jsUdfTimeout(d ? udfSignature(d) : 'function', timeoutMs);
}

/**
 * Answers one DuckDB vector of `bq_js_udf(id, args)`: answers kept from an awaited batch first,
 * the other rows in one batch per UDF. Returns the JSON texts, or the error text for DuckDB.
 */
function answerVector(ids: number[], args: string[]): string[] | { error: string } {
  const out: string[] = new Array(ids.length);
  const missing = new Map<number, { rows: string[]; at: number[] }>();
  for (let r = 0; r < ids.length; r++) {
    const hit = answers.get(answerKey(ids[r], args[r]));
    if (hit !== undefined) {
      out[r] = hit;
      answerHits++;
    } else {
      let g = missing.get(ids[r]);
      if (!g) missing.set(ids[r], (g = { rows: [], at: [] }));
      g.rows.push(args[r]);
      g.at.push(r);
    }
  }
  for (const [id, g] of missing) {
    const d = registry.get(id);
    if (!d) return { error: 'JavaScript UDF no longer defined' };
    const timeoutMs = jsUdfTimeoutMs();
    const batch = thePool().submit({ id, ...d }, g.rows, timeoutMs, JS_UDF_SYNC_WAIT_MS, blocking.has(id) || blocking.has(ANY_UDF));
    const r = batch.result;
    if (!r) return { error: mark({ id, rows: g.rows, batch }) };
    if (!('ok' in r)) {
      const e = failure(r, d, timeoutMs);
      // A thrown error travels as its text (DuckDB's error becomes a query error with that text);
      // a limit needs its own reason, so it travels as a marker.
      return { error: 'error' in r ? e.message : mark({ id, rows: g.rows, error: e }) };
    }
    for (let i = 0; i < g.at.length; i++) out[g.at[i]] = r.ok[i];
  }
  return out;
}

/**
 * Runs `statement` (one DuckDB statement, or one whole DuckDB transaction, that may call JS UDFs)
 * until no UDF batch is pending: on the internal marker only, awaits the batch without blocking
 * the event loop, keeps its answers and runs `statement` again; a batch that failed fails the
 * statement with its query error (the UDF's thrown error, `jsUdfTimeout`, `jsUdfOutOfMemory`).
 * `check` runs before each retry (it throws when the job was cancelled).
 *
 * Each retry normally uses the answers kept by the one before. A retry that used none has
 * arguments that change on each run (computed from RAND(), CURRENT_TIMESTAMP …) and would never
 * finish: its next run awaits each batch synchronously (blocking the event loop up to the time
 * limit per batch), as does any run past {@link JS_UDF_MAX_RETRIES}.
 */
export async function withJsUdfRetry<T>(statement: () => Promise<T>, check?: () => void): Promise<T> {
  const kept: string[] = [];
  const keep = (o: Outcome, r: SandboxResult) => {
    if (!('ok' in r)) return;
    for (let i = 0; i < o.rows.length; i++) {
      const k = answerKey(o.id, o.rows[i]);
      answers.set(k, r.ok[i]);
      kept.push(k);
    }
  };
  try {
    let changing = false;
    // The UDFs this statement's vectors called (the ones it may await synchronously).
    const ids = new Set<number>();
    for (let attempt = 0; ; attempt++) {
      const sync = changing || attempt >= JS_UDF_MAX_RETRIES;
      const from = nextToken;
      const hits = answerHits;
      // Every outcome so far may have been claimed by a concurrent statement (no id known): then
      // every UDF blocks, so the statement still finishes.
      const blocked = sync ? (ids.size ? [...ids] : [ANY_UDF]) : [];
      for (const id of blocked) blocking.set(id, (blocking.get(id) ?? 0) + 1);
      let token: number;
      try {
        return await statement();
      } catch (e) {
        const m = MARK_RE.exec(e instanceof Error ? e.message : String(e));
        if (!m) throw e;
        token = Number(m[1]);
        changing = attempt > 0 && answerHits === hits;
      } finally {
        for (const id of blocked) {
          const n = blocking.get(id)! - 1;
          if (n) blocking.set(id, n);
          else blocking.delete(id);
        }
      }
      const o = outcomes.get(token);
      if (o) ids.add(o.id);
      outcomes.delete(token);
      if (o?.error) throw o.error;
      // DuckDB reports one failed vector; the other vectors this attempt sent (its other threads)
      // are awaited too, so the next attempt finds them answered. (A batch of a concurrent
      // statement sent meanwhile may be among them: its answers are merely kept a while.)
      const others: Outcome[] = [];
      for (let t = from; t < nextToken; t++) {
        const x = outcomes.get(t);
        if (x?.batch && t !== token) {
          outcomes.delete(t);
          others.push(x);
          ids.add(x.id);
        }
      }
      // An outcome claimed by a concurrent statement's retry: run again.
      if (o) {
        const r = await settledOrStopped(o.batch!, check);
        if (!('ok' in r)) throw failure(r, registry.get(o.id), o.batch!.job.timeoutMs);
        keep(o, r);
      }
      for (const x of others) keep(x, await x.batch!.settled);
      check?.();
    }
  } finally {
    for (const k of kept) answers.delete(k);
  }
}

/** How often a statement awaiting a UDF batch checks whether its job was cancelled, ms. */
const CHECK_EVERY_MS = 50;

/** The batch's answer; rejects as soon as `check` throws (the job was cancelled while waiting). */
function settledOrStopped(batch: JsUdfBatch, check?: () => void): Promise<SandboxResult> {
  if (!check) return batch.settled;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      try {
        check();
      } catch (e) {
        clearInterval(timer);
        thePool().abandon(batch);
        reject(e);
      }
    }, CHECK_EVERY_MS);
    void batch.settled.then((r) => {
      clearInterval(timer);
      resolve(r);
    });
  });
}

/**
 * The query error behind a DuckDB error text that carries the internal marker: a batch's limit
 * error (`jsUdfTimeout`, `jsUdfOutOfMemory`); for a batch still running, a runtime error that keeps
 * the marker so an enclosing {@link withJsUdfRetry} still recognises it. `undefined` when the text
 * has no marker.
 */
export function jsUdfErrorOf(message: string): BigQueryError | undefined {
  const m = MARK_RE.exec(message);
  if (!m) return undefined;
  return outcomes.get(Number(m[1]))?.error ?? BigQueryError.runtime(m[0]);
}

/** Registers `bq_js_udf(BIGINT, VARCHAR) → VARCHAR` on a connection (called by the prelude). */
export function installJsUdfRunner(con: DuckDBConnection): void {
  con.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'bq_js_udf',
      returnType: VARCHAR,
      parameterTypes: [BIGINT, VARCHAR],
      // Volatile: DuckDB's optimizer would otherwise call it on constant arguments while planning
      // (swallowing its errors) — a runaway UDF would run once per folding attempt.
      volatile: true,
      mainFunction: (info, input, output) => {
        const idv = input.getColumnVector(0);
        const argv = input.getColumnVector(1);
        const ids: number[] = [];
        const args: string[] = [];
        for (let r = 0; r < input.rowCount; r++) {
          ids.push(Number(idv.getItem(r)));
          args.push(String(argv.getItem(r)));
        }
        const out = answerVector(ids, args);
        if (!Array.isArray(out)) {
          info.setError(out.error);
          return;
        }
        for (let r = 0; r < out.length; r++) (output as { setItem(i: number, v: unknown): void }).setItem(r, out[r]);
        output.flush();
      },
    }),
  );
}

/**
 * Lowers call `c` of JS UDF `id`: the arguments as a JSON array (NULL arguments stay JSON null),
 * each encoded for the sandbox by its declared type (jsUdfArgSql), and the JSON answer converted
 * to the declared return type (jsUdfResultSql).
 */
export function lowerJsUdfCall(id: number, c: FnCall): string {
  const types = registry.get(id)?.argTypes ?? c.argTypes;
  const args = c.args.map((a, i) => `to_json(${jsUdfArgSql(a, types[i] ?? c.argTypes[i])})`);
  const arr = args.length ? `to_json([${args.join(', ')}])::VARCHAR` : `'[]'`;
  return jsUdfResultSql(c, `CAST(bq_js_udf(${id}, ${arr}) AS JSON)`);
}
