/**
 * 400 invalid errors of tables, schemas and rows: schema updates, tabledata.insertAll rows, load
 * and copy schemas, partitioning and clustering fields (reason invalid,
 * https://cloud.google.com/bigquery/docs/error-messages).
 */
import type { BigQueryError } from './bigquery-error.js';
import { invalid, invalidQuery } from './reasons.js';

/**
 * 400 invalid `Provided Schema does not match Table p:d.t. <detail>` — a schema update or a
 * load/copy into an existing table that drops, retypes or re-modes a field. BigQuery's texts:
 * "… Field x is missing in new schema" (mozilla/mozilla-schema-generator#100), "… Field x has
 * changed type from STRING to INTEGER", "… Field x has changed mode from NULLABLE to REPEATED".
 */
export function schemaMismatch(table: string, detail: string): BigQueryError {
  return invalid(`Provided Schema does not match Table ${table}. ${detail}`);
}

/** 400 invalid at `schema`: two columns with one name (case-insensitive, https://cloud.google.com/bigquery/docs/schemas#column_names). */
export function duplicateColumnNames(name: string): BigQueryError {
  return invalid(`Duplicate column names: ${name}`, 'schema');
}

/** 400 invalid: tabledata.list of a view or other table that holds no rows of its own (`type` its table type). */
export function cannotListTableType(type: string): BigQueryError {
  return invalid(`Cannot list a table of type ${type}.`);
}

/** 400 invalid: tabledata.insertAll into a view or other non-table (`type` its table type). */
export function cannotInsertIntoTableType(type: string): BigQueryError {
  return invalid(`Cannot insert into a table of type ${type}.`);
}

/** 400 invalid at `rows`: tabledata.insertAll `rows` that is not a list. */
export function insertAllRowsNotList(): BigQueryError {
  return invalid(`Invalid value at 'rows': expected a list of rows.`, 'rows');
}

/** 400 invalid `No rows present in the request.` — tabledata.insertAll without rows (BigQuery's text, quoted in google/clusterfuzz#721 and googleapis/google-api-ruby-client#220). */
export function noRowsPresent(): BigQueryError {
  return invalid('No rows present in the request.');
}

/** 400 invalid: a tabledata.insertAll row without its `json` object. */
export function missingRowData(): BigQueryError {
  return invalid('Missing row data (json).');
}

/** 400 invalid `no such field: <name>.` at `name` — an insertAll row field the table does not have (BigQuery's per-row text, quoted in googleapis/google-cloud-dotnet#8206). */
export function insertAllNoSuchField(name: string): BigQueryError {
  return invalid(`no such field: ${name}.`, name);
}

/** 400 invalid `No such field: <name>.` — a load or external-table row field the schema does not have (the insertAll text, capitalised as the emulator's load errors are; BigQuery's load wording is not recorded). */
export function noSuchField(name: string): BigQueryError {
  return invalid(`No such field: ${name}.`);
}

/** 400 invalid `Missing required field: <name>.` — a row without a REQUIRED field; `location` the field, for insertAll rows. */
export function missingRequiredField(name: string, location?: string): BigQueryError {
  return invalid(`Missing required field: ${name}.`, location);
}

/**
 * 400 invalid `No schema specified on job or table.` — a load or external table with no schema and
 * no autodetect (JobConfigurationLoad.schema, src/server/rest/bigquery-v2-discovery.json; the text
 * as src/jobs/load.ts documents it).
 */
export function noSchemaSpecified(): BigQueryError {
  return invalid('No schema specified on job or table.');
}

/** 400 invalid: tables.insert of a view whose query is not a SELECT (https://cloud.google.com/bigquery/docs/views). */
export function viewQueryNotSelect(): BigQueryError {
  return invalid('A view query must be a SELECT statement');
}

