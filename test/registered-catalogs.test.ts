/**
 * Catalogs registered in the analyzer processes (src/analyzer/registered-catalogs.ts): a catalog
 * used again is named by id instead of sent whole, and no answer may change for it — not after
 * the table's schema changes, not after the analyzer process is killed, not after more catalogs
 * than a process keeps, not when the process no longer knows an id the emulator believes it does.
 * Every query goes through `@google-cloud/bigquery`; expected rows are the rows inserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'regcat-project' });
  await t.bq.createDataset('rc');
}, 60_000);
afterAll(async () => {
  await t.emu.close();
});

const rowsOf = async (query: string) => (await t.bq.query({ query }))[0] as Record<string, unknown>[];
const analyzer = () => t.emu.engine.analyzer;

describe('registered analyzer catalogs', () => {
  it('a repeated catalog is named by id, and a schema change is seen at once', async () => {
    await rowsOf('CREATE TABLE rc.t (a INT64)');
    await rowsOf('INSERT rc.t (a) VALUES (1), (2), (3)');
    const before = analyzer().registeredCatalogCalls;
    for (let n = 1; n <= 3; n++) expect(await rowsOf(`SELECT a FROM rc.t WHERE a = ${n}`)).toEqual([{ a: n }]);
    expect(await rowsOf('SELECT 40 + 2 AS x')).toEqual([{ x: 42 }]);
    expect(await rowsOf('SELECT 40 + 3 AS x')).toEqual([{ x: 43 }]);
    expect(await rowsOf('SELECT 40 + 4 AS x')).toEqual([{ x: 44 }]);
    expect(analyzer().registeredCatalogCalls).toBeGreaterThan(before);

    await rowsOf("ALTER TABLE rc.t ADD COLUMN b STRING");
    await rowsOf("UPDATE rc.t SET b = CONCAT('v', CAST(a AS STRING)) WHERE TRUE");
    for (let n = 1; n <= 3; n++) expect(await rowsOf(`SELECT b FROM rc.t WHERE a = ${n}`)).toEqual([{ b: `v${n}` }]);
  });

  it('answers stay right after the analyzer processes are killed', async () => {
    for (const pid of analyzer().pids) process.kill(pid, 'SIGKILL');
    for (let n = 1; n <= 4; n++) expect(await rowsOf(`SELECT a FROM rc.t WHERE a = ${n % 3 + 1}`)).toEqual([{ a: (n % 3) + 1 }]);
  });

  it('more catalogs than a process keeps, then the first again', async () => {
    for (let i = 0; i < 20; i++) await rowsOf(`CREATE TABLE rc.m${i} AS SELECT ${i} AS v`);
    for (let round = 0; round < 3; round++) for (let i = 0; i < 20; i++) expect(await rowsOf(`SELECT v + ${round} AS w FROM rc.m${i}`)).toEqual([{ w: i + round }]);
    expect(await rowsOf('SELECT v + 7 AS w FROM rc.m0')).toEqual([{ w: 7 }]);
  });

  it('an id its process no longer knows is resent with the catalog itself', async () => {
    for (let n = 1; n <= 3; n++) await rowsOf(`SELECT a FROM rc.t WHERE a = ${n} AND TRUE`);
    // Unregister behind the emulator's back: every id in every process (calls land on any process).
    for (let round = 0; round < 4; round++)
      for (let id = 0; id < 64; id++) await analyzer().call('unregisterCatalog', { registeredId: String(id) }).catch(() => undefined);
    const before = analyzer().registeredCatalogCalls;
    expect(await rowsOf('SELECT a FROM rc.t WHERE a = 2 AND 1 = 1')).toEqual([{ a: 2 }]);
    expect(analyzer().registeredCatalogCalls).toBeGreaterThan(before);
  });
});
