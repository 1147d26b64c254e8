/**
 * fastify's own request errors (router, body parsing) as BigQuery's error envelope with a 4xx —
 * never fastify's `{statusCode, code, error, message}` body, never a 5xx for a client mistake.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { BigQueryError } from '../../errors/errors.js';
import { MAX_DRAINED_REQUEST_BYTES, MAX_PATH_PARAM_CHARS, MAX_REQUEST_BYTES } from '../../config/request-limits.js';

/**
 * The BigQuery error for a fastify framework error (`err.code` `FST_…`):
 * - `FST_ERR_BAD_URL` (malformed percent-encoding) → 400 badRequest;
 * - `FST_ERR_MAX_PARAM_LENGTH` (an id longer than {@link MAX_PATH_PARAM_CHARS}) → 400 invalid:
 *   BigQuery ids are at most 1,024 characters (https://cloud.google.com/bigquery/docs/datasets#dataset-naming);
 * - `FST_ERR_CTP_BODY_TOO_LARGE` → 400 badRequest `Request payload size exceeds the limit: … bytes.`
 *   (https://cloud.google.com/bigquery/quotas, "Maximum request size");
 * - other client errors (`statusCode` < 500) → 400 badRequest with a plain description.
 * Anything else is a server error (500 backendError).
 */
export function frameworkError(err: Error & { code?: string; statusCode?: number }, bodyLimit = MAX_REQUEST_BYTES): BigQueryError {
  const path = (err.message.match(/^'(.*)' is /s)?.[1] ?? '').slice(0, 200);
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return BigQueryError.invalidRequestUrl(path);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return BigQueryError.resourceIdTooLong(MAX_PATH_PARAM_CHARS);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return BigQueryError.requestTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return BigQueryError.contentLengthMismatch();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return BigQueryError.unsupportedMediaType();
  }
  if ((err.statusCode ?? 500) < 500) return BigQueryError.clientRequestError(err.code);
  return BigQueryError.internal(err.message);
}

/**
 * fastify `clientErrorHandler`: a request Node's HTTP parser refuses before fastify sees it (a URL
 * or headers over Node's 16 KiB limit → 431, a read timeout → 408, anything unparseable → 400) is
 * answered with BigQuery's error envelope and the connection closed.
 */
export function clientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const e =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? BigQueryError.headersTooLarge()
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? BigQueryError.requestTimeout()
        : BigQueryError.notHttp();
  const body = JSON.stringify(e.toEnvelope());
  socket.end(
    `HTTP/1.1 ${e.httpStatus} ${e.httpStatus === 431 ? 'Request Header Fields Too Large' : e.httpStatus === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Reads and discards the rest of a request body the server will not use (one over the size
 * limit), so the client — which writes its whole body before reading the answer — gets the 400
 * instead of a reset connection (`write EPIPE`). Resolves `true` once the body has ended (the
 * connection can be reused), `false` when more than `capBytes` arrived or the connection closed
 * (the caller answers with `Connection: close`). Covers both a `Content-Length` known up front
 * (fastify refuses before reading) and a chunked body refused mid-way. Node's `requestTimeout`
 * bounds a client that never finishes.
 */
export function drainRequestBody(raw: IncomingMessage, capBytes = MAX_DRAINED_REQUEST_BYTES): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  // A body declared larger than the cap is not waited for at all.
  if (raw.destroyed || Number(raw.headers['content-length']) > capBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      raw.removeListener('data', onData);
      raw.removeListener('end', onEnd);
      raw.removeListener('close', onClose);
      raw.removeListener('error', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > capBytes) {
        raw.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.on('error', onClose);
    raw.resume();
  });
}
