/**
 * The kind index of a large resolved statement (src/analyzer/ast.ts nodesOfKind) is built in
 * slices that let other clients run (yieldIfLarge): the nodes it lists, and their order, are those
 * of a plain pre-order walk; a query on such a statement answers through `@google-cloud/bigquery`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexKindsInSlices, nodesOfKind, walk, type Node } from '../src/analyzer/ast.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

// 30,000 string items: an analyzer answer well over the off-thread decode size (a large statement).
const items = Array.from({ length: 30_000 }, (_, i) => `'v${i}'`);
const sql = `SELECT x IN (${items.join(', ')}) AS hit FROM UNNEST(['v29999', 'w']) AS x WITH OFFSET o ORDER BY o`;

it('lists the nodes of each kind in pre-order, as a walk does', async () => {
  const a = await t.emu.engine.statements.analyze(sql, 0, { projectId: t.projectId }, { named: new Map() });
  // A copy nothing has indexed yet.
  const stmt = structuredClone(a.stmt) as Node;
  await indexKindsInSlices(stmt);
  const expected = new Map<string, Node[]>();
  walk(stmt, (n) => {
    const list = expected.get(n.kind);
    if (list) list.push(n);
    else expected.set(n.kind, [n]);
  });
  expect(expected.get('Literal')!.length).toBeGreaterThan(30_000);
  for (const [kind, nodes] of expected) {
    const got = nodesOfKind(stmt, kind);
    expect(got.length).toBe(nodes.length);
    expect(got.every((n, i) => n === nodes[i])).toBe(true);
  }
  // Built at once (the path of every other statement): the same lists.
  const other = structuredClone(a.stmt) as Node;
  const walked = new Map<string, Node[]>();
  walk(other, (n) => {
    const list = walked.get(n.kind);
    if (list) list.push(n);
    else walked.set(n.kind, [n]);
  });
  for (const [kind, nodes] of walked) {
    const got = nodesOfKind(other, kind);
    expect(got.length === nodes.length && got.every((n, i) => n === nodes[i])).toBe(true);
  }
});

it('a query of a large statement answers', async () => {
  const [rows] = await t.bq.query({ query: sql });
  expect(rows.map((r: { hit: boolean }) => r.hit)).toEqual([true, false]);
});
