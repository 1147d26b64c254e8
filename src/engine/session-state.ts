/**
 * What a session keeps between its jobs besides TEMP tables (BigQuery "Write queries in
 * sessions"): variables declared outside any BEGIN…END block ("session variables"), the system
 * variables a query SET (`@@dataset_id`, `@@dataset_project_id`, `@@time_zone`, `@@query_label`),
 * and temporary functions. A later job of the session sees them as if declared in it; variables
 * declared inside a BEGIN…END block are not session variables.
 *
 * The state rides on the session's TEMP scope (`QueryOptions.temp.session`, minted by
 * src/jobs/sessions.ts), so the job manager passes it without knowing of it. It lives in the engine
 * (below scripting) because a statement's names resolve against it; the interpreter
 * (src/scripting/interpreter.ts) reads and writes it.
 */
import type { ParamValue } from './lower/context.js';
import type { BqType, Value } from '../types/types.js';
import type { ParamTree } from '../types/type-params.js';

/** A script or session variable (GoogleSQL procedural language: DECLARE). */
export interface Variable {
  /** As declared (for messages). */
  name: string;
  type: BqType;
  value: Value;
  /** Type parameters of the declared type (`DECLARE x STRING(3)`), applied to every value assigned. */
  params?: ParamTree;
}

/** A system variable: its type, value, and whether SET may assign it. */
export interface SystemVariable extends ParamValue {
  settable?: boolean;
}

export interface SessionState {
  /** The session id (`@@session_id`). */
  id: string;
  /** Session variables by lower-case name (the interpreter's outermost scope). */
  variables: Map<string, Variable>;
  /** System variables a job of the session SET, by lower-case dotted path. */
  system: Map<string, SystemVariable>;
  /** Temporary functions (catalog FunctionProtos) by lower-case name. */
  functions: Map<string, object>;
}

/** A new, empty session state. */
export function newSessionState(id: string): SessionState {
  return { id, variables: new Map(), system: new Map(), functions: new Map() };
}

/** The session state a request runs with, if it runs in a session. */
export function sessionStateOf(opts: { temp?: { session?: SessionState } }): SessionState | undefined {
  return opts.temp?.session;
}

/** Whether the session holds state a statement may refer to (variables, set system variables, temp functions). */
export function hasSessionState(opts: { temp?: { session?: SessionState } }): boolean {
  const s = sessionStateOf(opts);
  return !!s && (s.variables.size > 0 || s.system.size > 0 || s.functions.size > 0);
}
