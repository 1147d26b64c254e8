/**
 * UPDATE and MERGE … UPDATE SET of STRUCT fields (`SET s.a = …, s.b.c = …`) through the real
 * client. Expected rows and error texts: the ZetaSQL reference evaluator's EvaluateModify over the
 * same table (a field of a NULL STRUCT cannot be set: `Cannot set field of NULL STRUCT<…>`, naming
 * the STRUCT on the path that is NULL); the DML reference's `SET specifications.color = 'white'`
 * form (https://cloud.google.com/bigquery/docs/reference/standard-sql/dml-syntax#update_statement).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const rows = async () => (await t.bq.query({ query: 'SELECT id, TO_JSON_STRING(s.a) AS a, s.b.c AS c, s.b.d AS d FROM dml_nested.n ORDER BY id' }))[0];

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('dml_nested');
  await t.bq.query({
    query: `CREATE TABLE dml_nested.n (id INT64, s STRUCT<a INT64, b STRUCT<c STRING, d INT64>>);
      INSERT dml_nested.n VALUES (1, STRUCT(1, STRUCT('x', 2))), (2, NULL), (3, STRUCT(3, NULL))`,
  });
});
afterAll(async () => t?.emu.close());

describe('UPDATE of STRUCT fields', () => {
  it('sets fields at any depth and keeps the others', async () => {
    await t.bq.query({ query: `UPDATE dml_nested.n SET s.a = 10, s.b.c = 'y' WHERE id = 1` });
    await t.bq.query({ query: `MERGE dml_nested.n t USING (SELECT 1 AS k) u ON t.id = u.k WHEN MATCHED THEN UPDATE SET s.b.d = 99` });
    expect((await rows())[0]).toEqual({ id: 1, a: '10', c: 'y', d: 99 });
  });

  it('a field of a NULL STRUCT cannot be set, and nothing changes', async () => {
    expect((await errorOf(t.bq.query({ query: `UPDATE dml_nested.n SET s.a = 10 WHERE id = 2` }))).message).toBe(
      'Cannot set field of NULL STRUCT<a INT64, b STRUCT<c STRING, d INT64>>',
    );
    expect((await errorOf(t.bq.query({ query: `UPDATE dml_nested.n SET s.b.c = 'z' WHERE id = 3` }))).message).toBe('Cannot set field of NULL STRUCT<c STRING, d INT64>');
    expect((await rows()).slice(1)).toEqual([
      { id: 2, a: 'null', c: null, d: null },
      { id: 3, a: '3', c: null, d: null },
    ]);
  });
});
