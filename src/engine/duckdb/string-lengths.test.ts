/**
 * variableCellsBound (string-lengths.ts): readRows' decoded-size measure bounded from DuckDB's
 * vectors, NULL cells counted by the validity mask rather than by whatever their `string_t` holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from './db.js';
import { variableCellsBound } from './string-lengths.js';

let db: Database;
beforeAll(async () => {
  db = await Database.open();
  // Strings over 12 bytes (behind a pointer) and inline ones, then NULLs in the same vector.
  await db.run("CREATE TABLE s AS SELECT x, CASE WHEN x % 3 = 0 THEN NULL WHEN x % 3 = 1 THEN repeat('é', 20) ELSE 'ab' END AS v FROM range(3000) r(x)");
});
afterAll(async () => {
  await db?.close();
});

describe('variableCellsBound', () => {
  it('counts 16 + 2 × UTF-8 bytes per valid string and 16 per NULL, chunk by chunk', async () => {
    const bounds: [rows: number, bound: number, expected: number][] = [];
    // A projection over NULLs reuses vector memory of earlier strings: a NULL cell's bytes are not zero.
    await db.readChunks("SELECT CASE WHEN x % 3 = 0 THEN NULL ELSE v END AS v, CASE WHEN x % 2 = 0 THEN NULL ELSE repeat('z', 100) END AS w FROM s ORDER BY x", (chunk) => {
      let expected = 0;
      const rows = chunk.getRows();
      for (const [v, w] of rows) expected += 32 + (v === null ? 0 : 2 * Buffer.byteLength(String(v))) + (w === null ? 0 : 200);
      bounds.push([chunk.rowCount, variableCellsBound(chunk, 0) + variableCellsBound(chunk, 1), expected]);
    });
    expect(bounds.reduce((n, b) => n + b[0], 0)).toBe(3000);
    for (const [, bound, expected] of bounds) expect(bound).toBe(expected);
  });

  it('counts a fixed bound per cell of a vector that is not a string', async () => {
    let bound = -1;
    await db.readChunks('SELECT CAST(x AS DECIMAL(38,9)) AS d FROM s LIMIT 10', (chunk) => (bound = variableCellsBound(chunk, 0)));
    expect(bound).toBe(10 * 196);
  });
});
