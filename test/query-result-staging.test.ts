/**
 * The staging tables of query jobs with a destination table (src/jobs/destination.ts): none is
 * left once a job ends, and those a process that died mid-job left in a `--data-dir` database are
 * dropped at the next start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAGE_PREFIX } from '../src/jobs/destination.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const P = 'staging-project';

/** The staging tables in the emulator's DuckDB database. */
async function stages(t: TestEmulator): Promise<string[]> {
  const r = await t.emu.engine.db.readAll(`SELECT table_name FROM duckdb_tables() WHERE starts_with(table_name, '${STAGE_PREFIX}')`);
  return r.getRowsJS().map((x) => String(x[0]));
}

describe('query result staging tables', () => {
  it('are dropped when the job ends, and orphans of a crash at the next start', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-staging-'));
    try {
      let t = await startTestEmulator({ projectId: P, dataDir: dir });
      try {
        await t.bq.query({ query: 'CREATE SCHEMA d' });
        const [job] = await t.bq.createQueryJob({ query: 'SELECT 1 AS x UNION ALL SELECT 2', destination: t.bq.dataset('d').table('out') });
        const [rows] = await job.getQueryResults();
        expect(rows).toEqual(expect.arrayContaining([{ x: 1 }, { x: 2 }]));
        expect(await stages(t)).toEqual([]);
        // What a process killed between staging a result and dropping it leaves behind.
        await t.emu.engine.db.run(`CREATE TABLE "${STAGE_PREFIX}0123456789abcdef0123456789abcdef" AS SELECT 1 AS x`);
        expect(await stages(t)).toHaveLength(1);
      } finally {
        await t.emu.close();
      }
      t = await startTestEmulator({ projectId: P, dataDir: dir });
      try {
        expect(await stages(t)).toEqual([]);
        const [rows] = await t.bq.query({ query: 'SELECT x FROM d.out ORDER BY x' });
        expect(rows).toEqual([{ x: 1 }, { x: 2 }]);
      } finally {
        await t.emu.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
