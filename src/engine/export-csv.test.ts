/**
 * The FLOAT64 export text built in DuckDB (export-csv.ts csvExportQuery) against its reference,
 * ECMAScript's Number::toString (`String(x)`, the text export-writers.ts exportText writes):
 * edge values (both zeros, the plain/exponent borders 1e21 and 1e-7, subnormals, the largest
 * double, NaN, ±Infinity) and 60,000 seeded random doubles of every magnitude.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { csvExportQuery } from './export-csv.js';
import { mulberry32 } from '../../test/helpers/seeded-random.js';

describe('csvExportQuery: FLOAT64', () => {
  it('writes every double as String(x) does', async () => {
    const vals: number[] = [0, -0, 1, -1, 0.1, 100, 1e20, 1e21, 1.5e21, 123456789012345680000, 1e-6, 1e-7, 1.5e-7, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308];
    vals.push(123.25, 0.001, 1234567, 12345678.9, 0.14285714285714285, 1 / 3, -2.5e-10, NaN, Infinity, -Infinity);
    const next = mulberry32(17);
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    for (let i = 0; i < 20_000; i++) {
      // Any bit pattern (most are huge or tiny), short decimals, and every power of ten between.
      words[0] = next();
      words[1] = next();
      if (Number.isFinite(bits[0])) vals.push(bits[0]!);
      vals.push((next() % 1_000_000) / 10 ** (next() % 12));
      vals.push((next() / 2 ** 32) * 10 ** ((next() % 60) - 30));
    }
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    await c.run('CREATE TABLE v (i INTEGER, x DOUBLE)');
    const a = await c.createAppender('v');
    vals.forEach((v, i) => {
      a.appendInteger(i);
      a.appendDouble(v);
      a.endRow();
    });
    a.closeSync();
    const rows = (await c.runAndReadAll(csvExportQuery([{ name: 'x', type: { kind: 'FLOAT64' } }], ',', 'SELECT x FROM v ORDER BY i')!)).getRowsJS();
    const wrong = rows.map(([s], i) => [String(vals[i]), s]).filter(([want, s]) => s !== want);
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(rows.length).toBe(vals.length);
    c.closeSync();
    db.closeSync();
  });
});
