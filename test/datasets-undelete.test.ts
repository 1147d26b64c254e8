/**
 * datasets.undelete and UNDROP SCHEMA: a dataset deleted within its time-travel window comes back
 * with its tables (their rows), views, routines, row access policies and IAM policies
 * (https://cloud.google.com/bigquery/docs/restore-deleted-datasets: "This recovery includes all of
 * the objects that were contained in the dataset, the dataset properties, and the security
 * settings"); the most recent deletion is the one restored
 * (https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets/undelete); a dataset that
 * exists again is 409, nothing to restore 404, and `deletionTime` is refused as the discovery
 * document's description of it says.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';
import { bqRunner, findBq, type BqRunner } from './helpers/bq-cli.js';
import { MAX_KEPT_DELETED_DATASETS } from '../src/config/limits.js';

let t: TestEmulator;
let P: string;
const undelete = (d: string, body: unknown = {}) => http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets/${d}:undelete`, body);
const rows = async (sql: string) => (await t.bq.query(sql))[0];

/** A dataset with a table of rows, a view, a routine, a row access policy and an IAM policy. */
async function populate(bq: TestEmulator['bq'], d: string): Promise<void> {
  await bq.createDataset(d, { description: 'kept', labels: { team: 'x' } });
  await bq.query(`CREATE TABLE ${d}.t AS SELECT n, CONCAT('v', CAST(n AS STRING)) AS s FROM UNNEST(GENERATE_ARRAY(1, 5)) AS n`);
  await bq.query(`CREATE VIEW ${d}.v AS SELECT n * 10 AS m FROM ${d}.t`);
  await bq.query(`CREATE FUNCTION ${d}.plus1(x INT64) AS (x + 1)`);
  await bq.query(`CREATE ROW ACCESS POLICY small ON ${d}.t GRANT TO ("allUsers") FILTER USING (n <= 3)`);
  await bq.dataset(d).table('t').setIamPolicy({ bindings: [{ role: 'roles/bigquery.dataViewer', members: ['user:keep@example.com'] }] });
}

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'undel-proj', grpcPort: 0 });
  P = t.projectId;
});
afterAll(async () => {
  await t?.emu.close();
});

