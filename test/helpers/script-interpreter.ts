/**
 * Test helper: the script interpreter driven in process, without HTTP or the job manager. An
 * `Engine` (src/engine/engine.ts: in-memory DuckDB and the analyzer child) is started before the
 * file's tests and stopped after them; requests enter through src/scripting/request.ts
 * `executeRequest`, as the job layer calls it. Every runner starts with a dataset `ds` holding an
 * empty table `ds.ledger (id INT64, amount INT64)`.
 */
import { afterAll, beforeAll } from 'vitest';
import { Engine, type QueryOptions, type StatementResult } from '../../src/engine/engine.js';
import { BigQueryError } from '../../src/errors/errors.js';
import { executeRequest } from '../../src/scripting/request.js';
import type { Value } from '../../src/types/types.js';

/** The project every request of a runner runs in. */
export const PROJECT = 'interp-project';

/** A value as a test compares it: INT64 as a number when exact, arrays element-wise. */
export function plain(v: Value): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (Array.isArray(v)) return v.map((x) => plain(x as Value));
  return v;
}

/** The rows of one statement result as objects keyed by column name. */
export const rowsOf = (r: StatementResult): Record<string, unknown>[] =>
  (r.rows ?? []).map((row) => Object.fromEntries((r.schema ?? []).map((f, i) => [f.name, plain(row[i])])));

/** The rows of every query result of a script (results with columns), in order. */
export const selects = (rs: StatementResult[]): Record<string, unknown>[][] => rs.filter((r) => r.schema?.length).map(rowsOf);

export interface ScriptRunner {
  /** The running engine (set once the file's `beforeAll` has run). */
  readonly engine: Engine;
  /** Runs a request's text; answers every statement result (the last one answers the request). */
  run(sql: string, opts?: Partial<QueryOptions>): Promise<StatementResult[]>;
  /** The rows of the request's answer (its last result). */
  answer(sql: string, opts?: Partial<QueryOptions>): Promise<Record<string, unknown>[]>;
  /** The BigQueryError the request fails with; throws when it succeeds or fails otherwise. */
  failure(sql: string, opts?: Partial<QueryOptions>): Promise<BigQueryError>;
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start and stop an engine for the calling test file.
 * Call at the top level of a test file.
 */
export function scriptRunner(): ScriptRunner {
  let engine: Engine | undefined;
  const live = (): Engine => {
    if (!engine) throw new Error('the engine is not started yet (use the runner inside tests or hooks)');
    return engine;
  };
  const run = (sql: string, opts: Partial<QueryOptions> = {}) => executeRequest(live(), sql, { projectId: PROJECT, ...opts });
  beforeAll(async () => {
    engine = await Engine.start();
    await run('CREATE SCHEMA ds');
    await run('CREATE TABLE ds.ledger (id INT64, amount INT64)');
  }, 60_000);
  afterAll(() => engine?.stop());
  return {
    get engine() {
      return live();
    },
    run,
    async answer(sql, opts) {
      const rs = await run(sql, opts);
      return rowsOf(rs[rs.length - 1]);
    },
    async failure(sql, opts) {
      let failed: unknown;
      try {
        await run(sql, opts);
      } catch (e) {
        failed = e;
      }
      if (failed === undefined) throw new Error(`expected the script to fail: ${sql}`);
      if (!(failed instanceof BigQueryError)) throw failed;
      return failed;
    },
  };
}
