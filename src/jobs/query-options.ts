/**
 * Query job configuration knobs checked before a job runs, and the script options enforced while
 * it runs (JobConfigurationQuery / ScriptOptions in src/server/rest/bigquery-v2-discovery.json;
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobConfigurationQuery):
 *
 * - `continuous: true` is rejected (continuous queries are out of scope: README.md "What works today").
 * - `scriptOptions.statementTimeoutMs` ("Timeout period for each statement in a script") is
 *   enforced: a statement running longer is interrupted and the job fails with reason `timeout`.
 * - `scriptOptions.statementByteBudget` is accepted and not enforced (like `maximumBytesBilled`,
 *   a local emulator has no byte budget); `scriptOptions.keyResultStatement` LAST (default) or
 *   FIRST_SELECT picks the script's result.
 * - `jobTimeoutMs` is accepted and not enforced (a local job has no deadline to
 *   meet; a query that finishes in time answers the same).
 */
import type { StatementResult } from '../engine/engine.js';
import { BigQueryError } from '../errors/errors.js';

const KEY_RESULT = ['KEY_RESULT_STATEMENT_KIND_UNSPECIFIED', 'LAST', 'FIRST_SELECT'];

/** An int64 field (JSON number or decimal string) ≥ 0, or undefined when absent. */
function int64Field(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (!/^\d+$/.test(String(v))) throw BigQueryError.invalidValue(name, String(v), name);
  return Number(v);
}

/**
 * Checks the knobs of a query job configuration that are settled before it runs.
 * @throws BigQueryError invalid for `continuous: true` (not supported) and malformed script options.
 */
export function validateQueryConfig(configuration: Record<string, any>): void {
  const q = configuration.query ?? {};
  if (q.continuous === true || q.continuous === 'true')
    throw BigQueryError.notSupported('Continuous queries (configuration.query.continuous)', { in: 'request', verb: 'are', location: 'continuous' });
  const so = q.scriptOptions;
  if (so !== undefined && (typeof so !== 'object' || so === null || Array.isArray(so)))
    throw BigQueryError.invalidValue('scriptOptions', 'expected an object', 'scriptOptions');
  if (so) {
    int64Field(so.statementTimeoutMs, 'scriptOptions.statementTimeoutMs');
    int64Field(so.statementByteBudget, 'scriptOptions.statementByteBudget');
    if (so.keyResultStatement !== undefined && !KEY_RESULT.includes(String(so.keyResultStatement)))
      throw BigQueryError.invalidValue('scriptOptions.keyResultStatement', String(so.keyResultStatement), 'scriptOptions.keyResultStatement');
  }
  int64Field(configuration.jobTimeoutMs, 'jobTimeoutMs');
}

/** The per-statement timeout of a query configuration in ms (0 or absent: none). */
export function statementTimeoutOf(q: Record<string, any>): number | undefined {
  const ms = int64Field(q.scriptOptions?.statementTimeoutMs, 'scriptOptions.statementTimeoutMs');
  return ms ? ms : undefined;
}

/** The error of a job whose statement ran past `scriptOptions.statementTimeoutMs` (reason `timeout`, HTTP 400). */
export function statementTimeoutError(ms: number): BigQueryError {
  return BigQueryError.statementTimeout(ms);
}

/**
 * A timer per statement: `restart()` at each statement's start; when one statement runs longer than
 * `ms`, `onFire` is called once (the job interrupts its DuckDB work).
 */
export class StatementTimer {
  private timer?: NodeJS.Timeout;
  fired = false;

  constructor(
    private readonly ms: number,
    private readonly onFire: () => void,
  ) {}

  restart(): void {
    clearTimeout(this.timer);
    if (this.fired) return;
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onFire();
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** The statement whose result is the job's (`scriptOptions.keyResultStatement`: LAST by default, or FIRST_SELECT). */
export function keyResultOf(results: StatementResult[], q: Record<string, any>): StatementResult {
  if (q.scriptOptions?.keyResultStatement === 'FIRST_SELECT') {
    const first = results.find((r) => r.statementType === 'SELECT');
    if (first) return first;
  }
  return results[results.length - 1];
}
