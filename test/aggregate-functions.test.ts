/**
 * SQL user-defined aggregate functions (CREATE AGGREGATE FUNCTION) through the real client.
 * Expected values follow BigQuery's "User-defined aggregate functions" page: the ScaledAverage
 * example (`AVG(dividend / divisor)`) and the ScaledSum example with a `NOT AGGREGATE` parameter
 * (`SUM(dividend) / divisor`), computed here by hand; the Routine resource (`routineType`
 * AGGREGATE_FUNCTION, `Argument.isAggregate` false for NOT AGGREGATE, per the REST discovery
 * document) and the ROUTINES view (`routine_type` AGGREGATE FUNCTION).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const rows3 = 'SELECT 1 AS col1, 2 AS col2 UNION ALL SELECT 3, 4 UNION ALL SELECT 5, 6';

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('ua');
});
afterAll(async () => t?.emu.close());

describe('CREATE AGGREGATE FUNCTION', () => {
  it('ScaledAverage: AVG(dividend / divisor) over all rows and per group', async () => {
    await q('CREATE AGGREGATE FUNCTION ua.ScaledAverage(dividend FLOAT64, divisor FLOAT64) RETURNS FLOAT64 AS (AVG(dividend / divisor))');
    const [r] = await q(`SELECT ua.ScaledAverage(col1, col2) AS scaled_average FROM (${rows3})`);
    expect(r.scaled_average).toBeCloseTo((1 / 2 + 3 / 4 + 5 / 6) / 3, 12);
    expect(await q(`SELECT col1 > 2 AS big, ua.ScaledAverage(col1, col2) AS s FROM (${rows3}) GROUP BY big ORDER BY big`)).toEqual([
      { big: false, s: 0.5 },
      { big: true, s: (3 / 4 + 5 / 6) / 2 },
    ]);
  });

  it('ScaledSum: a NOT AGGREGATE parameter is one value for the whole group', async () => {
    await q('CREATE AGGREGATE FUNCTION ua.ScaledSum(dividend FLOAT64, divisor FLOAT64 NOT AGGREGATE) RETURNS FLOAT64 AS (SUM(dividend) / divisor)');
    expect(await q('SELECT ua.ScaledSum(col1, 2) AS scaled_sum FROM (SELECT 1 AS col1 UNION ALL SELECT 3 UNION ALL SELECT 5)')).toEqual([{ scaled_sum: 4.5 }]);
  });

  it('is a routine of type AGGREGATE_FUNCTION with isAggregate false on NOT AGGREGATE arguments', async () => {
    const [meta] = await t.bq.dataset('ua').routine('ScaledSum').getMetadata();
    expect(meta.routineType).toBe('AGGREGATE_FUNCTION');
    expect(meta.arguments).toEqual([
      { name: 'dividend', dataType: { typeKind: 'FLOAT64' } },
      { name: 'divisor', dataType: { typeKind: 'FLOAT64' }, isAggregate: false },
    ]);
    expect(await q("SELECT routine_type, data_type FROM ua.INFORMATION_SCHEMA.ROUTINES WHERE routine_name = 'ScaledSum'")).toEqual([
      { routine_type: 'AGGREGATE FUNCTION', data_type: 'FLOAT64' },
    ]);
  });

  it('an aggregate function inserted through routines.insert is callable', async () => {
    await t.bq.dataset('ua').createRoutine('Spread', {
      routineType: 'AGGREGATE_FUNCTION',
      language: 'SQL',
      arguments: [{ name: 'x', dataType: { typeKind: 'INT64' } }],
      returnType: { typeKind: 'INT64' },
      definitionBody: 'MAX(x) - MIN(x)',
    });
    expect(await q('SELECT ua.Spread(v) AS s FROM UNNEST([4, 9, 1]) AS v')).toEqual([{ s: 8 }]);
  });

  it('DROP FUNCTION drops an aggregate function', async () => {
    await q('CREATE AGGREGATE FUNCTION ua.Tmp(x INT64) AS (COUNT(x))');
    await q('DROP FUNCTION ua.Tmp');
    expect(String(await errorOf(q('SELECT ua.Tmp(1)')))).toMatch(/Function not found/);
  });

  it('a JavaScript aggregate function is rejected as not supported', async () => {
    const e = await errorOf(q("CREATE AGGREGATE FUNCTION ua.JsAgg(x INT64) RETURNS INT64 LANGUAGE js AS 'return 1;'"));
    expect(e.message).toMatch(/not supported/);
  });

  it('CREATE TEMP AGGREGATE FUNCTION is usable in the same script', async () => {
    const [r] = await q(
      `CREATE TEMP AGGREGATE FUNCTION ScaledSum(dividend FLOAT64, divisor FLOAT64 NOT AGGREGATE) RETURNS FLOAT64 AS (SUM(dividend) / divisor);
       SELECT ScaledSum(col1, 2) AS s FROM (${rows3})`,
    );
    expect(r.s).toBe((1 + 3 + 5) / 2);
  });
});
