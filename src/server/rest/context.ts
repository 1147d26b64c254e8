/**
 * What every REST resource handler shares: the engine, the job manager, the default project and
 * the emulator's base URL (for selfLinks).
 */
import type { Engine } from '../../engine/engine.js';
import type { JobManager } from '../../jobs/jobs.js';
import { BigQueryError } from '../../errors/errors.js';
import { DEFAULT_PRINCIPAL, type Caller } from '../../engine/row-access.js';
import { bearerToken, identityOfBearer } from '../service-account.js';

export interface RestContext {
  engine: Engine;
  jobs: JobManager;
  defaultProject: string;
  baseUrl(): string;
}

/** Request headers carrying the caller identity (conformance/README.md "Recording notes" 8). */
export const CALLER_HEADER = 'x-bqemu-caller';
export const GROUPS_HEADER = 'x-bqemu-groups';

const member = (s: string, kind: string) => (s.includes(':') ? s : `${kind}:${s}`);

/**
 * The caller named by request headers (`x-bqemu-caller`: an IAM member, `user:` when unprefixed;
 * `x-bqemu-groups`: comma-separated groups, `group:` when unprefixed), else the service account
 * of a bqemu-issued bearer token (`serviceAccount:<client_email>`, src/server/service-account.ts);
 * undefined when neither is present (the engine then uses DEFAULT_PRINCIPAL, src/engine/row-access.ts).
 */
export function callerFromHeaders(headers: Record<string, string | string[] | undefined>): Caller | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(',') : v);
  const principal = one(headers[CALLER_HEADER])?.trim();
  const groups = (one(headers[GROUPS_HEADER]) ?? '').split(',').map((g) => g.trim()).filter(Boolean).map((g) => member(g, 'group'));
  if (!principal && !groups.length) {
    const token = bearerToken(headers.authorization);
    const account = token ? identityOfBearer(token) : undefined;
    return account ? { principal: `serviceAccount:${account.email}`, groups: [] } : undefined;
  }
  return { principal: principal ? member(principal, 'user') : DEFAULT_PRINCIPAL, groups };
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

/**
 * Requires a JSON object body. `T` names what the request validator (request-validation.ts) has
 * already checked it against, e.g. `RequestBodies['bigquery.tables.insert']`
 * (src/types/generated/bigquery-v2.ts).
 */
export function objectBody<T extends object = Record<string, unknown>>(body: unknown): T {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw BigQueryError.bodyNotObject();
  return body as T;
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
