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

  it('writes BigQuery\'s export text: TIMESTAMP as "… UTC" in CSV, INT64 as a JSON string, and Avro', async () => {
    // BigQuery "Export table data": the documented CSV/JSON timestamp text is `2019-01-13 00:00:00 UTC`,
    // and JSON exports encode INT64 as strings to keep 64-bit precision.
    const sel = "SELECT 9007199254740993 AS id, TIMESTAMP '2019-01-13 00:00:00+00' AS ts";
    await t.bq.query(`EXPORT DATA OPTIONS (uri = 'gs://bkt/ts/*.csv', format = 'CSV', overwrite = true) AS ${sel}`);
    expect(fs.readFileSync(path.join(dir, 'bkt/ts/000000000000.csv'), 'utf8').trim().split('\n')).toEqual(['id,ts', '9007199254740993,2019-01-13 00:00:00 UTC']);
    await t.bq.query(`EXPORT DATA OPTIONS (uri = 'gs://bkt/js/*.json', format = 'JSON', overwrite = true) AS ${sel}`);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'bkt/js/000000000000.json'), 'utf8'))).toEqual({ id: '9007199254740993', ts: '2019-01-13 00:00:00 UTC' });
    await t.bq.query(`EXPORT DATA OPTIONS (uri = 'gs://bkt/av/*.avro', format = 'AVRO', overwrite = true) AS SELECT 5 AS n, 'x' AS s`);
    const avro = (await import('avsc')).default;
    const records: unknown[] = [];
    await new Promise<void>((resolve, reject) =>
      avro.createFileDecoder(path.join(dir, 'bkt/av/000000000000.avro')).on('data', (r: unknown) => records.push(r)).on('end', resolve).on('error', reject),
    );
    expect(records.map((r) => ({ ...(r as object) }))).toEqual([{ n: 5, s: 'x' }]);
  });

  it('refuses a missing uri with BigQuery’s text', async () => {
    const e = await errorOf(t.bq.query("EXPORT DATA OPTIONS (format = 'CSV') AS SELECT 1 AS x"));
    expect(e.message).toMatch(/Option 'uri' is missing or empty\./);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
  });
});
