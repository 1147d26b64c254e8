/**
 * Child jobs of a script job (BigQuery "Work with multi-statement queries": each statement of a
 * script runs as a child job, listed by jobs.list `parentJobId`): one DONE job per statement, its
 * query text cut from the script by the statement's byte span.
 */
import { createHash } from 'node:crypto';
import type { StatementResult } from '../engine/engine.js';
import type { JobRecord, JobStats } from './jobs-model.js';

/** The ids of a script job's child jobs, one per statement result. */
export function childJobIds(parent: JobRecord, count: number): string[] {
  const base = `script_job_${createHash('md5').update(`${parent.projectId}:${parent.jobId}`).digest('hex')}`;
  return Array.from({ length: count }, (_r, i) => `${base}_${i}`);
}

/** The child job records of a finished script job (`parent.childJobIds` set). */
export function childJobs(parent: JobRecord, results: StatementResult[], stats: JobStats[]): JobRecord[] {
  const text = Buffer.from(parent.configuration.query.query as string);
  return results.map((res, i) => {
    const span = res.span ?? [0, text.length];
    const statement = text.subarray(span[0], span[1]).toString('utf8').trim().replace(/;$/, '').trim();
    return {
      projectId: parent.projectId,
      jobId: parent.childJobIds![i],
      location: parent.location,
      configuration: { query: { query: statement, useLegacySql: false } },
      state: 'DONE',
      creationTime: parent.startTime!,
      startTime: parent.startTime,
      endTime: parent.endTime,
      result: res,
      stats: stats[i] ?? { bytesProcessed: 0, bytesBilled: 0, slotMs: 0, tablesScanned: 0 },
      parentJobId: parent.jobId,
    };
  });
}
