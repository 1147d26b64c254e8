/** Query-parameter decoding and jobs.insert configuration identity (jobs.ts). */
import type { ParamValue } from '../engine/lower/context.js';
import { decodeQueryParameter } from '../wire/rest-values.js';

/** JSON with sorted keys (configuration equality of a retried jobs.insert). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** A configuration's identity for a retried jobs.insert: defaults the answer echoes do not count. */
export function configKey(c: Record<string, any>): string {
  const query = c.query && typeof c.query === 'object' ? { ...c.query, priority: c.query.priority ?? 'INTERACTIVE' } : c.query;
  return canonical({ ...c, jobType: undefined, query });
}

/**
 * Decodes REST `queryParameters` (JobConfigurationQuery parameterMode,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Job#JobConfigurationQuery): named when
 * the parameters carry names, positional otherwise.
 * @throws BigQueryError invalid for malformed parameters.
 */
export function decodeParams(list: unknown, mode?: string): { named: Map<string, ParamValue>; positional: ParamValue[] } {
  const named = new Map<string, ParamValue>();
  const positional: ParamValue[] = [];
  if (!Array.isArray(list)) return { named, positional };
  for (const p of list) {
    const d = decodeQueryParameter(p);
    const pv = { type: d.type, value: d.value };
    if (String(mode ?? '').toUpperCase() === 'POSITIONAL' || !d.name) positional.push(pv);
    else named.set(d.name.toLowerCase(), pv);
  }
  return { named, positional };
}
