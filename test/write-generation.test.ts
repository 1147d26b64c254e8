/**
 * With `--data-dir` every finished job is saved to the metadata table; that write must not count
 * as a data write (src/engine/duckdb/db.ts `writeGeneration`), or the next query of any table
 * rescans it for bytes processed (src/jobs/bytes.ts) and prepares its statements again. A DML
 * statement still counts. Queries through `@google-cloud/bigquery`; bytes processed checked
 * against BigQuery's data size rules (INT64: 8 bytes per non-NULL value).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-wgen-'));
  t = await startTestEmulator({ dataDir: dir });
  await t.bq.createDataset('wg');
  await t.bq.query({ query: 'CREATE TABLE wg.t AS SELECT x FROM UNNEST(GENERATE_ARRAY(1, 1000)) AS x' });
}, 60_000);

afterAll(async () => {
  await t?.emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the write generation with --data-dir', () => {
  it('is left alone by saving finished jobs, and moved by a DML statement', async () => {
    const generation = () => t.emu.engine.db.writeGeneration;
    const bytes = async (sql: string) => {
      const [job] = await t.bq.createQueryJob({ query: sql, useQueryCache: false });
      await job.getQueryResults();
      const [meta] = await job.getMetadata();
      return Number(meta.statistics.query.totalBytesProcessed);
    };
    expect(await bytes('SELECT SUM(x) AS s FROM wg.t')).toBe(8000);
    const before = generation();
    expect(await bytes('SELECT SUM(x) AS s FROM wg.t')).toBe(8000);
    expect(await bytes('SELECT MAX(x) AS m FROM wg.t')).toBe(8000);
    expect(generation()).toBe(before);
    await t.bq.query({ query: 'INSERT INTO wg.t (x) VALUES (1001)' });
    expect(generation()).toBeGreaterThan(before);
    expect(await bytes('SELECT SUM(x) AS s FROM wg.t')).toBe(8008);
  });
});
