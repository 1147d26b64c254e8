/**
 * Network guards of the REST port, checked in `onRequest` before a body is read. A web page the
 * developer visits must not be able to drive the emulator (and through a query or a UDF, the
 * developer's machine):
 * - `Host` must name the emulator: 127.0.0.1, localhost (and `*.localhost`), [::1], any IP literal,
 *   the `--host` value or an `--allowed-host` name (`*` allows every name). A DNS-rebinding page
 *   sends its own name → 403.
 * - `Origin`, when a browser sends one, must be a `--cors-origin` value or the emulator's own
 *   origin → otherwise 403 (a cross-site `fetch`/form post is refused before it runs; another
 *   local dev server's page, `http://localhost:3000`, is cross-site too).
 * - POST/PUT/PATCH bodies must be JSON (`application/json`, `…+json`); under `/upload/` also the
 *   media upload types (`multipart/related`, `application/octet-stream`, a file's own type; any
 *   type or none on the data PUTs — `bq` sends none — which browsers never send cross-site
 *   without a preflight).
 *   `text/plain`, form encodings or a body without a content type — what a cross-site page can
 *   send without a preflight — → 403.
 * - CORS: no CORS headers at all unless `--cors-origin` names the request's origin; then the
 *   preflight (`OPTIONS`) is answered 204 for that origin only.
 * Refusals are BigQuery's error envelope, 403 `accessDenied`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { BigQueryError } from '../../errors/errors.js';
import { TOKEN_PATH } from '../service-account.js';

export interface NetworkGuardOptions {
  /** The address the server listens on (`--host`). */
  host: string;
  /** Extra host names clients may use (`--allowed-host`); `*` allows any. */
  allowedHosts?: string[];
  /** Origins (`scheme://host[:port]`) allowed to call from a browser, with CORS (`--cors-origin`). */
  corsOrigins?: string[];
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/**
 * The content types a page may POST cross-site without a CORS preflight
 * (https://fetch.spec.whatwg.org/#cors-safelisted-request-header).
 */
const CORS_SAFELISTED = /^(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const EXPOSED_HEADERS = 'Location, Range, ETag, X-GUploader-UploadID';

/** The host name of a `Host` header value (port and IPv6 brackets removed, lower case, no final dot). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  const name = h.startsWith('[') ? h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined) : h.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/** Whether a JSON media type (`application/json`, `application/foo+json`, with parameters). */
const isJson = (contentType: string) => /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType.trim());

/** Builds the `onRequest` hook enforcing the guards above. */
export function networkGuards(opts: NetworkGuardOptions) {
  const names = new Set([...LOOPBACK_NAMES, hostName(opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host), ...(opts.allowedHosts ?? []).map((h) => hostName(h))]);
  const anyHost = names.has('*');
  const cors = new Set((opts.corsOrigins ?? []).map((o) => o.replace(/\/+$/, '').toLowerCase()));
  const hostAllowed = (name: string) => anyHost || names.has(name) || isIP(name) !== 0 || name.endsWith('.localhost');
  /** A `--cors-origin`, or the emulator's own origin (a page it served itself: same host name and port). */
  const originAllowed = (origin: string, port: number | undefined): boolean => {
    if (cors.has(origin.toLowerCase())) return true;
    try {
      const u = new URL(origin);
      return u.protocol === 'http:' && hostAllowed(hostName(u.host)) && Number(u.port || 80) === port;
    } catch {
      // An Origin that is not a URL cannot be this server's own page.
      return false;
    }
  };

  return async function guard(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const host = req.headers.host;
    if (host !== undefined && !hostAllowed(hostName(host)))
      throw BigQueryError.hostNotServed(host);
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!originAllowed(origin, req.socket.localPort))
        throw BigQueryError.originNotAccepted(origin);
      if (cors.has(origin.toLowerCase())) {
        reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', EXPOSED_HEADERS);
        if (req.method === 'OPTIONS') {
          const asked = req.headers['access-control-request-headers'];
          reply
            .header('access-control-allow-methods', ALLOWED_METHODS)
            .header('access-control-allow-headers', typeof asked === 'string' && asked ? asked : 'authorization, content-type')
            .header('access-control-max-age', '600')
            .status(204)
            .send();
          return reply;
        }
      }
    }
    if (!WRITE_METHODS.has(req.method)) return;
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) return;
    const type = String(req.headers['content-type'] ?? '');
    if (isJson(type)) return;
    // The OAuth token endpoint takes a form (src/server/rest/oauth-token.ts); it needs a signed assertion, so a cross-site form post gains nothing.
    if (req.url === TOKEN_PATH && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) return;
    if (req.url.startsWith('/upload/') && (req.method === 'PUT' || (type && !CORS_SAFELISTED.test(type)))) return;
    throw BigQueryError.contentTypeNotAccepted(type, req.method);
  };
}
