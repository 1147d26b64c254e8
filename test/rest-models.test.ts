/**
 * models.list/get/patch/delete and the model statements. BigQuery ML is out of the emulator's scope:
 * no model can exist (CREATE MODEL is refused), so the methods answer as BigQuery does for a dataset
 * without models — the empty ListModelsResponse `{}` (the shape BigQuery's own Python client is
 * tested against for an empty list) — and for a missing model, 404 `Not found: Model p:d.m`.
 * Sources: https://cloud.google.com/bigquery/docs/reference/rest/v2/models,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/bigqueryml-syntax-drop-model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';
import { bqRunner, findBq, type BqRunner } from './helpers/bq-cli.js';

let t: TestEmulator;
let P: string;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'models-proj', grpcPort: 0 });
  P = t.projectId;
  await t.bq.createDataset('mds');
  await t.bq.query('CREATE TABLE mds.train AS SELECT 1 AS x, 2.5 AS y');
});
afterAll(async () => {
  await t?.emu.close();
});

describe('models REST methods', () => {
  it('models.list of an existing dataset is the empty ListModelsResponse', async () => {
    const [models, , raw] = (await t.bq.dataset('mds').getModels()) as unknown as [unknown[], unknown, unknown];
    expect(models).toEqual([]);
    expect(raw).toEqual({});
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/mds/models?maxResults=10`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
  });

  it('models.list of a missing dataset is 404 Not found: Dataset', async () => {
    const e = await errorOf(t.bq.dataset('nope_ds').getModels());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Dataset ${P}:nope_ds`);
    expect(e.errors?.[0]?.reason).toBe('notFound');
  });

  it('models.get / patch / delete of a missing model are 404 Not found: Model p:d.m', async () => {
    const m = t.bq.dataset('mds').model('no_model');
    for (const call of [m.get(), m.getMetadata(), m.setMetadata({ description: 'x' }), m.delete()]) {
      const e = await errorOf(call);
      expect(e.code).toBe(404);
      expect(e.message).toBe(`Not found: Model ${P}:mds.no_model`);
      expect(e.errors?.[0]?.reason).toBe('notFound');
    }
    expect((await m.exists())[0]).toBe(false);
  });

  it('a missing dataset comes first for models.get', async () => {
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/nope_ds/models/m`);
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(`Not found: Dataset ${P}:nope_ds`);
  });

  it('models.patch validates its body against the Model schema first', async () => {
    const r = await http(t.emu.url, 'PATCH', `/bigquery/v2/projects/${P}/datasets/mds/models/m`, { bogusField: 1 });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('Unknown name "bogusField"');
  });

  it('an invalid maxResults is refused as for the other list methods', async () => {
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/mds/models?maxResults=abc`);
    expect(r.status).toBe(400);
    expect(r.body.error.errors[0].reason).toBe('invalid');
  });
});

describe('model statements', () => {
  const query = (sql: string) => http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, { query: sql, useLegacySql: false });

  it('CREATE [OR REPLACE] MODEL is refused with a clear invalidQuery error', async () => {
    for (const sql of [
      "CREATE MODEL mds.m OPTIONS(model_type='linear_reg', input_label_cols=['y']) AS SELECT x, y FROM mds.train",
      "CREATE OR REPLACE MODEL `mds.m` OPTIONS(model_type='linear_reg') AS SELECT x, y FROM mds.train",
      "CREATE MODEL IF NOT EXISTS mds.m OPTIONS(model_type='kmeans') AS SELECT x FROM mds.train",
    ]) {
      const e = await errorOf(t.bq.query(sql));
      expect(e.message).toBe('CREATE MODEL (BigQuery ML) is not supported by bqemu');
      expect(e.errors?.[0]?.reason).toBe('invalidQuery');
    }
    const r = await query("CREATE MODEL mds.m2 OPTIONS(model_type='linear_reg') AS SELECT x, y FROM mds.train");
    expect(r.status).toBe(400);
    expect(r.body.error.errors[0]).toMatchObject({ reason: 'invalidQuery', location: 'query' });
    expect((await t.bq.dataset('mds').getModels())[0]).toEqual([]);
  });

  it('ML.PREDICT / ML.EVALUATE are refused the same way', async () => {
    for (const [sql, fn] of [
      ['SELECT * FROM ML.PREDICT(MODEL mds.m, (SELECT 1 AS x))', 'ML.PREDICT'],
      ['SELECT * FROM ml.evaluate(MODEL `mds.m`)', 'ML.EVALUATE'],
    ]) {
      const e = await errorOf(t.bq.query(sql));
      expect(e.message).toBe(`${fn} (BigQuery ML) is not supported by bqemu`);
    }
  });

  it('a missing routine of another dataset keeps the analyzer text', async () => {
    const e = await errorOf(t.bq.query('SELECT mds.no_such_fn(1)'));
    expect(e.message).toMatch(/^Function not found: mds\.no_such_fn/);
  });

  it('DROP MODEL of a missing model is 404; IF EXISTS skips', async () => {
    const e = await errorOf(t.bq.query('DROP MODEL mds.gone'));
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Model ${P}:mds.gone`);
    const [job] = await t.bq.createQueryJob({ query: 'DROP MODEL IF EXISTS mds.gone' });
    await job.getQueryResults();
    const [meta] = await job.getMetadata();
    expect(meta.statistics.query.statementType).toBe('DROP_MODEL');
    expect(meta.statistics.query.ddlOperationPerformed).toBe('SKIP');
    const e2 = await errorOf(t.bq.query('DROP MODEL nope_ds.gone'));
    expect(e2.message).toBe(`Not found: Dataset ${P}:nope_ds was not found in location US`);
  });

  it('ALTER MODEL of a missing model is 404; EXPORT MODEL is refused', async () => {
    const e = await errorOf(t.bq.query("ALTER MODEL mds.gone SET OPTIONS (description='d')"));
    expect(e.message).toBe(`Not found: Model ${P}:mds.gone`);
    await t.bq.query("ALTER MODEL IF EXISTS mds.gone SET OPTIONS (description='d')");
    const x = await errorOf(t.bq.query("EXPORT MODEL mds.gone OPTIONS (URI='gs://bucket/m')"));
    expect(x.message).toBe('EXPORT MODEL (BigQuery ML) is not supported by bqemu');
  });
});

const BQ = findBq();
describe.skipIf(!BQ)(`bq CLI and models${BQ ? '' : ' (skipped: the `bq` command is not installed on this machine)'}`, () => {
  let cli: BqRunner;
  beforeAll(() => {
    cli = bqRunner(BQ!, t.emu.url, P);
  });
  afterAll(() => cli?.cleanup());

  it('bq ls --models lists nothing; bq show --model of a missing model fails with the 404 text', async () => {
    const [ls, show] = await Promise.all([cli.run('ls', '--models', 'mds'), cli.run('show', '--model', 'mds.no_model')]);
    expect(ls.code, ls.stdout + ls.stderr).toBe(0);
    expect(ls.stdout.trim() === '' || JSON.parse(ls.stdout).length === 0).toBe(true);
    expect(show.code).not.toBe(0);
    expect(show.stdout + show.stderr).toContain(`Not found: Model ${P}:mds.no_model`);
  });
});
