/**
 * REST request errors: the API front end's answers before a method runs (a body it cannot map,
 * a value of the wrong type, a request too large, a path it does not serve). Reasons:
 * https://cloud.google.com/bigquery/docs/error-messages.
 */
import { BigQueryError } from './bigquery-error.js';
import { notFound } from './reasons.js';

/**
 * 400 invalid for a request body the front end cannot map onto the method's request message:
 * `Invalid JSON payload received. <detail>` — e.g. `Unknown name "x" at 'dataset': Cannot find
 * field.` or `Unknown name "type" at 'table.time_partitioning': Proto field is not repeating,
 * cannot start list.` (texts as answered by googleapis.com front ends, e.g.
 * https://github.com/r-dbi/bigrquery/issues/361).
 */
export function invalidJsonPayload(detail: string, location?: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid JSON payload received. ${detail}`, location);
}

/**
 * 400 invalid for a body or query-string value of the wrong type: `Invalid value at
 * 'job.job_reference.job_id' (TYPE_STRING), false` (protobuf field path in snake_case, the
 * expected protobuf type, then the value as sent in JSON).
 */
export function invalidFieldValue(path: string, protoType: string, value: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid value at '${path}' (${protoType}), ${value}`, path);
}

/**
 * 400 badRequest for a request over BigQuery's maximum request size (10 MB, "Maximum request
 * size" on https://cloud.google.com/bigquery/quotas): `Request payload size exceeds the limit:
 * 10485760 bytes.`
 */
export function requestTooLarge(limitBytes: number): BigQueryError {
  return new BigQueryError('badRequest', `Request payload size exceeds the limit: ${limitBytes} bytes.`);
}

/**
 * 400 invalid `Required parameter is missing: <field>` — a request or job configuration without
 * a field BigQuery requires (the text Google's API front ends answer; fields marked required in
 * src/server/rest/bigquery-v2-discovery.json). `location` defaults to the field.
 */
export function requiredParameterMissing(field: string, location: string = field): BigQueryError {
  return new BigQueryError('invalid', `Required parameter is missing: ${field}`, location);
}

/** 404 `Not found: <METHOD> <url>` for a path the REST server does not serve. */
export function unknownRestPath(method: string, url: string): BigQueryError {
  return notFound(`Not found: ${method} ${url}`);
}

/** 404 `Not found: upload <id>` for a resumable upload session the server does not hold. */
export function uploadNotFound(id: string): BigQueryError {
  return notFound(`Not found: upload ${id}`);
}

/**
 * The InsertErrors entry of a row that was valid but not inserted because another row of the
 * same tabledata.insertAll request failed (`skipInvalidRows` false): reason `stopped` with empty
 * fields (as the nodejs-bigquery system test "should return partial errors" receives it).
 */
export function insertAllRowStopped(): { reason: string; location: string; debugInfo: string; message: string } {
  return { reason: 'stopped', location: '', debugInfo: '', message: '' };
}

/** 400 invalid: a request body that is not a JSON object (the emulator's text; BigQuery's request messages are JSON objects). */
export function bodyNotObject(): BigQueryError {
  return new BigQueryError('invalid', 'The request body must be a JSON object.');
}

/**
 * 400 invalid: an `uploadType=multipart` request whose Content-Type is not `multipart/related`
 * with a boundary (https://cloud.google.com/bigquery/docs/reference/api-uploads); `contentType`
 * as sent, empty when none.
 */
export function multipartNotRelated(contentType: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid multipart request: Content-Type ${contentType || '(none)'} is not multipart/related with a boundary.`);
}

/** 400 invalid: a multipart upload without exactly two parts, the job resource and the data (https://cloud.google.com/bigquery/docs/reference/api-uploads). */
export function multipartPartCount(parts: number): BigQueryError {
  return new BigQueryError('invalid', `Invalid multipart request with ${parts} parts: expected the job resource and the data.`);
}

/** 400 invalid at `uploadType`: an upload type other than multipart or resumable (https://cloud.google.com/bigquery/docs/reference/api-uploads). */
export function invalidUploadType(type: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid upload type: ${type || '(none)'}. Use uploadType=multipart or uploadType=resumable.`, 'uploadType');
}

/** 400 invalid: a resumable-upload chunk whose Content-Range does not start where the received bytes end. */
export function contentRangeMismatch(range: string, received: number): BigQueryError {
  return new BigQueryError('invalid', `Invalid Content-Range ${range}: ${received} bytes were received so far.`);
}

/** 400 invalid: a resumable-upload Content-Range header that cannot be read. */
export function invalidContentRange(range: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid Content-Range: ${range}`);
}

/**
 * 500 backendError: the web console's files cannot be served (its bundle is missing from an
 * installed package, or building it in a development checkout failed); `detail` says which.
 */
export function consoleUnavailable(detail: string): BigQueryError {
  return new BigQueryError('backendError', `The web console is unavailable: ${detail}`);
}

/**
 * 400 invalid `Cannot specify both use_int64_timestamp and timestamp_output_format.` — a request
 * whose `formatOptions` set `useInt64Timestamp: true` together with `timestampOutputFormat`
 * FLOAT64 or ISO8601_STRING (the official Node client's system test timestamp_output_format,
 * nodejs-bigquery system-test/timestamp_output_format.ts, expects this text from BigQuery).
 */
export function timestampFormatConflict(): BigQueryError {
  return new BigQueryError('invalid', 'Cannot specify both use_int64_timestamp and timestamp_output_format.');
}
