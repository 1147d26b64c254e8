/**
 * The literal arguments of a large statement's wide calls converted ahead of lowering, in slices
 * (src/engine/lower/literals-ahead.ts): the lowered SQL is the one the lowering writes converting
 * them in place, the conversion lets other work run between slices, and wide IN lists answer
 * BigQuery's values through @google-cloud/bigquery (GoogleSQL "IN operator": TRUE on a match;
 * NULL when the search value is NULL, or when nothing matches and the list holds a NULL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodesOfKind } from '../src/analyzer/ast.js';
import { lowerQuery, makeContext } from '../src/engine/statement-context.js';
import { lowerLiteralsAhead, WIDE_CALL_ARGUMENTS } from '../src/engine/lower/literals-ahead.js';
import { LoweringHarness } from './lowering/harness.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { turnsDuring } from './helpers/event-loop-turns.js';

let h: LoweringHarness;
let t: TestEmulator;
beforeAll(async () => {
  h = await LoweringHarness.start();
  t = await startTestEmulator({ projectId: 'wide-in' });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await t?.emu.close();
});

const ints = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(', ');
const strings = (n: number) => Array.from({ length: n }, (_, i) => `'v${i}'`).join(', ');

/** The statement's SQL lowered in place, and lowered after the conversion ahead (with the number of calls converted). */
async function bothWays(sql: string): Promise<{ inPlace: string; ahead: string; calls: number }> {
  const a = await h.engine.statements.analyze(sql, 0, { projectId: 'p' }, {});
  const plain = await makeContext(h.engine, a.tables, { projectId: 'p', noRowAccess: true });
  const inPlace = lowerQuery(a.stmt, plain);
  const ctx = await makeContext(h.engine, a.tables, { projectId: 'p', noRowAccess: true });
  await lowerLiteralsAhead(nodesOfKind(a.stmt, 'FunctionCall'), ctx);
  return { inPlace, ahead: lowerQuery(a.stmt, ctx), calls: ctx.argumentsAhead?.size ?? 0 };
}

describe('literals converted ahead of lowering', () => {
  it('lowers wide calls to the SQL the in-place lowering writes', async () => {
    const cases = [
      `SELECT id IN (${ints(500)}) FROM ds.t`,
      `SELECT s IN (${strings(300)}, 'it\\'s', 'back\\\\slash', NULL) FROM ds.t`,
      `SELECT x IN (${ints(100)}, 1.5, CAST('NaN' AS FLOAT64), x) FROM ds.t`,
      `SELECT CONCAT(${strings(WIDE_CALL_ARGUMENTS)}), id IN (id, 1, 2) FROM ds.t`,
      `SELECT DATE '2024-01-01' IN (${Array.from({ length: 80 }, (_, i) => `DATE_ADD(DATE '2024-01-01', INTERVAL ${i} DAY)`).join(', ')})`,
    ];
    for (const sql of cases) {
      const r = await bothWays(sql);
      expect(r.calls, sql.slice(0, 60)).toBeGreaterThan(0);
      expect(r.ahead, sql.slice(0, 60)).toBe(r.inPlace);
    }
  }, 60_000);

  it('lets other work run while it converts', async () => {
    const a = await h.engine.statements.analyze(`SELECT id IN (${ints(60_000)}) FROM ds.t`, 0, { projectId: 'p' }, {});
    const ctx = await makeContext(h.engine, a.tables, { projectId: 'p', noRowAccess: true });
    const { turns } = await turnsDuring(() => lowerLiteralsAhead(nodesOfKind(a.stmt, 'FunctionCall'), ctx));
    expect(ctx.argumentsAhead?.size).toBe(1);
    expect(turns).toBeGreaterThan(1);
  }, 60_000);

  it('answers wide IN lists with BigQuery values through the client', async () => {
    const [rows] = await t.bq.query(
      `SELECT 4999 IN (${ints(5000)}) AS hit, 'it\\'s' IN (${strings(3000)}, 'it\\'s') AS quoted, ` +
        `CAST(NULL AS INT64) IN (${ints(3000)}) AS null_value, 7777 IN (${ints(3000)}, NULL) AS null_in_list, 7777 IN (${ints(3000)}) AS miss`,
    );
    expect(rows).toEqual([{ hit: true, quoted: true, null_value: null, null_in_list: null, miss: false }]);
  }, 60_000);
});
