/**
 * Etags of tables, routines and jobs change with the resource and only then, through
 * @google-cloud/bigquery: a change made by DDL (ALTER TABLE … SET OPTIONS / ADD COLUMN, CREATE OR
 * REPLACE FUNCTION) as well as one made by REST. The discovery document's `etag` fields: "A hash of
 * this resource" (Table, Routine, Job) — the same resource answers the same etag, a changed one
 * another. The emulator keeps each record's etag until a part of it changes (src/wire/resources.ts
 * EtagMemo), so a stale kept etag would show here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '@google-cloud/bigquery';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let ds: Dataset;
const D = 'etag_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'etag-project' });
  [ds] = await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
});

const query = async (sql: string) => (await t.bq.query({ query: sql, defaultDataset: { datasetId: D } }))[0];
const tableEtag = async (id: string) => (await ds.table(id).getMetadata())[0].etag as string;
const routineEtag = async (id: string) => (await ds.routine(id).getMetadata())[0].etag as string;

describe('resource etags', () => {
  it('a table answers one etag until DDL or REST changes it', async () => {
    await query('CREATE TABLE t1 (a INT64)');
    const first = await tableEtag('t1');
    expect(first).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(await tableEtag('t1')).toBe(first);

    await query("ALTER TABLE t1 SET OPTIONS (description = 'changed by DDL')");
    const described = await tableEtag('t1');
    expect(described).not.toBe(first);
    expect(await tableEtag('t1')).toBe(described);

    await query('ALTER TABLE t1 ADD COLUMN b STRING');
    const widened = await tableEtag('t1');
    expect(widened).not.toBe(described);

    await ds.table('t1').setMetadata({ description: 'changed by REST' });
    expect(await tableEtag('t1')).not.toBe(widened);
  });

  it('a routine answers a new etag after CREATE OR REPLACE', async () => {
    await query('CREATE FUNCTION f1(x INT64) AS (x + 1)');
    const first = await routineEtag('f1');
    expect(await routineEtag('f1')).toBe(first);
    await query('CREATE OR REPLACE FUNCTION f1(x INT64) AS (x + 2)');
    const replaced = await routineEtag('f1');
    expect(replaced).not.toBe(first);
    expect(await routineEtag('f1')).toBe(replaced);
  });

  it('a job answers one etag once done, another job another', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT 1' });
    await job.getQueryResults();
    const [done] = await job.getMetadata();
    expect(done.status.state).toBe('DONE');
    expect(done.etag).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const [again] = await job.getMetadata();
    expect(again.etag).toBe(done.etag);
    const [other] = await t.bq.createQueryJob({ query: 'SELECT 1' });
    await other.getQueryResults();
    expect((await other.getMetadata())[0].etag).not.toBe(done.etag);
  });
});
