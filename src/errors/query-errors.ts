/**
 * 400 invalidQuery analysis errors the emulator raises itself (the analyzer raises the rest with
 * its own text): names, columns, set operations, DDL, time travel, partition filters (reason
 * invalidQuery, location `query`, https://cloud.google.com/bigquery/docs/error-messages).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalidQuery } from './reasons.js';

/** The CORRESPONDING set-operation refusals (https://cloud.google.com/bigquery/docs/reference/standard-sql/query-syntax#corresponding). */
export const corresponding = {
  /**
   * An input with two columns of one name: the analyzer's own text for CORRESPONDING, which it
   * resolves itself (`… : a in query 1 at [1:1]`, 1-based input number, at that input).
   */
  duplicateColumns: (name: string, query: number, at: string): BigQueryError =>
    invalidQuery(`Duplicate columns found when using CORRESPONDING in set operations: ${name} in query ${query} at ${at}`),
  /** STRICT CORRESPONDING over inputs with different column names. */
  strictMismatch: (): BigQueryError => invalidQuery('Set operation with STRICT CORRESPONDING requires the same column names in every input'),
  /** CORRESPONDING over inputs with no column name in common. */
  noCommonColumns: (at: string): BigQueryError => invalidQuery(`Queries of the set operation using CORRESPONDING do not have any columns in common at ${at}`),
  /** A column of the `BY (…)` list missing from an input that must have it (every input; the first in LEFT mode; all of them in FULL mode). */
  missingColumn: (name: string): BigQueryError => invalidQuery(`Column ${name} is missing from an input of a set operation with CORRESPONDING`),
};

/** 400 invalidQuery `Type <NAME> is not supported` — an analyzer type kind the emulator has no BigQuery type for. */
export function typeNotSupported(kind: string): BigQueryError {
  return invalidQuery(`Type ${kind} is not supported`);
}

/** 400 invalidQuery `Column not found: <name>` — ALTER TABLE … ALTER/DROP/RENAME COLUMN of a missing column. */
export function columnNotFound(name: string): BigQueryError {
  return invalidQuery(`Column not found: ${name}`);
}

/** 400 invalidQuery `Column already exists: <name>` — ALTER TABLE ADD COLUMN of an existing name. */
export function columnAlreadyExists(name: string): BigQueryError {
  return invalidQuery(`Column already exists: ${name}`);
}

/** 400 invalidQuery `Cannot read from a timestamp in the future.` — FOR SYSTEM_TIME AS OF / CLONE … FOR SYSTEM_TIME AS OF past now (https://cloud.google.com/bigquery/docs/access-historical-data). */
export function timestampInFuture(): BigQueryError {
  return invalidQuery('Cannot read from a timestamp in the future.');
}

/** 400 invalidQuery: FOR SYSTEM_TIME AS OF before the table's time-travel window or creation (`ms` the requested time in ms, `firstMs` the earliest readable). */
export function snapshotTooOld(name: string, ms: number, firstMs: number): BigQueryError {
  return invalidQuery(`Invalid snapshot time ${ms} for table ${name}@${ms}. Cannot read before ${firstMs}.`);
}

/** 400 invalidQuery: FOR SYSTEM_TIME AS OF on a view, wildcard or INFORMATION_SCHEMA table. */
export function timeTravelNotStored(name: string): BigQueryError {
  return invalidQuery(`FOR SYSTEM_TIME AS OF is not supported on ${name}: it is not a stored table`);
}

/** 400 invalidQuery: a FOR SYSTEM_TIME AS OF expression that is NULL. */
export function timeTravelNull(): BigQueryError {
  return invalidQuery('FOR SYSTEM_TIME AS OF expression must not be NULL');
}

/** 400 invalidQuery: a DML statement that lost a concurrent-update race (https://cloud.google.com/bigquery/docs/data-manipulation-language#dml_statement_conflicts); `table` p:d.t. */
export function concurrentUpdate(table: string): BigQueryError {
  return invalidQuery(`Could not serialize access to table ${table} due to concurrent update`);
}

/** 400 invalidQuery: CREATE TEMP TABLE outside a script or session (https://cloud.google.com/bigquery/docs/multi-statement-queries#temporary_tables). */
export function tempTableOutsideScript(): BigQueryError {
  return invalidQuery('Use of CREATE TEMPORARY TABLE requires a script or session');
}

/** 400 invalidQuery: a temporary table name with a dataset or project; `name` as written. */
export function tempTableQualified(name: string): BigQueryError {
  return invalidQuery(`Temporary tables may not be qualified: ${name}`);
}

/** 400 invalidQuery `Query parameter '<name>' not found` — a @name or ? without a value. */
export function queryParameterNotFound(name: string): BigQueryError {
  return invalidQuery(`Query parameter '${name}' not found`);
}

/** 400 invalidQuery `Unrecognized name: <name>` — a name the statement cannot resolve at run time (ZetaSQL's text). */
export function unrecognizedName(name: string): BigQueryError {
  return invalidQuery(`Unrecognized name: ${name}`);
}

/** 400 invalidQuery: an unqualified table name without a default dataset (`shown` as written). */
export function tableNeedsDataset(shown: string): BigQueryError {
  return invalidQuery(`Table "${shown}" must be qualified with a dataset (e.g. dataset.table).`);
}

/** 400 invalidQuery `Invalid table name: <name>`. */
export function invalidTableName(shown: string): BigQueryError {
  return invalidQuery(`Invalid table name: ${shown}`);
}

/** 400 invalidQuery `Syntax error: Unexpected end of script at [1:1]` — an empty script (the analyzer's syntax-error form, as recorded in conformance/fixtures for `Syntax error: Unexpected identifier …`). */
export function emptyScript(): BigQueryError {
  return invalidQuery('Syntax error: Unexpected end of script at [1:1]');
}

/** 400 invalidQuery: INFORMATION_SCHEMA.JOBS* qualified with a dataset instead of a region (https://cloud.google.com/bigquery/docs/information-schema-jobs#scope_and_syntax). */
export function jobViewNeedsRegion(view: string, dataset: string): BigQueryError {
  return invalidQuery(
    `INFORMATION_SCHEMA.${view} requires a region qualifier, e.g. \`region-us\`.INFORMATION_SCHEMA.${view}; it cannot be qualified with dataset ${dataset}`,
  );
}

/** 400 invalidQuery: a query over a table with `requirePartitionFilter` and no usable filter (https://cloud.google.com/bigquery/docs/querying-partitioned-tables#require_a_partition_filter_in_queries); `table` p.d.t. */
export function partitionFilterRequired(table: string, columns: string): BigQueryError {
  return invalidQuery(`Cannot query over table '${table}' without a filter over column(s) ${columns} that can be used for partition elimination`);
}

/** 400 invalidQuery: ALTER COLUMN SET DATA TYPE to a type the old one is not assignable to (https://cloud.google.com/bigquery/docs/reference/standard-sql/data-definition-language#alter_column_set_data_type_statement). */
export function columnTypeNotAssignable(from: string, to: string): BigQueryError {
  return invalidQuery(`ALTER TABLE ALTER COLUMN SET DATA TYPE requires that the existing column type (${from}) is assignable to the new type (${to})`);
}

