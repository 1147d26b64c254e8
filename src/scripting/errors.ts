/**
 * Where a script error happened, and the `@@error` system variables an exception handler sees
 * (BigQuery procedural language reference, BEGIN...EXCEPTION...END: `@@error.message`,
 * `@@error.stack_trace` ARRAY<STRUCT<line INT64, column INT64, filename STRING, location STRING>>,
 * `@@error.statement_text`, `@@error.formatted_stack_trace`).
 */
import type { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import type { SystemVariables } from './variables.js';

/** One stack frame: 1-based line and column; `location` names the procedure (NULL at top level). */
export interface ErrorFrame {
  line: number;
  column: number;
  filename: string | null;
  location: string | null;
}

export interface ErrorContext {
  /** Text of the statement that raised the error. */
  statementText: string;
  /** Innermost frame first. */
  frames: ErrorFrame[];
}

const contexts = new WeakMap<BigQueryError, ErrorContext>();

export const errorContext = (e: BigQueryError): ErrorContext | undefined => contexts.get(e);
export const setErrorContext = (e: BigQueryError, c: ErrorContext): void => void contexts.set(e, c);

const FRAME_TYPE: BqType = {
  kind: 'STRUCT',
  fields: [
    { name: 'line', type: { kind: 'INT64' } },
    { name: 'column', type: { kind: 'INT64' } },
    { name: 'filename', type: { kind: 'STRING' } },
    { name: 'location', type: { kind: 'STRING' } },
  ],
};

/** `At [3:5]` per frame (`At p.d.proc[3:5]` inside a procedure), one line each. */
export function formatStackTrace(frames: ErrorFrame[]): string {
  return frames.map((f) => `At ${f.location ?? ''}[${f.line}:${f.column}]\n`).join('');
}

/** Sets the `@@error.*` system variables for a handler of `e` (or removes them). */
export function setErrorVariables(sys: SystemVariables, e: BigQueryError | undefined): void {
  sys.delete('error');
  if (!e) return;
  const ctx = contexts.get(e) ?? { statementText: '', frames: [] };
  const S: BqType = { kind: 'STRING' };
  sys.set('error.message', S, e.message);
  sys.set('error.statement_text', S, ctx.statementText);
  sys.set('error.formatted_stack_trace', S, formatStackTrace(ctx.frames));
  sys.set(
    'error.stack_trace',
    { kind: 'ARRAY', element: FRAME_TYPE },
    ctx.frames.map((f) => [BigInt(f.line), BigInt(f.column), f.filename, f.location]),
  );
}