/**
 * `<p:d.t> is not allowed for this operation because it is currently a <KIND>.` — BigQuery's text
 * for an operation on a view, snapshot or other table type that does not allow it. `reason`
 * follows where it is met: `invalid` for a job configuration, `invalidQuery` (location `query`)
 * for a statement.
 */
export function operationNotAllowed(table: string, kind: string, reason: 'invalid' | 'invalidQuery' = 'invalid'): BigQueryError {
  const message = `${table} is not allowed for this operation because it is currently a ${kind}.`;
  return reason === 'invalid' ? invalid(message) : invalidQuery(message);
}

/** 400 invalid: a destination's time or range partitioning field that is not in the schema (recorded: conformance/fixtures/api_configuration/dest_time_partitioning_invalid_field). */
export function partitioningFieldNotFound(): BigQueryError {
  return invalid('The field specified for partitioning cannot be found in the schema.');
}

/** 400 invalid: a destination's clustering field that is not in the schema (recorded: conformance/fixtures/api_configuration/dest_clustering_fields_invalid_column). */
export function clusteringFieldNotFound(field: string): BigQueryError {
  return invalid(`The field specified for clustering cannot be found in the schema. Invalid field: ${field}`);
}

/** 400 invalid: rowAccessPolicies.* on a table that is not a TABLE (`name` p:d.t, `type` its type in lower case). */
export function rowAccessPoliciesOnlyOnTables(name: string, type: string): BigQueryError {
  return invalid(`Row access policies are only supported on tables; ${name} is a ${type}.`);
}

/** 400 invalidQuery: CREATE ROW ACCESS POLICY on a view (https://cloud.google.com/bigquery/docs/row-level-security-intro#limitations). */
export function rowAccessPolicyOnView(name: string): BigQueryError {
  return invalidQuery(`Row access policies can only be created on tables; ${name} is a view`);
}

/** 400 invalid at `grantees`: a row access policy grantee list that is not a list. */
export function granteesNotList(): BigQueryError {
  return invalid('grantees must be a list of IAM members', 'grantees');
}

/** 400 invalid at `grantees`: a grantee that is not an IAM member (`user:…`, `group:…`, `allUsers`, …; https://cloud.google.com/bigquery/docs/managing-row-level-security). */
export function invalidGrantee(grantee: string): BigQueryError {
  return invalid(`Invalid grantee: ${grantee}`, 'grantees');
}

/** 400 invalid `Operation cannot be performed on a nested schema. Field: <name>` — CSV extract of a table with RECORD or REPEATED fields (CSV cannot hold them: https://cloud.google.com/bigquery/docs/exporting-data#export_limitations). */
export function nestedSchemaNotExportable(field: string): BigQueryError {
  return invalid(`Operation cannot be performed on a nested schema. Field: ${field}`);
}

/**
 * 400 invalidQuery errors of ALTER TABLE on unenforced keys
 * (https://cloud.google.com/bigquery/docs/primary-foreign-keys): a second primary key, a foreign
 * key name already used, and dropping a key the table does not have. BigQuery's exact texts are
 * not recorded; these name the table and the constraint.
 */
export function primaryKeyExists(table: string): BigQueryError {
  return invalidQuery(`Table ${table} already has a primary key`);
}

/** 400 invalidQuery — ADD CONSTRAINT with a name the table's foreign keys already use (see {@link primaryKeyExists}). */
export function constraintExists(name: string, table: string): BigQueryError {
  return invalidQuery(`Constraint ${name} already exists on table ${table}`);
}

/** 400 invalidQuery — DROP PRIMARY KEY of a table without one (see {@link primaryKeyExists}). */
export function noPrimaryKey(table: string): BigQueryError {
  return invalidQuery(`Table ${table} does not have a primary key`);
}

/** 400 invalidQuery — DROP CONSTRAINT of a name the table does not have (see {@link primaryKeyExists}). */
export function constraintNotFound(name: string, table: string): BigQueryError {
  return invalidQuery(`Constraint ${name} not found on table ${table}`);
}
