/**
 * Property-based differential tests: generated GoogleSQL expressions are answered by the
 * ZetaSQL reference evaluator (`EvaluateQuery` of the analyzer's local service) and by bqemu
 * through the real `@google-cloud/bigquery` client; values must agree under the corpus'
 * tolerances (conformance/README.md "Tolerances"), result types must agree, and an error on one
 * side needs an error on the other (with the same text where BigQuery's text is known). See
 * families.ts for what is left out and why.
 *
 * Reproducible: the base seed is fixed (override with BQEMU_DIFF_SEED); each family's seed and the
 * failing SQL are printed on failure, and fast-check prints the seed and path to replay.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { ReferenceEvaluator } from './evaluator.js';
import { UNMAPPED_LOG_MESSAGE } from '../../src/engine/duckdb/duckdb-errors.js';
import { FAMILIES, type Family } from './families.js';
import { bignumericArithmetic, mixedArithmetic, statisticalAggregates } from './families-numbers.js';
import { bytesAndStrings, castFormat, collation, intervalsAndRanges } from './families-text.js';
import { bignumericOrder, civilOverflow, intervalRanges } from './families-edges.js';
import { differential, nullsTableDdl, type RunStats } from './harness.js';

const BASE_SEED = Number(process.env.BQEMU_DIFF_SEED || 20_260_605);
/** Expressions per query, and queries (fast-check runs) per family: 13 × 4 × 48 = 2,496 cases. */
const BATCH = 48;
const NULLS_TABLE = 'differential.nulls';
const RUNS = 4;

/**
 * The families where DuckDB's own errors or wrong answers used to reach clients (mixed-type and
 * BIGNUMERIC arithmetic, statistics at the limits, CAST … FORMAT, BYTES/STRING functions, collation,
 * INTERVAL and RANGE; BIGNUMERIC order and aggregates, INTERVAL ranges, civil-type overflow):
 * 10 × 6 × 48 = 2,880 cases.
 */
const ENGINE_ERROR_FAMILIES: Family[] = [
  { name: 'mixed-type arithmetic and comparisons (INT64/NUMERIC/BIGNUMERIC/FLOAT64)', expr: mixedArithmetic },
  { name: 'BIGNUMERIC arithmetic', expr: bignumericArithmetic },
  { name: 'statistical aggregates at the limits', expr: statisticalAggregates },
  { name: 'CAST … FORMAT', expr: castFormat },
  { name: 'BYTES and STRING functions', expr: bytesAndStrings },
  { name: 'collation arguments', expr: collation },
  { name: 'INTERVAL and RANGE', expr: intervalsAndRanges },
  { name: 'BIGNUMERIC order, extremes and aggregates', expr: bignumericOrder },
  { name: 'INTERVAL ranges', expr: intervalRanges },
  { name: 'DATE/DATETIME/TIMESTAMP arithmetic at the range ends', expr: civilOverflow },
];
const ENGINE_ERROR_RUNS = 6;

/** The emulator's structured log (warn and above), to find DuckDB errors no mapping rule knew. */
const logLines: string[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));

let t: TestEmulator;
let ref: ReferenceEvaluator;
let refPid: number | undefined;
const stats: RunStats = { cases: 0, referenceErrors: 0, knownNullFolding: 0, knownMovedConstants: 0 };

beforeAll(async () => {
  [t, ref] = await Promise.all([startTestEmulator({ logLevel: 'warn', logStream }), (async () => {
    const r = new ReferenceEvaluator();
    await r.start();
    return r;
  })()]);
  refPid = ref.pid;
  await t.bq.createDataset('differential');
  await t.bq.query(nullsTableDdl(NULLS_TABLE));
});

afterAll(async () => {
  ref?.stop();
  await t?.emu.close();
  console.info(`differential: ${stats.cases} cases, ${stats.referenceErrors} reference errors, ${stats.knownNullFolding} + ${stats.knownMovedConstants} accepted under the known NULL-folding / moved-constants bugs`);
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('differential: bqemu against the ZetaSQL reference evaluator', () => {
  const all = [...FAMILIES.map((f) => ({ ...f, runs: RUNS })), ...ENGINE_ERROR_FAMILIES.map((f) => ({ ...f, runs: ENGINE_ERROR_RUNS }))];
  all.forEach((family, i) => {
    it(family.name, async () => {
      const seed = BASE_SEED + i;
      await fc.assert(
        fc.asyncProperty(fc.array(family.expr, { minLength: BATCH, maxLength: BATCH }), async (exprs) => {
          const mismatches = await differential(ref, t.bq, NULLS_TABLE, exprs, stats);
          if (mismatches.length) {
            const lines = mismatches.map((m) => `- ${m.why}\n    ${m.sql}\n    reference: ${m.expected}\n    bqemu:     ${m.actual}`);
            throw new Error(`family "${family.name}", seed ${seed}: ${mismatches.length} mismatch(es)\n${lines.join('\n')}`);
          }
        }),
        { seed, numRuns: family.runs, endOnFailure: true },
      );
    });
  });

  it('runs at least 2,000 generated cases, and 2,000 more on the families of DuckDB errors', () => {
    expect(FAMILIES.length * RUNS * BATCH).toBeGreaterThanOrEqual(2000);
    expect(ENGINE_ERROR_FAMILIES.length * ENGINE_ERROR_RUNS * BATCH).toBeGreaterThanOrEqual(2000);
  });

  // Every DuckDB error of the run went through a mapping rule: none was passed through unmapped
  // (src/engine/duckdb/duckdb-errors.ts logs those at warn); the harness already fails on any
  // DuckDB-worded message a client received.
  it('no DuckDB error reached a client unmapped', () => {
    const unmapped = logLines.filter((l) => l.includes(UNMAPPED_LOG_MESSAGE));
    expect(unmapped).toEqual([]);
  });

  it('the evaluator child process is gone after stop()', async () => {
    const probe = new ReferenceEvaluator();
    await probe.start();
    const pid = probe.pid!;
    expect(alive(pid)).toBe(true);
    probe.stop();
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
    expect(refPid).toBeDefined();
  });
});
