/**
 * datasets.insert / get / list / patch / update / delete through @google-cloud/bigquery.
 *
 * Expected shapes come from the Dataset and DatasetList schemas and the datasets.* method
 * descriptions of src/server/rest/bigquery-v2-discovery.json; error texts from BigQuery answers quoted in
 * public reports (cited at each assertion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { clientRequest, http } from './helpers/http.js';

let t: TestEmulator;
let P: string;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'ds-project' });
  P = t.projectId;
});
afterAll(async () => {
  await t?.emu.close();
});

/** Names of every dataset a getDatasets call returns. */
async function listNames(opts: Record<string, unknown> = {}): Promise<string[]> {
  const [list] = await t.bq.getDatasets(opts);
  return list.map((d: Dataset) => d.id!).sort();
}

describe('datasets.insert', () => {
  it('creates a dataset and answers the Dataset resource', async () => {
    const before = Date.now();
    const [, res] = await t.bq.createDataset('ins_full', { description: 'a description', friendlyName: 'Friendly', labels: { env: 'dev' } });
    const after = Date.now();
    // Dataset in the discovery document: kind, id "projectId:datasetId", datasetReference,
    // creationTime/lastModifiedTime as int64 strings in ms since the epoch.
    expect(res.kind).toBe('bigquery#dataset');
    expect(res.id).toBe(`${P}:ins_full`);
    expect(res.datasetReference).toEqual({ projectId: P, datasetId: 'ins_full' });
    expect(res.description).toBe('a description');
    expect(res.friendlyName).toBe('Friendly');
    expect(res.labels).toEqual({ env: 'dev' });
    expect(res.location).toBe('US');
    expect(typeof res.etag).toBe('string');
    expect(res.etag!.length).toBeGreaterThan(0);
    expect(res.selfLink).toMatch(new RegExp(`/bigquery/v2/projects/${P}/datasets/ins_full$`));
    expect(res.creationTime).toMatch(/^\d+$/);
    expect(Number(res.creationTime)).toBeGreaterThanOrEqual(before);
    expect(Number(res.creationTime)).toBeLessThanOrEqual(after);
    expect(res.lastModifiedTime).toMatch(/^\d+$/);
  });

  it('answers 409 duplicate "Already Exists: Dataset p:d" for an existing id', async () => {
    await t.bq.createDataset('ins_dup');
    const e = await errorOf(t.bq.createDataset('ins_dup'));
    // "googleapi: Error 409: Already Exists: Dataset <name>, duplicate" (terraform-google-modules/terraform-google-log-export#135)
    expect(e.code).toBe(409);
    expect(e.message).toBe(`Already Exists: Dataset ${P}:ins_dup`);
    expect(e.errors?.[0]?.reason).toBe('duplicate');
  });

  it('rejects an invalid dataset id with 400 invalid', async () => {
    const e = await errorOf(t.bq.createDataset('bad-id!'));
    // Text recorded from BigQuery (corpus sql/standard_functions/error_invalid_dataset_id).
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe('Invalid dataset ID "bad-id!". Dataset IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.');
  });
});

describe('datasets.get', () => {
  it('returns what insert stored', async () => {
    await t.bq.createDataset('get_me', { description: 'x', labels: { a: 'b' } });
    const [ds] = await t.bq.dataset('get_me').get();
    const m = ds.metadata;
    expect(m.kind).toBe('bigquery#dataset');
    expect(m.id).toBe(`${P}:get_me`);
    expect(m.description).toBe('x');
    expect(m.labels).toEqual({ a: 'b' });
    expect(m.datasetReference).toEqual({ projectId: P, datasetId: 'get_me' });
    const [exists] = await t.bq.dataset('get_me').exists();
    expect(exists).toBe(true);
  });

  it('answers the default access list and time-travel window of a new dataset', async () => {
    await t.bq.createDataset('get_defaults');
    const [m] = await t.bq.dataset('get_defaults').getMetadata();
    // Dataset.access (discovery): "If unspecified at dataset creation time, BigQuery adds default
    // dataset access for … projectReaders READER; projectWriters WRITER; projectOwners OWNER;
    // [dataset creator email] OWNER".
    expect(m.access).toEqual(
      expect.arrayContaining([
        { role: 'READER', specialGroup: 'projectReaders' },
        { role: 'WRITER', specialGroup: 'projectWriters' },
        { role: 'OWNER', specialGroup: 'projectOwners' },
        { role: 'OWNER', userByEmail: expect.any(String) },
      ]),
    );
    expect(m.access).toHaveLength(4);
    // Dataset.maxTimeTravelHours: int64 string, "The default value is 168 hours if this is not set".
    expect(m.maxTimeTravelHours).toBe('168');
    // An access list given at creation is kept as sent.
    const access = [{ role: 'OWNER', specialGroup: 'projectOwners' }];
    await t.bq.createDataset('get_access', { access });
    expect((await t.bq.dataset('get_access').getMetadata())[0].access).toEqual(access);
  });

  it('answers 404 notFound "Not found: Dataset p:d" for a missing dataset', async () => {
    const e = await errorOf(t.bq.dataset('no_such_ds').get());
    expect(e.code).toBe(404);
    expect(e.errors?.[0]?.reason).toBe('notFound');
    expect(e.message).toBe(`Not found: Dataset ${P}:no_such_ds`);
    const [exists] = await t.bq.dataset('no_such_ds').exists();
    expect(exists).toBe(false);
  });
});

