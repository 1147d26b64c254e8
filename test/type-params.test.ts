/**
 * Parameterized data types (GoogleSQL data types, "Parameterized data types": STRING(L), BYTES(L),
 * NUMERIC(P[, S]), BIGNUMERIC(P[, S])) through @google-cloud/bigquery (and raw HTTP where the wire
 * body matters).
 *
 * Sources of the expected values:
 * - REST TableFieldSchema maxLength / precision / scale are int64, written as strings (discovery);
 *   DDL NUMERIC(9) answers precision without scale and a DDL schema re-created through tables.insert
 *   answers the same types (python-bigquery system test test_parameterized_types_round_trip);
 * - DDL columns answer without `mode` (recorded http/jobs/tables_get_basic);
 * - `Field price: STRING(20) has maximum length 20 but got a value with length 21` (BigQuery's
 *   answer to an INSERT … SELECT, keboola storage-backend import tests);
 * - `NUMERIC(5, 2) has precision 5 and scale 2 but got a value that is not in range of [-999.99,
 *   999.99]` (a BigQuery job error), `NUMERIC(5) has precision 5 and scale 0 but got a value that
 *   is not in range of [-99999, 99999]` for CAST (ZetaSQL compliance test
 *   cast_numeric_type_parameters_invalid_input); values are rounded half away from zero to the scale
 *   (TableFieldSchema.roundingMode default ROUND_HALF_AWAY_FROM_ZERO; ROUND_HALF_EVEN: 2.5 ⇒ 2);
 * - ALTER COLUMN SET DATA TYPE may relax parameters (DDL reference) and its error names the types in
 *   the analyzer's wording (`… requires that the existing column type (…) is assignable to the new
 *   type (…)`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let ds: Dataset;
const D = 'tp_ds';

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'tp-project' });
  [ds] = await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
});

const q = async (query: string) => (await t.bq.query({ query, defaultDataset: { datasetId: D } }))[0];

/** python-bigquery SchemaField._key's type text: `NUMERIC(9, 2)`, `STRING(9)`, `NUMERIC`. */
function typeKey(f: { type: string; maxLength?: string; precision?: string; scale?: string }): string {
  if (f.maxLength !== undefined) return `${f.type}(${f.maxLength})`;
  if (f.precision !== undefined) return f.scale !== undefined ? `${f.type}(${f.precision}, ${f.scale})` : `${f.type}(${f.precision})`;
  return f.type;
}

describe('schemas', () => {
  it('DDL parameters round-trip through tables.get and tables.insert (test_parameterized_types_round_trip)', async () => {
    const fields = [
      ['n', 'NUMERIC'], ['n9', 'NUMERIC(9)'], ['n92', 'NUMERIC(9, 2)'], ['bn', 'BIGNUMERIC'], ['bn9', 'BIGNUMERIC(38)'],
      ['bn92', 'BIGNUMERIC(38, 22)'], ['s', 'STRING'], ['s9', 'STRING(9)'], ['b', 'BYTES'], ['b9', 'BYTES(9)'],
    ];
    await q(`CREATE TABLE rt (${fields.map((f) => f.join(' ')).join(', ')})`);
    const [m] = await ds.table('rt').getMetadata();
    expect(m.schema.fields.map((f: never) => [(f as { name: string }).name, typeKey(f)])).toEqual(fields);
    // int64 settings are strings on the wire.
    expect(m.schema.fields[2]).toEqual({ name: 'n92', type: 'NUMERIC', precision: '9', scale: '2' });
    expect(m.schema.fields[7]).toEqual({ name: 's9', type: 'STRING', maxLength: '9' });
    await ds.createTable('rt2', { schema: m.schema });
    const [m2] = await ds.table('rt2').getMetadata();
    expect(m2.schema.fields.map((f: never) => [(f as { name: string }).name, typeKey(f)])).toEqual(fields);
  });

  it('nested and repeated fields keep their parameters; INFORMATION_SCHEMA spells the types', async () => {
    await q('CREATE TABLE nest (a ARRAY<STRING(3)>, st STRUCT<x NUMERIC(5, 1), y BYTES(4)>, n NUMERIC(10, 2) NOT NULL)');
    const [m] = await ds.table('nest').getMetadata();
    expect(m.schema.fields).toEqual([
      { name: 'a', type: 'STRING', mode: 'REPEATED', maxLength: '3' },
      { name: 'st', type: 'RECORD', fields: [{ name: 'x', type: 'NUMERIC', precision: '5', scale: '1' }, { name: 'y', type: 'BYTES', maxLength: '4' }] },
      { name: 'n', type: 'NUMERIC', mode: 'REQUIRED', precision: '10', scale: '2' },
    ]);
    const rows = await q(`SELECT column_name, data_type FROM ${D}.INFORMATION_SCHEMA.COLUMNS WHERE table_name = 'nest' ORDER BY ordinal_position`);
    expect(rows).toEqual([
      { column_name: 'a', data_type: 'ARRAY<STRING(3)>' },
      { column_name: 'st', data_type: 'STRUCT<x NUMERIC(5, 1), y BYTES(4)>' },
      { column_name: 'n', data_type: 'NUMERIC(10, 2)' },
    ]);
  });

  it('tables.insert rejects parameters that do not fit the type', async () => {
    const bad = [
      { name: 'x', type: 'INTEGER', maxLength: '3' },
      { name: 'x', type: 'NUMERIC', precision: '40' },
      { name: 'x', type: 'NUMERIC', precision: '12', scale: '10' },
      { name: 'x', type: 'NUMERIC', scale: '2' },
      { name: 'x', type: 'STRING', precision: '3' },
    ];
    for (const [i, f] of bad.entries()) {
      const e = await errorOf(ds.createTable(`bad${i}`, { schema: { fields: [f] } }));
      expect(e.code).toBe(400);
      expect(e.errors?.[0]?.reason).toBe('invalid');
    }
  });
});

