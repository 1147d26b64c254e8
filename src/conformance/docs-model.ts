/**
 * The shapes of the documentation-examples run (src/conformance/docs.ts): a case of
 * visible.jsonl, its report group, what the emulator answered and the outcome.
 */
import type { DisplayField } from './docs-render.js';

/** One line of visible.jsonl. */
export interface DocCase {
  id: string;
  doc: string;
  section?: string;
  line?: number;
  query: string;
  kind: 'result' | 'error';
  columns?: string[] | null;
  rows?: string[][] | null;
  ordered?: boolean;
  truncated?: boolean;
  error?: string | null;
  headerless?: boolean;
  marked_bad?: boolean;
  flags: Record<string, boolean | undefined>;
}

export type DocGroup = 'core' | 'pipe' | 'graph' | 'proto';

/** What the emulator returned. */
export type DocActual =
  | { kind: 'result'; fields: DisplayField[]; rows: unknown[][] }
  | { kind: 'error'; message: string };

export interface DocOutcome {
  id: string;
  doc: string;
  group: DocGroup;
  /** Why the case is not of a BigQuery feature (docs-scope.ts), absent when it is. */
  notBigQuery?: string;
  status: 'pass' | 'fail';
  /** Short groupable cause of a failure. */
  cause?: string;
  detail?: string;
  expected?: { columns?: string[] | null; rows?: string[][] | null; error?: string | null };
  actual?: { columns: string[]; types: string[]; rows: string[][] } | { error: string };
  durationMs: number;
}
