/**
 * What a JavaScript UDF's sandbox (js-udf-sandbox.ts, in a UDF worker thread) is given and
 * answers, and the UDF's signature as BigQuery prints it in UDF error texts. Apart from the
 * sandbox so that the main thread, which only sends UDFs to the workers (js-udf.ts, js-udf-pool.ts)
 * and words their errors, never loads the QuickJS interpreter (`quickjs-emscripten`, ~14 ms of a
 * cold start: bench/results/2026-11-27-cold-start-2.md).
 */
import type { BqType } from '../types/types.js';

/** What the worker needs to run a UDF (src/functions/js-udf.ts JsUdfDef plus its id). */
export interface SandboxUdf {
  id: number;
  name: string;
  argNames: string[];
  argTypes: BqType[];
  returnType: BqType;
  code: string;
}

/**
 * The answer for one batch: `ok` with one JSON text per row, `error` with BigQuery's text of a
 * thrown error (`Error: boom at f(INT64) line 1, column 1`), or a limit that was hit.
 */
export type SandboxResult = { ok: string[] } | { error: string } | { limit: 'timeout' | 'memory' };

/** `INT64`, `ARRAY<INT64>`, `STRUCT<a INT64, b STRING>`: the type as BigQuery prints it in UDF error texts. */
export function typeText(t: BqType): string {
  if (t.kind === 'ARRAY') return `ARRAY<${typeText(t.element)}>`;
  if (t.kind === 'STRUCT') return `STRUCT<${t.fields.map((f) => (f.name ? `${f.name} ${typeText(f.type)}` : typeText(f.type))).join(', ')}>`;
  return t.kind;
}

/** The UDF's signature in error texts: `f(INT64, STRING)`. */
export const udfSignature = (d: Pick<SandboxUdf, 'name' | 'argTypes'>) => `${d.name}(${d.argTypes.map(typeText).join(', ')})`;
