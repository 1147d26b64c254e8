/**
 * Sessions (JobConfigurationQuery createSession / connectionProperties `session_id`; BigQuery "Introduction
 * to sessions", https://cloud.google.com/bigquery/docs/sessions-intro): a query job with
 * `createSession: true` mints a URL-safe session id, answered in `statistics.sessionInfo.sessionId`
 * and the query response's `sessionInfo`. Later jobs naming it in `connectionProperties` (`{key:
 * 'session_id', value: id}`) see the session's TEMP tables (kept in a hidden dataset of the
 * session), and its variables, system variables and temp functions (src/engine/session-state.ts).
 * `CALL BQ.ABORT_SESSION()` ends a session; a session idle for longer than its lifetime (BigQuery:
 * 24 hours) expires. An unknown, ended or malformed session id answers BigQuery's `invalid` error
 * `Invalid input session id.`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Engine } from '../engine/engine.js';
import { dropTableObject } from '../engine/drop-table.js';
import type { TempScope } from '../engine/names.js';
import { BigQueryError } from '../errors/errors.js';
import { newSessionState } from '../engine/session-state.js';

import { DEFAULT_SESSION_IDLE_MS } from '../config/timeouts.js';
import { logIgnored } from '../config/logger.js';

/** BigQuery's idle lifetime of a session (src/config/timeouts.ts). */
export { DEFAULT_SESSION_IDLE_MS };

export interface Session {
  id: string;
  projectId: string;
  location: string;
  creationTime: number;
  lastUsed: number;
  temp: TempScope;
}

/** The hidden dataset holding the TEMP tables of a session or of a script job. */
export function tempDatasetId(owner: string): string {
  return `_script${createHash('sha1').update(owner).digest('hex')}`;
}

export function invalidSessionError(): BigQueryError {
  return BigQueryError.invalidSessionId();
}

/** The session id a job configuration names in `connectionProperties`, if any. */
export function sessionIdOf(q: Record<string, any> | undefined): string | undefined {
  const props = q?.connectionProperties;
  if (!Array.isArray(props)) return undefined;
  const p = props.find((x) => x && typeof x === 'object' && x.key === 'session_id');
  return p === undefined ? undefined : String(p.value ?? '');
}

export class SessionManager {
  private sessions = new Map<string, Session>();

  constructor(
    private readonly engine: Engine,
    /** Idle lifetime in ms. */
    public idleMs = DEFAULT_SESSION_IDLE_MS,
  ) {}

  /** Mints a new session (createSession=true). */
  create(projectId: string, location: string): Session {
    // URL-safe: base64url of random bytes (letters, digits, `-` and `_`).
    const id = `${randomBytes(24).toString('base64url')}`;
    const now = Date.now();
    const s: Session = { id, projectId, location, creationTime: now, lastUsed: now, temp: { projectId, datasetId: tempDatasetId(`session:${id}`), tables: new Set(), session: newSessionState(id) } };
    this.sessions.set(id, s);
    return s;
  }

  /**
   * The live session with this id (its idle clock restarts).
   * @throws BigQueryError invalid for an unknown, expired, ended or malformed id.
   */
  async use(id: string, projectId: string): Promise<Session> {
    await this.expire();
    const s = this.sessions.get(id);
    if (!s || s.projectId !== projectId) throw invalidSessionError();
    s.lastUsed = Date.now();
    return s;
  }

  /** Ends a session and drops its TEMP tables (CALL BQ.ABORT_SESSION(), expiry). */
  async end(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await dropTempScope(this.engine, s.temp);
  }

  /** Ends every session idle for longer than the lifetime. */
  async expire(now = Date.now()): Promise<void> {
    for (const s of [...this.sessions.values()]) if (now - s.lastUsed > this.idleMs) await this.end(s.id);
  }
}

/** Drops a TEMP scope's hidden dataset and its tables. */
export async function dropTempScope(e: Engine, t: TempScope): Promise<void> {
  if (!e.catalog.getDataset(t.projectId, t.datasetId)) return;
  // Best effort: one table that cannot be dropped does not keep the others (or the session's end) back.
  for (const table of e.catalog.listTables(t.projectId, t.datasetId)) await dropTableObject(e, table).catch(logIgnored(e.log, 'dropping a TEMP table', 'warn'));
  await e.catalog.deleteDataset(t.projectId, t.datasetId).catch(logIgnored(e.log, 'deleting a TEMP dataset', 'warn'));
  t.tables.clear();
}
