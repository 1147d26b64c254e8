/**
 * What every REST resource handler shares: the engine, the job manager, the default project and
 * the emulator's base URL (for selfLinks).
 */
import type { Engine } from '../../engine/engine.js';
import type { JobManager } from '../../jobs/jobs.js';
import { BigQueryError } from '../../errors/errors.js';

export interface RestContext {
  engine: Engine;
  jobs: JobManager;
  defaultProject: string;
  baseUrl(): string;
}

/** Path parameters of the REST routes. */
export interface PathParams {
  projectId: string;
  datasetId: string;
  tableId: string;
  jobId: string;
}

/** Query-string values arrive as strings; parses a non-negative integer or throws 400 invalid. */
export function intParam(v: unknown, name: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw BigQueryError.invalidValue(name, String(v), name);
  return n;
}

/** Requires a JSON object body. */
export function objectBody(body: unknown): Record<string, any> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw BigQueryError.bodyNotObject();
  return body as Record<string, any>;
}

/** Looks a dataset up or answers BigQuery's 404. */
export function requireDataset(ctx: RestContext, projectId: string, datasetId: string) {
  const d = ctx.engine.catalog.getDataset(projectId, datasetId);
  if (!d) throw BigQueryError.datasetNotFound(projectId, datasetId, false);
  return d;
}

/** Looks a table up or answers BigQuery's 404. */
export function requireTable(ctx: RestContext, projectId: string, datasetId: string, tableId: string) {
  requireDataset(ctx, projectId, datasetId);
  const t = ctx.engine.catalog.getTable(projectId, datasetId, tableId);
  if (!t) throw BigQueryError.tableNotFound(projectId, datasetId, tableId, false);
  return t;
}
