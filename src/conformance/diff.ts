/**
 * Outcome and difference types shared by the comparators (conformance/README.md "Fixture outcomes
 * and compared fields", "Error parity").
 */
import type { SchemaField } from './fixtures.js';
import { stringifyJson } from './jsonsafe.js';

/** What the emulator answered, in comparable plain form (see client.ts for the conversion). */
export type ActualOutcome = ActualSuccess | ActualError;

export interface ActualSuccess {
  kind: 'success';
  schema: SchemaField[];
  rows: Record<string, unknown>[];
  /** The job resource (jobs.get / dry-run insert answer), when fetched; source of `job_metadata`. */
  job?: Record<string, unknown>;
}

export interface ActualError {
  kind: 'error';
  reason?: string;
  location?: string | null;
  httpStatus?: number;
  message: string;
}

export type DiffKind =
  | 'kind mismatch'
  | 'schema'
  | 'row-count'
  | 'rows'
  | 'row-order'
  | 'job-metadata'
  | 'error-reason'
  | 'error-location'
  | 'error-status'
  | 'error-message';

/** One difference. `cause` is a short, groupable summary for the report. */
export interface Diff {
  kind: DiffKind;
  path: string;
  message: string;
  cause: string;
}

/** Short display of a value for diff messages. */
export function show(v: unknown): string {
  if (v === undefined) return '<absent>';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : stringifyJson(v);
  } catch {
    s = String(v);
  }
  return s.length > 200 ? s.slice(0, 197) + '...' : s;
}