describe('datasets.undelete', () => {
  it('restores a deleted dataset with its tables, rows, views, routines, row access policies and IAM policies', async () => {
    await populate(t.bq, 'ud1');
    await t.bq.dataset('ud1').delete({ force: true });
    expect((await t.bq.dataset('ud1').exists())[0]).toBe(false);
    const r = await undelete('ud1');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: 'bigquery#dataset', id: `${P}:ud1`, datasetReference: { projectId: P, datasetId: 'ud1' }, description: 'kept', labels: { team: 'x' } });
    // All 5 rows are back; the restored row access policy still shows the caller (allUsers) n <= 3.
    expect((await t.bq.dataset('ud1').table('t').getMetadata())[0].numRows).toBe('5');
    expect(await rows('SELECT n, s FROM ud1.t ORDER BY n')).toEqual([1, 2, 3].map((n) => ({ n, s: `v${n}` })));
    expect(await rows('SELECT m FROM ud1.v ORDER BY m')).toEqual([10, 20, 30].map((m) => ({ m })));
    expect(await rows('SELECT ud1.plus1(41) AS x')).toEqual([{ x: 42 }]);
    const rap = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/ud1/tables/t/rowAccessPolicies`);
    expect(rap.body.rowAccessPolicies.map((p: { rowAccessPolicyReference: { policyId: string } }) => p.rowAccessPolicyReference.policyId)).toEqual(['small']);
    const [iam] = await t.bq.dataset('ud1').table('t').getIamPolicy();
    expect(iam.bindings).toEqual([{ role: 'roles/bigquery.dataViewer', members: ['user:keep@example.com'] }]);
    // The restored table is writable as before.
    await t.bq.query('INSERT ud1.t (n, s) VALUES (0, "v0")');
    expect((await rows('SELECT COUNT(*) AS c FROM ud1.t'))[0].c).toBe(4);
    expect((await t.bq.dataset('ud1').table('t').getMetadata())[0].numRows).toBe('6');
  });

  it('a dataset that exists is 409 Already Exists; nothing to undelete is 404', async () => {
    await t.bq.createDataset('ud_live');
    const live = await undelete('ud_live');
    expect(live.status).toBe(409);
    expect(live.body.error.message).toBe(`Already Exists: Dataset ${P}:ud_live`);
    expect(live.body.error.errors[0].reason).toBe('duplicate');
    const never = await undelete('ud_never');
    expect(never.status).toBe(404);
    expect(never.body.error.message).toBe(`Not found: Dataset ${P}:ud_never`);
    // Undeleted once, there is nothing left to undelete after deleting nothing.
    await t.bq.dataset('ud_live').delete();
    expect((await undelete('ud_live')).status).toBe(200);
    expect((await undelete('ud_live')).status).toBe(409);
  });

  it('the most recent deletion is restored; a dataset created again under the id supersedes the older one', async () => {
    await t.bq.createDataset('ud2');
    await t.bq.query('CREATE TABLE ud2.first AS SELECT 1 AS x');
    await t.bq.dataset('ud2').delete({ force: true });
    await t.bq.createDataset('ud2');
    await t.bq.query('CREATE TABLE ud2.second AS SELECT 2 AS x');
    expect((await undelete('ud2')).status).toBe(409);
    await t.bq.dataset('ud2').delete({ force: true });
    expect((await undelete('ud2')).status).toBe(200);
    const [tables] = await t.bq.dataset('ud2').getTables();
    expect(tables.map((x) => x.id)).toEqual(['second']);
    expect(await rows('SELECT x FROM ud2.second')).toEqual([{ x: 2 }]);
  });

  it('deletionTime is refused as not supported', async () => {
    await t.bq.createDataset('ud3');
    await t.bq.dataset('ud3').delete();
    const r = await undelete('ud3', { deletionTime: new Date().toISOString() });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Undeleting a dataset using deletion time is not supported.');
    expect(r.body.error.errors[0]).toMatchObject({ reason: 'invalid', location: 'deletionTime' });
    // The body is validated against UndeleteDatasetRequest first.
    expect((await undelete('ud3', { when: 1 })).status).toBe(400);
    expect((await undelete('ud3')).status).toBe(200);
  });
});

describe('UNDROP SCHEMA', () => {
  it('restores a dropped schema; IF NOT EXISTS skips one that exists; without it an existing one is 409', async () => {
    await populate(t.bq, 'ud4');
    await t.bq.query('DROP SCHEMA ud4 CASCADE');
    const e = await errorOf(t.bq.query('SELECT * FROM ud4.t'));
    expect(e.code).toBe(404);
    const [job] = await t.bq.createQueryJob({ query: 'UNDROP SCHEMA ud4' });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    expect(meta.statistics.query.statementType).toBe('UNDROP_SCHEMA');
    expect(meta.statistics.query.ddlTargetDataset).toEqual({ projectId: P, datasetId: 'ud4' });
    expect((await t.bq.dataset('ud4').table('t').getMetadata())[0].numRows).toBe('5');
    const skip = await t.bq.createQueryJob({ query: `UNDROP SCHEMA IF NOT EXISTS \`${P}.ud4\`` });
    await skip[0].getQueryResults();
    expect((await skip[0].getMetadata())[0].statistics.query.ddlOperationPerformed).toBe('SKIP');
    const dup = await errorOf(t.bq.query('UNDROP SCHEMA ud4'));
    expect(dup.code).toBe(409);
    expect(dup.message).toBe(`Already Exists: Dataset ${P}:ud4`);
    const none = await errorOf(t.bq.query('UNDROP SCHEMA ud_nothing'));
    expect(none.message).toBe(`Not found: Dataset ${P}:ud_nothing`);
    // A dry run checks without restoring.
    await t.bq.query('DROP SCHEMA ud4 CASCADE');
    const dry = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, { query: 'UNDROP SCHEMA ud4', useLegacySql: false, dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect((await t.bq.dataset('ud4').exists())[0]).toBe(false);
    const dryNone = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, { query: 'UNDROP SCHEMA ud_nothing', useLegacySql: false, dryRun: true });
    expect(dryNone.status).toBe(404);
  });
});

