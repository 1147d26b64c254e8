/**
 * The emulator's one refusal family: `<what> is not supported by bqemu` for a statement, function,
 * option or request field BigQuery accepts but the emulator does not implement. The reason follows
 * where the refusal is met: a query gets BigQuery's analysis-error shape (400 invalidQuery,
 * location `query`); a request or job configuration gets 400 invalid (reasons:
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import { BigQueryError } from './bigquery-error.js';

/** Where a refusal is met, which fixes its reason and default location. */
export interface NotSupportedOptions {
  /** `query` (default): invalidQuery at location `query`; `request`: invalid (request bodies, job configurations). */
  in?: 'query' | 'request';
  /** The ErrorProto location of a `request` refusal (the field at fault); none by default. */
  location?: string;
  /** `are` for a plural subject (`Legacy SQL views are not supported by bqemu`). */
  verb?: 'is' | 'are';
}

/**
 * 400 `<what> is not supported by bqemu` — invalidQuery at location `query` by default, invalid
 * (optionally naming the field) with `{in: 'request'}`.
 */
export function notSupported(what: string, options: NotSupportedOptions = {}): BigQueryError {
  const message = `${what} ${options.verb ?? 'is'} not supported by bqemu`;
  return options.in === 'request'
    ? new BigQueryError('invalid', message, options.location)
    : new BigQueryError('invalidQuery', message, 'query');
}

/**
 * 400 invalidQuery at location `query`: `Legacy SQL is not supported by bqemu; set useLegacySql
 * to false` — a query job with `useLegacySql: true` (the emulator runs GoogleSQL only,
 * https://cloud.google.com/bigquery/docs/introduction-sql).
 */
export function legacySqlNotSupported(): BigQueryError {
  return new BigQueryError('invalidQuery', 'Legacy SQL is not supported by bqemu; set useLegacySql to false', 'query');
}
