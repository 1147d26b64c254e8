/**
 * A fake of the engine for job-manager unit tests (test/job-manager.test.ts): exactly what
 * src/jobs/jobs.ts and its query path (src/jobs/execute.ts, sessions.ts) call on an `Engine` —
 * `db.persistent` / `db.save` / `db.loadAll`, `catalog.getDataset` — plus `execute`, which the test
 * installs as the manager's `runRequest` (in place of src/scripting/request.ts `executeRequest`),
 * with answers a test scripts per query text. A query can be held open (`hold`) to observe PENDING and RUNNING; a held
 * query ends with the engine's interruption error once the job's interrupter fires (jobs.cancel),
 * as a DuckDB query interrupted by `Interrupter.interrupt` does.
 */
import type { Engine, QueryOptions, StatementResult } from '../../src/engine/engine.js';
import { currentInterrupterSignal, interruptedError } from '../../src/engine/duckdb/interrupts.js';

/** A query held open until the test releases it. */
export interface Held {
  /** Resolves once the query started executing. */
  started: Promise<void>;
  /** Lets the query finish with its scripted answer. */
  release(): void;
}

type Answer = StatementResult[] | Error;

/** The fake engine; `asEngine()` hands it to `new JobManager(…)`. */
export class FakeEngine {
  /** Every `execute` call, in order. */
  readonly calls: { sql: string; opts: QueryOptions }[] = [];
  /** Persisted records (`db.save`), by kind and key, when `persistent`. */
  readonly saved = new Map<string, { kind: string; key: string; json: string }>();
  private answers = new Map<string, Answer>();
  private held = new Map<string, { started: () => void; gate: Promise<void> }>();

  constructor(persistent = false) {
    const saved = this.saved;
    this.db = {
      persistent,
      async save(kind: string, key: string, json: string | null) {
        if (json === null) saved.delete(`${kind}\u0000${key}`);
        else saved.set(`${kind}\u0000${key}`, { kind, key, json });
      },
      async loadAll() {
        return [...saved.values()];
      },
    };
  }

  readonly db: { persistent: boolean; save(kind: string, key: string, json: string | null): Promise<void>; loadAll(): Promise<{ kind: string; key: string; json: string }[]> };
  readonly catalog = { getDataset: () => undefined, listTables: () => [] };

  /** Scripts the answer of a query text: its statement results, or the error it raises. */
  answer(sql: string, a: Answer): this {
    this.answers.set(sql, a);
    return this;
  }

  /** Holds a query text open: it starts, then waits for `release()` (or the job's interruption). */
  hold(sql: string): Held {
    let started!: () => void;
    let release!: () => void;
    const s = new Promise<void>((r) => (started = r));
    const gate = new Promise<void>((r) => (release = r));
    this.held.set(sql, { started, gate });
    return { started: s, release };
  }

  /** The engine as the job manager's constructor types it. */
  asEngine(): Engine {
    return this as unknown as Engine;
  }

  /**
   * `Engine.execute`: records the call, waits while the query is held (rejecting with the engine's
   * `Interrupted!` error when the job's interrupter fires), then answers the scripted results
   * (default: an empty SELECT) or throws the scripted error.
   */
  async execute(sql: string, opts: QueryOptions): Promise<StatementResult[]> {
    this.calls.push({ sql, opts });
    const h = this.held.get(sql);
    if (h) {
      h.started();
      const signal = currentInterrupterSignal();
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(interruptedError());
        signal?.addEventListener('abort', () => reject(interruptedError()), { once: true });
        void h.gate.then(resolve);
      });
    }
    const a = this.answers.get(sql) ?? [{ statementType: 'SELECT', schema: [], rows: [] }];
    if (a instanceof Error) throw a;
    return a;
  }
}

/** A SELECT statement result of one INT64 column `n`. */
export function selectResult(...values: number[]): StatementResult[] {
  return [{ statementType: 'SELECT', schema: [{ name: 'n', type: { kind: 'INT64' } }], rows: values.map((v) => [BigInt(v)]) }];
}
