/**
 * EXPORT DATA through the client (recorded export_data/* fixtures give statement type EXPORT_DATA,
 * no rows, and `Option 'uri' is missing or empty.`); the file lands under BQEMU_GCS_DIR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { startTestEmulator, errorOf, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-gcs-test-'));
beforeAll(async () => {
  process.env.BQEMU_GCS_DIR = dir;
  t = await startTestEmulator();
});
afterAll(async () => {
  await t?.emu.close();
  delete process.env.BQEMU_GCS_DIR;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('EXPORT DATA', () => {
  it('writes a CSV shard with a header (and GZIP when asked)', async () => {
    const [job] = await t.bq.createQueryJob({
      query: "EXPORT DATA OPTIONS (uri = 'gs://bkt/out/*.csv', format = 'CSV', overwrite = true) AS SELECT 1 AS id, 'alpha' AS name UNION ALL SELECT 2, 'beta' ORDER BY id",
    });
    const [rows] = await job.getQueryResults();
    expect(rows).toEqual([]);
    const [meta] = await job.getMetadata();
    expect(meta.statistics.query.statementType).toBe('EXPORT_DATA');
    expect(fs.readFileSync(path.join(dir, 'bkt/out/000000000000.csv'), 'utf8').trim().split('\n')).toEqual(['id,name', '1,alpha', '2,beta']);
    await t.bq.query("EXPORT DATA OPTIONS (uri = 'gs://bkt/gz/*.csv.gz', format = 'CSV', compression = 'GZIP', overwrite = true) AS SELECT 7 AS n");
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'bkt/gz/000000000000.csv.gz'))).toString().trim()).toBe('n\n7');
  });

  it('refuses a missing uri with BigQuery’s text', async () => {
    const e = await errorOf(t.bq.query("EXPORT DATA OPTIONS (format = 'CSV') AS SELECT 1 AS x"));
    expect(e.message).toMatch(/Option 'uri' is missing or empty\./);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
  });
});