describe('datasets.list', () => {
  beforeAll(async () => {
    await t.bq.createDataset('lst_prod_a', { labels: { env: 'prod', team: 'x' } });
    await t.bq.createDataset('lst_prod_b', { labels: { env: 'prod' } });
    await t.bq.createDataset('lst_dev', { labels: { env: 'dev', team: 'x' } });
    await t.bq.createDataset('_lst_hidden');
  });

  it('lists datasets in the ListFormatDataset shape', async () => {
    const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects/${P}/datasets` });
    expect(res.kind).toBe('bigquery#datasetList');
    const item = res.datasets.find((d: { id: string }) => d.id === `${P}:lst_prod_a`);
    expect(item).toMatchObject({
      kind: 'bigquery#dataset',
      id: `${P}:lst_prod_a`,
      datasetReference: { projectId: P, datasetId: 'lst_prod_a' },
      labels: { env: 'prod', team: 'x' },
      location: 'US',
      // Recorded datasets.list items carry `type` (http/jobs/datasets_list_basic).
      type: 'DEFAULT',
    });
  });

  it('hides datasets whose name starts with "_" unless all=true', async () => {
    // datasets.list `all`: "Whether to list all datasets, including hidden ones"; hidden datasets
    // are excluded by default (Google.Cloud.BigQuery.V2 ListDatasetsOptions.IncludeHidden docs).
    const names = await listNames();
    expect(names).toContain('lst_dev');
    expect(names).not.toContain('_lst_hidden');
    expect(await listNames({ all: true })).toContain('_lst_hidden');
  });

  it('filters by label key and value, AND-ing terms separated by a space', async () => {
    expect(await listNames({ filter: 'labels.env:prod' })).toEqual(['lst_prod_a', 'lst_prod_b']);
    expect(await listNames({ filter: 'labels.team' })).toEqual(['lst_dev', 'lst_prod_a']);
    expect(await listNames({ filter: 'labels.env:prod labels.team:x' })).toEqual(['lst_prod_a']);
    expect(await listNames({ filter: 'labels.env:nope' })).toEqual([]);
  });

  it('pages with maxResults and pageToken, each dataset exactly once', async () => {
    const all = await listNames({ all: true });
    const seen: string[] = [];
    let query: Record<string, unknown> | null = { maxResults: 2, all: true, autoPaginate: false };
    let pages = 0;
    while (query) {
      const [list, next] = (await t.bq.getDatasets(query)) as unknown as [Dataset[], Record<string, unknown> | null];
      expect(list.length).toBeLessThanOrEqual(2);
      seen.push(...list.map((d) => d.id!));
      query = next;
      pages++;
    }
    expect(pages).toBe(Math.ceil(all.length / 2));
    expect(seen.sort()).toEqual(all);
  });
});

describe('datasets.patch (setMetadata)', () => {
  it('replaces only the fields provided and bumps lastModifiedTime and etag', async () => {
    const [ds, created] = await t.bq.createDataset('patch_me', { description: 'one', friendlyName: 'keep me', labels: { a: '1', b: '2' } });
    await new Promise((r) => setTimeout(r, 5));
    const [res] = await ds.setMetadata({ description: 'two' });
    // datasets.patch: "the patch method only replaces fields that are provided in the submitted dataset resource".
    expect(res.description).toBe('two');
    expect(res.friendlyName).toBe('keep me');
    expect(res.labels).toEqual({ a: '1', b: '2' });
    expect(Number(res.lastModifiedTime)).toBeGreaterThan(Number(created.lastModifiedTime));
    expect(res.etag).not.toBe(created.etag);
    const [m] = await ds.getMetadata();
    expect(m.description).toBe('two');
  });

  it('lists the patched friendlyName and labels, also after the list was answered once', async () => {
    // A listed dataset's item is kept as bytes while its record is current (src/wire/list-pages.ts):
    // a patch makes a new record, so the next datasets.list must show the new values.
    const [ds] = await t.bq.createDataset('patch_listed', { friendlyName: 'before', labels: { v: 'one' } });
    const item = async () => {
      const res = await clientRequest(t.bq, { uri: `${t.emu.url}/bigquery/v2/projects/${P}/datasets`, qs: { filter: 'labels.v' } });
      return res.datasets.find((d: { id: string }) => d.id === `${P}:patch_listed`);
    };
    expect(await item()).toMatchObject({ friendlyName: 'before', labels: { v: 'one' } });
    expect(await item()).toMatchObject({ friendlyName: 'before', labels: { v: 'one' } });
    await ds.setMetadata({ friendlyName: 'after', labels: { v: 'two' } });
    expect(await item()).toMatchObject({ friendlyName: 'after', labels: { v: 'two' } });
    const [m] = await ds.getMetadata();
    expect(m.friendlyName).toBe('after');
  });

  it('removes a label set to null', async () => {
    const [ds] = await t.bq.createDataset('patch_labels', { labels: { a: '1', b: '2' } });
    const [res] = await ds.setMetadata({ labels: { a: null, b: '2' } });
    expect(res.labels).toEqual({ b: '2' });
  });

  it('answers 412 on a stale etag (If-Match) and accepts the current one', async () => {
    const [ds, created] = await t.bq.createDataset('patch_etag');
    const stale = created.etag;
    await ds.setMetadata({ description: 'first' });
    // The client sends If-Match when the body carries an etag (dataset.js interceptor).
    const e = await errorOf(ds.setMetadata({ description: 'second', etag: stale }));
    // "412 PATCH …: Precondition check failed." (googleapis/python-bigquery#772)
    expect(e.code).toBe(412);
    expect(e.message).toBe('Precondition check failed.');
    const [m] = await ds.getMetadata();
    expect(m.description).toBe('first');
    const [ok] = await ds.setMetadata({ description: 'third', etag: m.etag });
    expect(ok.description).toBe('third');
  });
});

describe('datasets.update (PUT)', () => {
  it('replaces the whole resource: fields left out are cleared', async () => {
    await t.bq.createDataset('put_me', { description: 'gone soon', friendlyName: 'F', labels: { a: '1' } });
    const res = await clientRequest(t.bq, {
      method: 'PUT',
      uri: `${t.emu.url}/bigquery/v2/projects/${P}/datasets/put_me`,
      json: { datasetReference: { projectId: P, datasetId: 'put_me' }, friendlyName: 'G' },
    });
    // datasets.update: "The update method replaces the entire dataset resource".
    expect(res.friendlyName).toBe('G');
    expect(res.description).toBeUndefined();
    expect(res.labels).toBeUndefined();
    expect(res.datasetReference).toEqual({ projectId: P, datasetId: 'put_me' });
  });

  it('answers 412 on a stale If-Match', async () => {
    const [, created] = await t.bq.createDataset('put_etag');
    await t.bq.dataset('put_etag').setMetadata({ description: 'changed' });
    const r = await http(t.emu.url, 'PUT', `/bigquery/v2/projects/${P}/datasets/put_etag`, { description: 'x' }, { 'If-Match': created.etag! });
    expect(r.status).toBe(412);
  });
});

describe('datasets.delete', () => {
  it('refuses a dataset that still holds tables (400 resourceInUse) unless deleteContents', async () => {
    const [ds] = await t.bq.createDataset('del_full');
    await ds.createTable('t1', { schema: 'a:integer' });
    const e = await errorOf(ds.delete());
    // "Error 400: Dataset gcp-project-name:test_cluster_dataset is still in use, resourceInUse"
    // (hashicorp/terraform-provider-google#6688).
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('resourceInUse');
    expect(e.message).toBe(`Dataset ${P}:del_full is still in use`);
    await ds.delete({ force: true }); // deleteContents=true
    expect((await ds.exists())[0]).toBe(false);
    // The tables went with it: a new dataset of the same name is empty.
    const [again] = await t.bq.createDataset('del_full');
    const [tables] = await again.getTables();
    expect(tables).toEqual([]);
  });

  it('deletes an empty dataset; a second delete is 404', async () => {
    const [ds] = await t.bq.createDataset('del_empty');
    const r = await http(t.emu.url, 'DELETE', `/bigquery/v2/projects/${P}/datasets/del_empty`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const e = await errorOf(ds.delete());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Dataset ${P}:del_empty`);
  });
});
