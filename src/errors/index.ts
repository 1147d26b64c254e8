/**
 * The error catalogue: every error the emulator answers is built by a factory here, one per
 * BigQuery message family, each with its reason, HTTP status and text in one place and a
 * docstring naming its source (a recorded fixture under conformance/fixtures/, a public BigQuery
 * page, or a public report quoting BigQuery's text; the emulator's own refusals say so).
 * The catalogue imports nothing outside this folder (it sits at the bottom of the layers). Files by family:
 * - bigquery-error.ts — the class, the reason → HTTP status table, the wire forms
 * - reasons.ts — one factory per reason, for texts that come from elsewhere (analyzer, DuckDB)
 * - not-found.ts, already-exists.ts — `Not found: …` (404) and `Already Exists: …` (409)
 * - not-supported.ts — the emulator's `… is not supported by bqemu`
 * - rest-errors.ts — the API front end's request errors (`Required parameter is missing`, …)
 * - http-errors.ts (HTTP-level refusals), resource-ids.ts, invalid-value.ts (`Invalid value for …`)
 * - value-errors.ts (JSON values of insertAll rows and query parameters)
 * - table-errors.ts, schema-errors.ts, routine-errors.ts, job-errors.ts, load-errors.ts, orc-errors.ts
 * - query-errors.ts (analysis errors the emulator raises), script-errors.ts, runtime-errors.ts
 * - write-row-errors.ts (Storage Write API rows: schema mismatches, row error texts)
 * - access-denied.ts, resources-exceeded.ts, limits.ts, internal-errors.ts (500s), rewrite.ts
 * - model-errors.ts (BigQuery ML models: none exist in the emulator), iam-errors.ts (IAM policies),
 *   undelete-errors.ts (datasets.undelete), streaming-buffer-errors.ts (DML over streamed rows)
 * - auth-errors.ts (401s of --require-auth, the OAuth token endpoint's error bodies)
 * - hll-errors.ts (HLL_COUNT.* sketch and precision errors)
 *
 * `BigQueryError` is exported with every factory attached as a static (`BigQueryError.tableNotFound(…)`),
 * and each factory is also exported by name. test/error-catalogue.test.ts fails on any error
 * built outside this folder.
 */
import { BigQueryError as BigQueryErrorClass } from './bigquery-error.js';
import * as reasons from './reasons.js';
import * as notFound from './not-found.js';
import * as alreadyExists from './already-exists.js';
import * as notSupported from './not-supported.js';
import * as rest from './rest-errors.js';
import * as accessDenied from './access-denied.js';
import * as resources from './resources-exceeded.js';
import * as limits from './limits.js';
import * as jobs from './job-errors.js';
import * as rewrite from './rewrite.js';
import * as load from './load-errors.js';
import * as resourceIds from './resource-ids.js';
import * as invalidValue from './invalid-value.js';
import * as http from './http-errors.js';
import * as tables from './table-errors.js';
import * as routines from './routine-errors.js';
import * as scripts from './script-errors.js';
import * as queries from './query-errors.js';
import * as internals from './internal-errors.js';
import * as runtimes from './runtime-errors.js';
import * as schemas from './schema-errors.js';
import * as values from './value-errors.js';
import * as storageRead from './storage-read-errors.js';
import * as models from './model-errors.js';
import * as iam from './iam-errors.js';
import * as undelete from './undelete-errors.js';
import * as metadataLimits from './metadata-limits.js';
import * as storageWrite from './storage-write-errors.js';
import * as orc from './orc-errors.js';
import * as writeRows from './write-row-errors.js';
import * as streamingBuffer from './streaming-buffer-errors.js';
import * as auth from './auth-errors.js';
import * as hll from './hll-errors.js';

export { REASON_STATUS, asBigQueryError } from './bigquery-error.js';
export type { Reason } from './bigquery-error.js';
export type { NotSupportedOptions } from './not-supported.js';
export type { StoredError } from './rewrite.js';
export * from './reasons.js';
export * from './not-found.js';
export * from './already-exists.js';
export * from './not-supported.js';
export * from './rest-errors.js';
export * from './access-denied.js';
export * from './resources-exceeded.js';
export * from './limits.js';
export * from './job-errors.js';
export * from './rewrite.js';
export * from './load-errors.js';
export * from './resource-ids.js';
export * from './invalid-value.js';
export * from './http-errors.js';
export * from './table-errors.js';
export * from './routine-errors.js';
export * from './script-errors.js';
export * from './query-errors.js';
export * from './internal-errors.js';
export * from './runtime-errors.js';
export * from './schema-errors.js';
export * from './value-errors.js';
export * from './storage-read-errors.js';
export * from './model-errors.js';
export * from './iam-errors.js';
export * from './undelete-errors.js';
export * from './storage-write-errors.js';
export * from './metadata-limits.js';
export * from './orc-errors.js';
export * from './write-row-errors.js';
export * from './streaming-buffer-errors.js';
export * from './auth-errors.js';
export * from './hll-errors.js';
export { GRPC_CODE, grpcCodeOf } from './grpc-status.js';

/** Every factory of the catalogue, by name. */
const FACTORIES = {
  ...reasons, ...notFound, ...alreadyExists, ...notSupported, ...rest, ...accessDenied, ...resources, ...limits, ...jobs, ...rewrite, ...load,
  ...resourceIds, ...invalidValue, ...http, ...tables, ...routines, ...scripts, ...queries, ...internals, ...runtimes, ...schemas, ...values,
  ...storageRead, ...models, ...iam, ...undelete, ...metadataLimits, ...storageWrite, ...orc, ...writeRows, ...streamingBuffer, ...auth, ...hll,
};

/**
 * The BigQueryError class (src/errors/bigquery-error.ts) with the catalogue's factories as
 * statics, so `BigQueryError.invalidQuery(msg)`, `e instanceof BigQueryError` and the type
 * `BigQueryError` all name the one class.
 */
export const BigQueryError: typeof BigQueryErrorClass & typeof FACTORIES = Object.assign(BigQueryErrorClass, FACTORIES);
/** The type of a BigQueryError instance. */
export type BigQueryError = BigQueryErrorClass;
