/**
 * A request body over BigQuery's 10 MB request limit gets BigQuery's 400 `Request payload size
 * exceeds the limit: 10485760 bytes.` (https://cloud.google.com/bigquery/quotas "Maximum request
 * size"; text as answered in https://github.com/googleapis/python-bigquery-pandas/issues/82) —
 * delivered to the client, which writes its whole body before it reads the answer. A server that
 * answers and closes mid-body resets the connection and the client only sees `write EPIPE`.
 *
 * Raw TCP (node:net): the client writes the body in 256 KiB pieces, each after the previous one
 * was taken by the socket, and reads only at the end, the way HTTP clients write a body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'size-project' });
});
afterAll(async () => {
  await t.emu.close();
});

interface Answer {
  /** The error a write or the connection raised, if any. */
  error?: string;
  /** Everything the server sent. */
  text: string;
}

/** POSTs `size` bytes of a JSON body (`{"query":"aaaa…"}`) with `Content-Length` or chunked, writing it whole before reading. */
function postBig(size: number, chunked: boolean): Promise<Answer> {
  const u = new URL(t.emu.url);
  const path = `/bigquery/v2/projects/${t.projectId}/queries`;
  return new Promise((resolve) => {
    const sock = net.connect(Number(u.port), u.hostname);
    let text = '';
    let error: string | undefined;
    sock.on('data', (b) => (text += b.toString('utf8')));
    sock.on('error', (e) => (error ??= (e as NodeJS.ErrnoException).code ?? e.message));
    sock.on('close', () => resolve({ error, text }));
    sock.setTimeout(60_000, () => sock.destroy(new Error('no answer in 60 s')));
    const head =
      `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\n` +
      (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${size}\r\n`) +
      'Connection: close\r\n\r\n';
    const piece = 256 * 1024;
    const body = Buffer.alloc(size, 'a');
    body.write('{"query":"', 0);
    body.write('"}', size - 2);
    let at = 0;
    const writeMore = () => {
      while (at < size && !sock.destroyed) {
        const part = body.subarray(at, Math.min(size, at + piece));
        at += part.length;
        const framed = chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
        if (!sock.write(framed)) return void sock.once('drain', writeMore);
      }
      if (!sock.destroyed && chunked) sock.write('0\r\n\r\n');
    };
    sock.write(head, writeMore);
  });
}

const LIMIT_TEXT = 'Request payload size exceeds the limit: 10485760 bytes.';

function expectTooLarge(a: Answer): void {
  expect(a.error, a.text.slice(0, 200)).toBeUndefined();
  expect(a.text).toMatch(/^HTTP\/1\.1 400 /);
  const json = JSON.parse(a.text.slice(a.text.indexOf('\r\n\r\n') + 4));
  expect(json.error.code).toBe(400);
  expect(json.error.message).toBe(LIMIT_TEXT);
  expect(json.error.errors[0]).toMatchObject({ reason: 'badRequest', message: LIMIT_TEXT, domain: 'global' });
}

describe('a body over the 10 MB request limit', () => {
  it('with Content-Length (refused before reading): the client that writes all 11 MB receives the 400', async () => {
    expectTooLarge(await postBig(11 * 1024 * 1024, false));
  });

  it('chunked (refused mid-body): the client receives the 400', async () => {
    expectTooLarge(await postBig(11 * 1024 * 1024, true));
  });

  it('66 MB (an 11M-character string of \\u0000 escapes): still the 400, and the server keeps serving', async () => {
    expectTooLarge(await postBig(66 * 1000 * 1000, false));
    const [rows] = await t.bq.query('SELECT 17 AS n');
    expect(rows).toEqual([{ n: 17 }]);
  });
});

/** POSTs a JSON body through fetch; the status and parsed body. */
async function post(path: string, body: unknown): Promise<{ status: number; json: any; length: number }> {
  const r = await fetch(`${t.emu.url}/bigquery/v2/projects/${t.projectId}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, json: JSON.parse(text), length: text.length };
}

describe('over-long ids are refused before they are stored (and never echoed whole)', () => {
  it('a 1,025-character jobId is BigQuery\'s "Invalid job ID" 400 (https://github.com/apache/airflow/issues/11856); the job does not exist', async () => {
    const jobId = '9'.repeat(1025);
    const r = await post('/jobs', { jobReference: { projectId: t.projectId, jobId }, configuration: { query: { query: 'SELECT 1' } } });
    expect(r.status).toBe(400);
    expect(r.json.error.errors[0].reason).toBe('invalid');
    expect(r.json.error.message).toBe(`Invalid job ID "${jobId}". Job IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`);
    const [jobs] = await t.bq.getJobs({ allUsers: true });
    expect(jobs.some((j) => j.id === jobId)).toBe(false);
  });

  it('a 5,000-character projectId in datasetReference is "Invalid project ID" (https://github.com/googleapis/google-api-java-client/issues/684), not a stored dataset', async () => {
    const r = await post('/datasets', { datasetReference: { projectId: 'a'.repeat(5000), datasetId: 'long_project_ds' } });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/^Invalid project ID 'a{1000}/);
    const short = await post('/datasets', { datasetReference: { projectId: 'a'.repeat(200), datasetId: 'long_project_ds' } });
    expect(short.json.error.message).toBe(`Invalid project ID '${'a'.repeat(200)}'. Project IDs must contain 6-63 lowercase letters, digits, or dashes. IDs must start with a letter and may not end with a dash.`);
    const [datasets] = await t.bq.getDatasets();
    expect(datasets.map((d) => d.id)).not.toContain('long_project_ds');
  });

  it('a 2,000,000-character location (jobs.query, jobReference) is a 400, never a stored job echoing it in every list', async () => {
    const q = await post('/queries', { query: 'SELECT 1', location: '9'.repeat(2_000_000) });
    expect(q.status).toBe(400);
    expect(q.json.error.errors[0].reason).toBe('invalid');
    expect(q.length).toBeLessThan(20_000);
    const j = await post('/jobs', { jobReference: { projectId: t.projectId, jobId: 'loc_job', location: 'U'.repeat(5000) }, configuration: { query: { query: 'SELECT 1' } } });
    expect(j.status).toBe(400);
    // Real location names still work (https://cloud.google.com/bigquery/docs/locations).
    const ok = await post('/queries', { query: 'SELECT 1 AS x', location: 'northamerica-northeast1' });
    expect(ok.status).toBe(200);
  });

  it('an error quoting a 2,000,000-character value answers in a few KB, not megabytes', async () => {
    const routine = await post('/datasets/nope/routines', {
      routineReference: { projectId: t.projectId, datasetId: 'nope', routineId: 'r'.repeat(2_000_000) },
      routineType: 'SCALAR_FUNCTION',
      language: 'SQL',
      definitionBody: '1',
    });
    expect(routine.status).toBe(400);
    expect(routine.json.error.message).toMatch(/^Invalid routine ID "r+/);
    expect(routine.length).toBeLessThan(20_000);
  });
});
