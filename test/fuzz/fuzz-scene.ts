/**
 * Fuzz harness: the resources the fuzzers point at (a dataset, a table, a routine, a finished job,
 * a row access policy), created through the REST API so malformed requests reach deep handler code.
 */
import { send, type FuzzRequest } from './http-target.js';
import type { Scene } from './rest-requests.js';

/**
 * Creates the scene in `projectId` on the emulator at `baseUrl`; `tag` makes its dataset and job
 * ids unique (pass the same tag to recreate the same names on a restarted emulator).
 * @throws when any creation call does not answer 200 (the emulator is not usable for fuzzing).
 */
export async function createScene(baseUrl: string, projectId: string, tag = `${process.pid}_${Date.now().toString(36)}`): Promise<Scene> {
  const s: Scene = { projectId, datasetId: `fz_${tag}`, tableId: 't', routineId: 'r', jobId: `fzjob_${tag}`, policyId: 'p' };
  const p = `/bigquery/v2/projects/${projectId}`;
  const steps: FuzzRequest[] = [
    { kind: 'scene', method: 'POST', path: `${p}/datasets`, body: JSON.stringify({ datasetReference: { projectId, datasetId: s.datasetId } }) },
    {
      kind: 'scene',
      method: 'POST',
      path: `${p}/datasets/${s.datasetId}/tables`,
      body: JSON.stringify({ tableReference: { projectId, datasetId: s.datasetId, tableId: s.tableId }, schema: { fields: [{ name: 'n', type: 'INT64' }, { name: 's', type: 'STRING' }] } }),
    },
    {
      kind: 'scene',
      method: 'POST',
      path: `${p}/datasets/${s.datasetId}/routines`,
      body: JSON.stringify({
        routineReference: { projectId, datasetId: s.datasetId, routineId: s.routineId },
        routineType: 'SCALAR_FUNCTION',
        language: 'SQL',
        definitionBody: 'x + 1',
        arguments: [{ name: 'x', dataType: { typeKind: 'INT64' } }],
      }),
    },
    {
      kind: 'scene',
      method: 'POST',
      path: `${p}/queries`,
      body: JSON.stringify({ query: `INSERT \`${s.datasetId}.t\` (n, s) VALUES (1, 'a'), (2, 'b')`, useLegacySql: false }),
    },
    { kind: 'scene', method: 'POST', path: `${p}/jobs`, body: JSON.stringify({ jobReference: { projectId, jobId: s.jobId }, configuration: { query: { query: 'SELECT 1', useLegacySql: false } } }) },
    {
      kind: 'scene',
      method: 'POST',
      path: `${p}/datasets/${s.datasetId}/tables/${s.tableId}/rowAccessPolicies`,
      body: JSON.stringify({ rowAccessPolicyReference: { projectId, datasetId: s.datasetId, tableId: s.tableId, policyId: s.policyId }, filterPredicate: 'n > 0', grantees: ['allUsers'] }),
    },
  ];
  for (const step of steps) {
    const r = await send(baseUrl, step, 60_000);
    if (r.status !== 200) throw new Error(`fuzz scene: ${step.method} ${step.path} answered ${r.status || r.failure} ${r.text.slice(0, 300)}`);
  }
  return s;
}