describe('writes', () => {
  it('INSERT checks lengths and rounds NUMERIC to its scale', async () => {
    await q('CREATE TABLE w (s STRING(3), n NUMERIC(5, 2), b BYTES(2), bn BIGNUMERIC(40, 5))');
    let e = await errorOf(q(`INSERT INTO w (s) VALUES ('abcd')`));
    expect(e.message).toBe('Field s: STRING(3) has maximum length 3 but got a value with length 4');
    e = await errorOf(q(`INSERT INTO w (s) SELECT 'ça va'`));
    expect(e.message).toBe('Field s: STRING(3) has maximum length 3 but got a value with length 5');
    e = await errorOf(q(`INSERT INTO w (b) VALUES (b'abc')`));
    expect(e.message).toBe('Field b: BYTES(2) has maximum length 2 but got a value with length 3');
    e = await errorOf(q('INSERT INTO w (n) VALUES (1000)'));
    expect(e.message).toBe('Field n: NUMERIC(5, 2) has precision 5 and scale 2 but got a value that is not in range of [-999.99, 999.99]');
    // 999.995 rounds (half away from zero) past the bound.
    e = await errorOf(q('INSERT INTO w (n) VALUES (999.995)'));
    expect(e.message).toMatch(/^Field n: NUMERIC\(5, 2\) has precision 5/);
    await q(`INSERT INTO w (s, n, bn) VALUES ('abc', 1.005, BIGNUMERIC '1.000005'), ('', -999.994, NULL)`);
    const text = await q('SELECT CAST(n AS STRING) AS n, CAST(bn AS STRING) AS bn FROM w ORDER BY s DESC');
    expect(text).toEqual([{ n: '1.01', bn: '1.00001' }, { n: '-999.99', bn: null }]);
  });

  it('UPDATE, MERGE and CREATE TABLE … AS SELECT with a column list check the values written', async () => {
    await q(`CREATE TABLE u (id INT64, s STRING(2)); INSERT INTO u VALUES (1, 'ab')`);
    let e = await errorOf(q(`UPDATE u SET s = 'abc' WHERE id = 1`));
    expect(e.message).toBe('Field s: STRING(2) has maximum length 2 but got a value with length 3');
    e = await errorOf(q(`MERGE u T USING (SELECT 2 AS id, 'xyz' AS s) S ON T.id = S.id WHEN NOT MATCHED THEN INSERT (id, s) VALUES (S.id, S.s)`));
    expect(e.message).toBe('Field s: STRING(2) has maximum length 2 but got a value with length 3');
    e = await errorOf(q(`MERGE u T USING (SELECT 1 AS id) S ON T.id = S.id WHEN MATCHED THEN UPDATE SET s = 'long'`));
    expect(e.message).toBe('Field s: STRING(2) has maximum length 2 but got a value with length 4');
    expect(await q('SELECT id, s FROM u')).toEqual([{ id: 1, s: 'ab' }]);
    e = await errorOf(q(`CREATE TABLE c (s STRING(2)) AS SELECT 'abc' AS s`));
    expect(e.message).toBe('Field s: STRING(2) has maximum length 2 but got a value with length 3');
  });

  it('nested parameters are checked field by field', async () => {
    await q('CREATE TABLE nw (a ARRAY<STRING(2)>, st STRUCT<x NUMERIC(3), y STRING(1)>)');
    let e = await errorOf(q(`INSERT INTO nw (a) VALUES (['ab', 'abc'])`));
    expect(e.message).toBe('Field a: STRING(2) has maximum length 2 but got a value with length 3');
    e = await errorOf(q(`INSERT INTO nw (st) VALUES (STRUCT(999.5, 'x'))`));
    expect(e.message).toMatch(/NUMERIC\(3\) has precision 3 and scale 0 but got a value that is not in range of \[-999, 999\]$/);
    await q(`INSERT INTO nw (st) VALUES (STRUCT(998.5, 'x'))`);
    expect(await q('SELECT CAST(st.x AS STRING) AS x FROM nw')).toEqual([{ x: '999' }]);
  });

  it('tabledata.insertAll fails the row with the parameter error; the other rows are stopped', async () => {
    await ds.createTable('ia', { schema: { fields: [{ name: 's', type: 'STRING', maxLength: '2' }, { name: 'n', type: 'NUMERIC', precision: '3', scale: '1' }] } });
    const path = `/bigquery/v2/projects/${t.projectId}/datasets/${D}/tables/ia/insertAll`;
    const r = await http(t.emu.url, 'POST', path, { rows: [{ json: { s: 'ok', n: '1.25' } }, { json: { s: 'toolong' } }] });
    expect(r.status).toBe(200);
    expect(r.body.insertErrors).toEqual([
      { index: 1, errors: [expect.objectContaining({ reason: 'invalid', message: 'Field s: STRING(2) has maximum length 2 but got a value with length 7' })] },
      { index: 0, errors: [expect.objectContaining({ reason: 'stopped' })] },
    ]);
    const ok = await http(t.emu.url, 'POST', path, { rows: [{ json: { s: 'ok', n: '1.25' } }] });
    expect(ok.body.insertErrors).toBeUndefined();
    expect(await q('SELECT s, CAST(n AS STRING) AS n FROM ia')).toEqual([{ s: 'ok', n: '1.3' }]);
  });

  it('roundingMode ROUND_HALF_EVEN rounds half to even', async () => {
    await ds.createTable('even', { schema: { fields: [{ name: 'n', type: 'NUMERIC', precision: '3', roundingMode: 'ROUND_HALF_EVEN' }] } });
    await q('INSERT INTO even (n) VALUES (2.5), (1.5), (1.6)');
    expect(await q('SELECT CAST(n AS STRING) AS n FROM even ORDER BY n')).toEqual([{ n: '2' }, { n: '2' }, { n: '2' }]);
    const [m] = await ds.table('even').getMetadata();
    expect(m.schema.fields[0]).toEqual({ name: 'n', type: 'NUMERIC', precision: '3', roundingMode: 'ROUND_HALF_EVEN' });
  });

  it('query results appended to a table are checked', async () => {
    await q('CREATE TABLE dest (s STRING(2))');
    const e = await errorOf(t.bq.query({ query: `SELECT 'abc' AS s`, destination: ds.table('dest'), writeDisposition: 'WRITE_APPEND' }));
    expect(e.message).toBe('Field s: STRING(2) has maximum length 2 but got a value with length 3');
  });
});

