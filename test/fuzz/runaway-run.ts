/**
 * Fuzz harness: runs one runaway case the way a client would — `jobs.query` with a short
 * server-side wait; if the job is still running, `jobs.cancel` it and poll `jobs.get` until it is
 * DONE (https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/cancel). The case fails when
 * any call hangs or answers 5xx, or the job is still not DONE `doneWithinMs` after the cancel.
 */
import { send, verdict } from './http-target.js';
import { isIncomplete, jobIdOf, type FuzzOutcome } from './fuzz-run.js';
import type { RunawayCase } from './runaway-queries.js';

/** Time knobs of {@link runRunaway} (ms). */
export interface RunawayTimes {
  /** `timeoutMs` sent with jobs.query (server-side wait). */
  queryWaitMs: number;
  /** Client deadline of each HTTP call beyond the server-side wait. */
  httpSlackMs: number;
  /** How long after jobs.cancel the job may still be RUNNING. */
  doneWithinMs: number;
}

export const RUNAWAY_TIMES: RunawayTimes = { queryWaitMs: 2_000, httpSlackMs: 20_000, doneWithinMs: 20_000 };

/** Runs one case against `baseUrl`; never throws. */
export async function runRunaway(baseUrl: string, projectId: string, c: RunawayCase, t: RunawayTimes = RUNAWAY_TIMES): Promise<FuzzOutcome> {
  const req = { kind: c.kind, label: 'jobs.query', method: 'POST', path: `/bigquery/v2/projects/${projectId}/queries`, body: JSON.stringify({ query: c.sql, useLegacySql: false, timeoutMs: t.queryWaitMs }) };
  const res = await send(baseUrl, req, t.queryWaitMs + t.httpSlackMs);
  const problem = verdict(res);
  if (problem || !isIncomplete(res)) return { req, res, problem };
  const jobId = jobIdOf(res);
  if (!jobId) return { req, res, problem: 'runaway: jobComplete false without a jobReference' };
  const jobPath = `/bigquery/v2/projects/${projectId}/jobs/${encodeURIComponent(jobId)}?location=US`;
  const cancel = await send(baseUrl, { kind: 'runaway:cancel', method: 'POST', path: jobPath.replace('?', '/cancel?') }, t.httpSlackMs);
  const cp = verdict(cancel);
  if (cp) return { req, res: cancel, problem: `jobs.cancel: ${cp}` };
  const deadline = Date.now() + t.doneWithinMs;
  for (;;) {
    const g = await send(baseUrl, { kind: 'runaway:get', method: 'GET', path: jobPath }, t.httpSlackMs);
    const gp = verdict(g);
    if (gp) return { req, res: g, problem: `jobs.get: ${gp}` };
    if (/"state"\s*:\s*"DONE"/.test(g.text)) return { req, res };
    if (Date.now() > deadline) return { req, res: g, problem: `runaway: job still running ${t.doneWithinMs} ms after jobs.cancel` };
    await new Promise((r) => setTimeout(r, 250));
  }
}
