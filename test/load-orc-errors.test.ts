/**
 * ORC load jobs that cannot read their files, through @google-cloud/bigquery, and `bq load
 * --source_format=ORC` through the `bq` CLI. A file that is not a readable ORC file fails the job
 * with BigQuery's load reading error shape: status DONE, `errorResult.reason` `invalid`, the
 * message led by `Error while reading data, error message: ` (the prefix of every load reading
 * error, e.g. https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-csv#troubleshoot_parsing_errors),
 * naming the gs:// file — never a 500 or a crash; the emulator goes on answering.
 * Files: the ORC project's deliberately corrupt examples (test/data/orc/corrupt/), its empty
 * 0-byte file and future-version file, a truncated copy of a good file and a CSV file.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const DATA = path.resolve('test/data/orc');
const DS = 'orc_errors';
let t: TestEmulator;
let gcs: string;
let savedGcs: string | undefined;

beforeAll(async () => {
  gcs = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-orc-err-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = gcs;
  t = await startTestEmulator({ projectId: 'orc-err-project' });
  await t.bq.createDataset(DS);
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(gcs, { recursive: true, force: true });
});

/** Writes `data` as gs://bad-orc/<object> in the Cloud Storage stand-in folder. */
function put(object: string, data: Buffer | string): string {
  const out = path.join(gcs, 'bad-orc', object);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, data);
  return `gs://bad-orc/${object}`;
}

/** Runs an ORC load of `uri` and answers the finished job's status. */
async function failedLoad(uri: string, tableId: string): Promise<{ state: string; errorResult?: { reason: string; message: string } }> {
  const load = { sourceUris: [uri], sourceFormat: 'ORC', destinationTable: { projectId: t.projectId, datasetId: DS, tableId } };
  // jobs.insert answers the finished job; the client rejects one with status.errors, the job resource in `response`.
  const err = await t.bq.createJob({ configuration: { load } }).then(
    () => undefined,
    (e: { response?: { status: { state: string; errorResult?: { reason: string; message: string } } } }) => e,
  );
  if (!err?.response) throw new Error(`the load of ${uri} did not fail as a job`);
  return err.response.status;
}

const READING = 'Error while reading data, error message: ';
const good = () => fs.readFileSync(path.join(DATA, 'TestOrcFile.test1.orc'));

describe('ORC load jobs that cannot read their files', () => {
  const cases: [string, () => Buffer | string, string][] = [
    ['corrupt: a dictionary string column without its LENGTH stream', () => fs.readFileSync(path.join(DATA, 'corrupt/missing_length_stream_in_string_dict.orc')), 'missing.orc'],
    ['corrupt: negative dictionary entry lengths', () => fs.readFileSync(path.join(DATA, 'corrupt/negative_dict_entry_lengths.orc')), 'negative.orc'],
    ['corrupt: a stripe footer with bad column encodings', () => fs.readFileSync(path.join(DATA, 'corrupt/stripe_footer_bad_column_encodings.orc')), 'encodings.orc'],
    ['an empty (0-byte) file', () => fs.readFileSync(path.join(DATA, 'zero.orc')), 'zero.orc'],
    ['a file of a future format version (19.99)', () => fs.readFileSync(path.join(DATA, 'version1999.orc')), 'future.orc'],
    ['a truncated ORC file', () => good().subarray(0, 1000), 'truncated.orc'],
    ['a file cut before its last stripe', () => Buffer.concat([good().subarray(0, 40), good().subarray(good().length - 600)]), 'holed.orc'],
    ['a CSV file', () => 'id,name\n1,ann\n', 'people.orc'],
  ];
  for (const [what, data, object] of cases)
    it(`${what} fails the job with reason invalid`, async () => {
      const uri = put(object, data());
      const status = await failedLoad(uri, object.replace(/\W/g, '_'));
      expect(status.state).toBe('DONE');
      expect(status.errorResult?.reason).toBe('invalid');
      expect(status.errorResult?.message.startsWith(READING)).toBe(true);
      expect(status.errorResult?.message).toContain(uri);
      const [exists] = await t.bq.dataset(DS).table(object.replace(/\W/g, '_')).exists();
      expect(exists).toBe(false);
    });

  it('a file whose root type is not a struct (TestOrcFile.testTimestamp) fails: its columns have no names', async () => {
    const status = await failedLoad(put('timestamps.orc', fs.readFileSync(path.join(DATA, 'TestOrcFile.testTimestamp.orc'))), 'timestamps');
    expect(status.errorResult?.reason).toBe('invalid');
    expect(status.errorResult?.message.startsWith(READING)).toBe(true);
  });

  it('a media upload of a non-ORC file answers the job error through table.load, and the emulator goes on', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-orc-up-'));
    const f = path.join(dir, 'not.orc');
    fs.writeFileSync(f, 'not an orc file at all');
    const err = await t.bq
      .dataset(DS)
      .table('uploaded')
      .load(f, { sourceFormat: 'ORC' })
      .then(
        () => undefined,
        (e: { message: string; errors?: { reason: string }[] }) => e,
      );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(err?.message).toContain(READING);
    const [rows] = await t.bq.query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});

/** The bq executable on PATH, if any. */
function findBq(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'bq');
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}
const BQ = findBq();

describe.skipIf(!BQ)(`bq load --source_format=ORC${BQ ? '' : ' (skipped: the `bq` command is not installed on this machine)'}`, () => {
  it('loads a local ORC file (media upload) into a new table with the file’s schema', async () => {
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-orc-cloudsdk-'));
    const bin = path.join(config, 'bin');
    fs.mkdirSync(bin);
    // bq asks `gcloud config list` for defaults; with an empty configuration the answer is `{}`.
    fs.writeFileSync(path.join(bin, 'gcloud'), '#!/bin/sh\necho "{}"\n', { mode: 0o755 });
    const argv = [`--api=${t.emu.url}`, '--oauth_access_token=fake', `--project_id=${t.projectId}`, '--format=json', 'load', '--source_format=ORC', `${t.projectId}:${DS}.from_cli`, path.join(DATA, 'TestOrcFile.testSnappy.orc')];
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      const env = { ...process.env, CLOUDSDK_CONFIG: config, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
      execFile(BQ!, argv, { timeout: 60_000, env }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }));
    });
    fs.rmSync(config, { recursive: true, force: true });
    expect(r.code, r.out).toBe(0);
    const [meta] = await t.bq.dataset(DS).table('from_cli').getMetadata();
    expect(meta.schema.fields.map((f: { name: string; type: string; mode: string }) => `${f.name}:${f.type}:${f.mode}`)).toEqual(['int1:INTEGER:NULLABLE', 'string1:STRING:NULLABLE']);
    const [[row]] = await t.bq.query(`SELECT COUNT(*) AS n, SUM(int1) AS s FROM ${DS}.from_cli WHERE string1 = 'f50dcb8'`);
    // The first row of the ORC project's expected rows of testSnappy: {"int1": -1160101563, "string1": "f50dcb8"}.
    expect(row).toEqual({ n: 1, s: -1160101563 });
    expect(meta.numRows).toBe('10000');
  });
});
