/**
 * routines.insert with `null` in a repeated field (`"arguments": [null]`, a `null` column of
 * `returnTableType`, a `null` STRUCT field type) is a client mistake: 400 invalid, never the
 * 500 "Cannot read properties of null" the fuzzer found (npm run fuzz -- --only rest).
 * BigQuery's rule: every argument of a routine has a name
 * (https://cloud.google.com/bigquery/docs/reference/rest/v2/routines#Argument).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'nulls-project', dataset: 'ds' });
});
afterAll(async () => {
  await t.emu.close();
});

async function insertRoutine(extra: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const body = { routineReference: { projectId: t.projectId, datasetId: 'ds', routineId: 'f' }, routineType: 'SCALAR_FUNCTION', language: 'SQL', definitionBody: '1', ...extra };
  const r = await fetch(`${t.emu.url}/bigquery/v2/projects/${t.projectId}/datasets/ds/routines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

describe('null elements in a routine body', () => {
  it('"arguments": [null] is 400 invalid "Argument name is required (argument 1)."', async () => {
    const r = await insertRoutine({ arguments: [null] });
    expect(r.status).toBe(400);
    expect(r.json.error.errors[0].reason).toBe('invalid');
    expect(r.json.error.message).toBe('Argument name is required (argument 1).');
  });

  it('a null returnTableType column and a null STRUCT field are 400, not 500', async () => {
    const tvf = await insertRoutine({ routineType: 'TABLE_VALUED_FUNCTION', definitionBody: 'SELECT 1 AS x', returnTableType: { columns: [null] } });
    expect(tvf.status).toBe(400);
    const struct = await insertRoutine({ returnType: { typeKind: 'STRUCT', structType: { fields: [null] } } });
    expect(struct.status).toBe(400);
    expect(struct.json.error.errors[0].reason).toBe('invalid');
  });
});
