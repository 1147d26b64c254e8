/**
 * Test helper: raw HTTP against the emulator (for what the client library hides: status codes,
 * headers, malformed bodies, the `/projects/...` base path) and a promise around
 * `BigQuery#request` for endpoints the client has no method for (projects.list, PUT updates).
 */
import type { BigQuery } from '@google-cloud/bigquery';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is empty or not JSON). */
  body: any;
}

/** Sends one request; `body` is JSON-encoded unless it is already a string. */
export async function http(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** `bq.request` as a promise (absolute `uri` bypasses the client's `/projects/{id}` prefix). */
export function clientRequest<T = any>(bq: BigQuery, opts: { uri: string; method?: string; json?: unknown; qs?: Record<string, unknown> }): Promise<T> {
  return new Promise((resolve, reject) => {
    (bq as unknown as { request: (o: object, cb: (err: Error | null, body: T) => void) => void }).request(opts, (err, body) => (err ? reject(err) : resolve(body)));
  });
}
