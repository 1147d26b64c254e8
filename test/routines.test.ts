/**
 * Routines through the real client. Expected values follow BigQuery's
 * documentation ("User-defined functions", "Table functions", "Work with stored procedures") and
 * the recorded routines_scripting fixtures (INT64 reaches JavaScript as a string: `x + 1` with 41
 * answers 411).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('rt');
  await q('CREATE TABLE rt.events (id INT64, kind STRING, score INT64)');
  await q("INSERT INTO rt.events VALUES (1, 'A', 10), (2, 'A', 20), (3, 'B', 30)");
});
afterAll(async () => t?.emu.close());

describe('persistent SQL functions', () => {
  it('CREATE FUNCTION is visible by every name form; OR REPLACE replaces; DROP removes', async () => {
    await q('CREATE FUNCTION rt.add_one(x INT64) RETURNS INT64 AS (x + 1)');
    expect(await q(`SELECT rt.add_one(1) AS a, \`${t.projectId}.rt.add_one\`(2) AS b, \`${t.projectId}\`.rt.add_one(3) AS c`)).toEqual([{ a: 2, b: 3, c: 4 }]);
    await q('CREATE OR REPLACE FUNCTION rt.add_one(x INT64) RETURNS INT64 AS (x + 2)');
    expect(await q('SELECT rt.add_one(1) AS a')).toEqual([{ a: 3 }]);
    expect(String(await errorOf(q('CREATE FUNCTION rt.add_one(x INT64) AS (x)')))).toMatch(/Already Exists/);
    await q('DROP FUNCTION rt.add_one');
    expect(String(await errorOf(q('SELECT rt.add_one(1)')))).toMatch(/Function not found: rt.add_one/);
  });
});

describe('JavaScript UDFs', () => {
  it('maps INT64 to a string, FLOAT64 to a number, and STRUCT/ARRAY to objects and arrays', async () => {
    const rows = await q(`CREATE TEMP FUNCTION f(x INT64) RETURNS INT64 LANGUAGE js AS "return x + 1;";
      CREATE TEMP FUNCTION g(x FLOAT64) RETURNS FLOAT64 LANGUAGE js AS "return Math.sqrt(x);";
      CREATE TEMP FUNCTION h(p STRUCT<a INT64, b STRING>) RETURNS STRUCT<a INT64, b STRING> LANGUAGE js AS "return {a: p.a * 10, b: p.b + '!'};";
      SELECT f(41) AS n, g(16.0) AS r, h(STRUCT(7 AS a, 'hi' AS b)) AS s`);
    expect(rows).toEqual([{ n: 411, r: 4, s: { a: 70, b: 'hi!' } }]);
  });

  it('a function that never returns is stopped by the time limit and the emulator keeps answering', async () => {
    process.env.BQEMU_JS_UDF_TIMEOUT_MS = '300';
    try {
      const e = await errorOf(q('CREATE TEMP FUNCTION spin(x INT64) RETURNS INT64 LANGUAGE js AS "while (true) {}"; SELECT spin(1)'));
      expect(String(e)).toMatch(/timed out/);
    } finally {
      delete process.env.BQEMU_JS_UDF_TIMEOUT_MS;
    }
    expect(await q('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('OPTIONS(library=…) is refused clearly', async () => {
    const e = await errorOf(q(`CREATE FUNCTION rt.lib(x FLOAT64) RETURNS FLOAT64 LANGUAGE js OPTIONS(library=['gs://b/x.js']) AS "return x;"`));
    expect(String(e)).toMatch(/library/);
  });
});

describe('table functions and procedures', () => {
  it('CREATE TABLE FUNCTION is callable in FROM, chained', async () => {
    await q('CREATE TABLE FUNCTION rt.of_kind(k STRING) AS (SELECT id, score FROM rt.events WHERE kind = k)');
    expect(await q('SELECT id, score FROM rt.of_kind("A") ORDER BY id')).toEqual([{ id: 1, score: 10 }, { id: 2, score: 20 }]);
  });

  it('CALL runs the body; OUT and INOUT write back to the caller variables', async () => {
    await q('CREATE PROCEDURE rt.p(IN x INT64, OUT y INT64, INOUT z STRING) BEGIN SET y = x * 2; SET z = CONCAT(z, "!"); END');
    expect(await q('DECLARE y INT64; DECLARE z STRING DEFAULT "hi"; CALL rt.p(21, y, z); SELECT y, z')).toEqual([{ y: 42, z: 'hi!' }]);
  });
});

describe('the routines REST resource', () => {
  it('insert → callable from SQL; get, list, update, delete; DDL-created routines are listed', async () => {
    const ds = t.bq.dataset('rt');
    await ds.routine('mul').create({
      routineType: 'SCALAR_FUNCTION',
      language: 'SQL',
      arguments: [{ name: 'x', dataType: { typeKind: 'INT64' } }, { name: 'y', dataType: { typeKind: 'INT64' } }],
      returnType: { typeKind: 'INT64' },
      definitionBody: 'x * y',
    });
    expect(await q('SELECT rt.mul(6, 7) AS p')).toEqual([{ p: 42 }]);
    const [meta] = await ds.routine('mul').getMetadata();
    expect(meta.routineReference).toEqual({ projectId: t.projectId, datasetId: 'rt', routineId: 'mul' });
    expect(meta.definitionBody).toBe('x * y');
    expect(meta.returnType).toEqual({ typeKind: 'INT64' });

    await q('CREATE OR REPLACE FUNCTION rt.sq(x INT64) RETURNS INT64 AS (x * x)');
    const [routines] = await ds.getRoutines();
    expect(routines.map((r) => r.id)).toEqual(expect.arrayContaining(['mul', 'sq']));
    const [sq] = await ds.routine('sq').getMetadata();
    expect(sq.arguments).toEqual([{ name: 'x', dataType: { typeKind: 'INT64' } }]);

    await ds.routine('mul').setMetadata({ ...meta, definitionBody: 'x * y + 1' });
    expect(await q('SELECT rt.mul(6, 7) AS p')).toEqual([{ p: 43 }]);

    await ds.routine('mul').delete();
    expect(String(await errorOf(ds.routine('mul').getMetadata()))).toMatch(/Not found: Routine/);
    expect(String(await errorOf(q('SELECT rt.mul(1, 2)')))).toMatch(/Function not found/);
  });
});
