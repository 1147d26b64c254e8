/**
 * Fuzz harness: one raw HTTP request with a hard per-request deadline, and the verdict on its
 * answer. Raw `node:http` (not `fetch`) so malformed URLs reach the server byte for byte.
 *
 * The verdict follows BigQuery's REST error contract
 * (https://cloud.google.com/bigquery/docs/error-messages): a client mistake is a 4xx whose body is
 * `{error:{code, message, errors:[{reason, message, domain}], status}}`; never a 5xx, never silence.
 */
import http from 'node:http';

/** One request the fuzzers send. `path` is sent verbatim (no URL normalisation). */
export interface FuzzRequest {
  /** Generator family, e.g. `rest:wrongType`, `sql:truncate`; the summary groups by it. */
  kind: string;
  /** The discovery method it targets (e.g. `tables.insert`), when there is one. */
  label?: string;
  method: string;
  path: string;
  /** Sent as is (already serialised); absent for bodiless requests. */
  body?: string;
  headers?: Record<string, string>;
}

/** What came back (or did not). */
export interface FuzzResponse {
  /** HTTP status; 0 when no answer (see `failure`). */
  status: number;
  text: string;
  ms: number;
  /** `hang` (no answer before the deadline) or `connection` (refused/reset: a crash?). */
  failure?: 'hang' | 'connection';
  errorText?: string;
  /** The body was longer than the harness keeps (`text` holds its head only). */
  truncated?: boolean;
}

/**
 * An agent per client, so the prober is a separate client from the fuzzer. The fuzzer's own agent
 * should not keep connections alive: a server that answers a malformed request line closes the
 * socket, and a reused socket would report "socket hang up" for the next, innocent request.
 */
export function newAgent(keepAlive = true): http.Agent {
  return new http.Agent({ keepAlive, maxSockets: 64 });
}

/** Longest body text kept in a response (the rest is dropped; such an answer is judged on its status only). */
const MAX_KEPT_TEXT = 32 * 1024 * 1024;

/**
 * Sends one request to `baseUrl` and waits at most `timeoutMs` for the whole answer.
 * Never throws: connection errors and deadlines come back as `failure`.
 */
export function send(baseUrl: string, req: FuzzRequest, timeoutMs: number, agent?: http.Agent): Promise<FuzzResponse> {
  const u = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<FuzzResponse, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, ms: performance.now() - started });
    };
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(req.body));
    }
    let cr: http.ClientRequest;
    try {
      cr = http.request({ host: u.hostname, port: u.port, method: req.method, path: req.path, headers, agent });
    } catch (e) {
      // node refuses to send some paths (control characters): not the server's fault.
      resolve({ status: -1, text: '', ms: 0, errorText: (e as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      done({ status: 0, text: '', failure: 'hang', errorText: `no answer within ${timeoutMs} ms` });
      cr.destroy();
    }, timeoutMs);
    cr.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (c: Buffer) => {
        if (kept + c.length <= MAX_KEPT_TEXT) chunks.push(c);
        kept += c.length;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), truncated: kept > MAX_KEPT_TEXT }));
      res.on('error', (e) => done({ status: 0, text: '', failure: 'connection', errorText: e.message }));
    });
    cr.on('error', (e) => done({ status: 0, text: '', failure: 'connection', errorText: e.message }));
    if (req.body !== undefined) cr.end(req.body);
    else cr.end();
  });
}

/** Why an answer breaks the contract, or undefined when it is acceptable. */
export function verdict(res: FuzzResponse): string | undefined {
  if (res.status === -1) return undefined; // the client library refused to send it
  if (res.failure === 'hang') return 'hang';
  if (res.failure === 'connection') return `connection: ${res.errorText}`;
  if (res.status >= 500) return `5xx: ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 400 && !res.truncated) return errorShapeProblem(res);
  return undefined;
}

/** Checks a 4xx body against Google's error envelope; returns the problem, if any. */
export function errorShapeProblem(res: FuzzResponse): string | undefined {
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `shape: ${res.status} body is not JSON: ${res.text.slice(0, 200)}`;
  }
  const e = body?.error;
  const item = Array.isArray(e?.errors) ? e.errors[0] : undefined;
  const ok =
    e &&
    e.code === res.status &&
    typeof e.message === 'string' &&
    typeof e.status === 'string' &&
    item &&
    typeof item.reason === 'string' &&
    typeof item.message === 'string' &&
    typeof item.domain === 'string';
  return ok ? undefined : `shape: ${res.status} not Google's error shape: ${res.text.slice(0, 200)}`;
}

/**
 * The cause a failing answer is grouped under in reports: the kind of failure, the status, the
 * framework error code or BigQuery reason, and the message with ids, numbers and long runs elided.
 */
export function causeOf(problem: string, res?: FuzzResponse): string {
  const head = problem.split(':')[0];
  if (!res || res.status <= 0 || res.status < 400) return problem.replace(/\d+/g, 'N').slice(0, 100);
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `${head} ${res.status} non-JSON: ${normalize(res.text).slice(0, 80)}`;
  }
  const code = typeof body?.code === 'string' ? body.code : undefined;
  const reason = body?.error?.errors?.[0]?.reason;
  const msg = typeof body?.error?.message === 'string' ? body.error.message : typeof body?.message === 'string' ? body.message : JSON.stringify(body);
  return `${head} ${res.status} ${code ?? reason ?? ''} ${normalize(msg).slice(0, 100)}`;
}

/** Elides what varies between cases of one cause: long runs, quoted text, paths and numbers. */
function normalize(text: string): string {
  return text
    .slice(0, 2000)
    .replace(/(.)\1{15,}/g, '$1…')
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '…')
    .replace(/\/[\w./%:-]+/g, '/…')
    .replace(/\d+/g, 'N');
}
