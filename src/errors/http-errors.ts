/**
 * HTTP-level refusals, before any API method runs: a request the front end cannot read (400
 * badRequest, 408, 431), or one the emulator will not serve for its host's safety (403
 * accessDenied). Google's front ends answer such requests before the API; the texts are the
 * emulator's own, naming what was wrong (src/server/rest/framework-errors.ts,
 * src/server/rest/network-guards.ts).
 */
import type { BigQueryError } from './bigquery-error.js';
import { badRequest, invalid } from './reasons.js';
import { forbiddenRequest } from './access-denied.js';

/** 400 badRequest: a URL with malformed percent-encoding; `path` the undecodable part. */
export function invalidRequestUrl(path: string): BigQueryError {
  return badRequest(`Invalid request URL: '${path}' is not a valid URL component.`);
}

/**
 * 400 invalid: a path id longer than BigQuery ids can be (1,024 characters,
 * https://cloud.google.com/bigquery/docs/datasets#dataset-naming); `maxChars` the limit as sent
 * (percent-encoded).
 */
export function resourceIdTooLong(maxChars: number): BigQueryError {
  return invalid(`Invalid resource ID in the request URL: ids must be at most 1024 characters long (${maxChars} characters as sent, percent-encoded).`);
}

/** 400 badRequest: a Content-Length that does not match the body. */
export function contentLengthMismatch(): BigQueryError {
  return badRequest('Invalid request: the Content-Length header does not match the body.');
}

/** 403 accessDenied: a body whose Content-Type the JSON API does not parse. */
export function unsupportedMediaType(): BigQueryError {
  return forbiddenRequest('Invalid request: unsupported Content-Type. BigQuery REST requests carry JSON (Content-Type: application/json).');
}

/** 403 accessDenied: a body with a non-JSON Content-Type (`type`, empty when none) on a `method` request. */
export function contentTypeNotAccepted(type: string, method: string): BigQueryError {
  return forbiddenRequest(`Content-Type ${type ? `"${type}"` : '(none)'} is not accepted for ${method} requests: BigQuery REST requests carry JSON (Content-Type: application/json).`);
}

/** 400 badRequest for another client error of the HTTP framework; `code` its error code. */
export function clientRequestError(code: string | undefined): BigQueryError {
  return badRequest(`Invalid request: ${code ?? 'bad request'}.`);
}

/** 431 badRequest: a URL and headers over Node's 16 KiB limit. */
export function headersTooLarge(): BigQueryError {
  return badRequest('Invalid request: the request URL and headers exceed 16384 bytes.', 431);
}

/** 408 badRequest: a request not received within the server's request timeout. */
export function requestTimeout(): BigQueryError {
  return badRequest('Invalid request: the request was not received in time.', 408);
}

/** 400 badRequest: bytes Node's HTTP parser cannot read as a request. */
export function notHttp(): BigQueryError {
  return badRequest('Invalid request: the request is not valid HTTP.');
}

/** 403 accessDenied: a `Host` header the emulator does not serve (DNS-rebinding guard). */
export function hostNotServed(host: string): BigQueryError {
  return forbiddenRequest(`Host "${host}" is not served by this emulator. Add it with --allowed-host if clients reach the emulator by that name.`);
}

/** 403 accessDenied: a browser `Origin` the emulator was not told to accept. */
export function originNotAccepted(origin: string): BigQueryError {
  return forbiddenRequest(`Requests from origin ${origin} are not accepted. Allow a browser origin with --cors-origin.`);
}