describe('retention', () => {
  it('a dataset deleted longer ago than its window cannot be undeleted, and its data is dropped', async () => {
    await t.bq.createDataset('ud5', { maxTimeTravelHours: '48' } as never);
    await t.bq.query('CREATE TABLE ud5.t AS SELECT 1 AS x');
    const duckName = t.emu.engine.catalog.getTable(P, 'ud5', 't')!.duckName;
    await t.bq.dataset('ud5').delete({ force: true });
    const kept = t.emu.engine.catalog.listDroppedDatasets().find((d) => d.datasetId === 'ud5')!;
    expect(kept.retainUntil - kept.deletionTime).toBe(48 * 3_600_000);
    // Age the deletion past its window (the clock cannot be moved for a real emulator).
    kept.retainUntil = Date.now() - 1;
    const r = await undelete('ud5');
    expect(r.status).toBe(404);
    const left = await t.emu.engine.db.readAll(`SELECT count(*) FROM duckdb_tables() WHERE table_name = '${duckName}'`);
    expect(Number(left.getRowsJS()[0][0])).toBe(0);
  });

  it('a deleted dataset survives a restart with --data-dir and is undeleted with its rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-undel-'));
    try {
      let e = await startTestEmulator({ projectId: 'undel-dd', dataDir: dir, grpcPort: 0 });
      try {
        await populate(e.bq, 'keepme');
        await e.bq.dataset('keepme').delete({ force: true });
      } finally {
        await e.emu.close();
      }
      e = await startTestEmulator({ projectId: 'undel-dd', dataDir: dir, grpcPort: 0 });
      try {
        const r = await http(e.emu.url, 'POST', `/bigquery/v2/projects/undel-dd/datasets/keepme:undelete`, {});
        expect(r.status, r.text).toBe(200);
        // Rows 1–5, of which the restored row access policy shows n <= 3.
        expect((await e.bq.dataset('keepme').table('t').getMetadata())[0].numRows).toBe('5');
        expect((await e.bq.query('SELECT SUM(n) AS s FROM keepme.t'))[0]).toEqual([{ s: 6 }]);
        expect((await e.bq.dataset('keepme').table('t').getIamPolicy())[0].bindings).toHaveLength(1);
      } finally {
        await e.emu.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const BQ = findBq();
describe.skipIf(!BQ)(`bq undelete${BQ ? '' : ' (skipped: the `bq` command is not installed on this machine)'}`, () => {
  let cli: BqRunner;
  beforeAll(() => {
    cli = bqRunner(BQ!, t.emu.url, P);
  });
  afterAll(() => cli?.cleanup());

  it('bq rm -r -f then bq undelete brings the dataset back', async () => {
    await t.bq.createDataset('ud_cli');
    await t.bq.query('CREATE TABLE ud_cli.t AS SELECT 7 AS seven');
    const rm = await cli.run('rm', '-r', '-f', '--dataset', `${P}:ud_cli`);
    expect(rm.code, rm.stdout + rm.stderr).toBe(0);
    const un = await cli.run('undelete', `${P}:ud_cli`);
    expect(un.code, un.stdout + un.stderr).toBe(0);
    expect(un.stdout).toContain(`Dataset undelete of ${P}:ud_cli successfully started`);
    expect(await rows('SELECT seven FROM ud_cli.t')).toEqual([{ seven: 7 }]);
    const again = await cli.run('undelete', `${P}:ud_cli`);
    expect(again.code).not.toBe(0);
    expect((again.stdout + again.stderr).replace(/\s+/g, ' ')).toContain(`Already Exists: Dataset ${P}:ud_cli`);
  });
});

describe('a bounded number of deleted datasets is kept', () => {
  it(`past ${MAX_KEPT_DELETED_DATASETS} deletions the oldest can no longer be undeleted; the newest still can`, async () => {
    const ids = Array.from({ length: MAX_KEPT_DELETED_DATASETS + 2 }, (_, i) => `ud_many_${i}`);
    for (const d of ids) {
      await t.bq.createDataset(d);
      await t.bq.dataset(d).delete();
    }
    expect((await undelete(ids[0]!)).status).toBe(404);
    expect((await undelete(ids[1]!)).status).toBe(404);
    expect((await undelete(ids[ids.length - 1]!)).status).toBe(200);
    expect((await t.bq.dataset(ids[ids.length - 1]!).exists())[0]).toBe(true);
  });
});