describe('CAST and ALTER COLUMN SET DATA TYPE', () => {
  it('CAST applies the parameters; SAFE_CAST gives NULL', async () => {
    const e = await errorOf(q('SELECT CAST(123456 AS NUMERIC(5))'));
    expect(e.message).toBe('NUMERIC(5) has precision 5 and scale 0 but got a value that is not in range of [-99999, 99999]');
    const [row] = await q(`SELECT CAST(CAST(1.25 AS NUMERIC(3, 1)) AS STRING) AS r, SAFE_CAST('abc' AS STRING(2)) AS s, SAFE_CAST(123456 AS NUMERIC(5)) AS n`);
    expect(row).toEqual({ r: '1.3', s: null, n: null });
  });

  it('SET DATA TYPE may relax parameters, not narrow them', async () => {
    await q('CREATE TABLE alt (s STRING(3), n NUMERIC(5, 2))');
    const e = await errorOf(q('ALTER TABLE alt ALTER COLUMN s SET DATA TYPE STRING(2)'));
    expect(e.message).toBe('ALTER TABLE ALTER COLUMN SET DATA TYPE requires that the existing column type (STRING(3)) is assignable to the new type (STRING(2))');
    await q('ALTER TABLE alt ALTER COLUMN s SET DATA TYPE STRING(10), ALTER COLUMN n SET DATA TYPE NUMERIC(8, 3)');
    const [m] = await ds.table('alt').getMetadata();
    expect(m.schema.fields).toEqual([
      { name: 's', type: 'STRING', maxLength: '10' },
      { name: 'n', type: 'NUMERIC', precision: '8', scale: '3' },
    ]);
    await q(`INSERT INTO alt (s) VALUES ('abcdefghij')`);
  });
});
