/**
 * Functions that read data held outside BigQuery, each refused by name because the emulator has no
 * connection to the service: EXTERNAL_QUERY of the federated_query_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/federated_query_functions) runs
 * SQL on a Cloud SQL, Spanner or AlloyDB database through a connection; EXTERNAL_OBJECT_TRANSFORM of
 * the table-functions-built-in page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/table-functions-built-in) reads an
 * object table over Cloud Storage.
 */
import type { FnTable } from './registry.js';

/** EXTERNAL_QUERY, EXTERNAL_OBJECT_TRANSFORM. */
export const FEDERATED_QUERY_FUNCTIONS: FnTable = {
  external_query: { unsupported: 'it runs SQL on an external database through a BigQuery connection, which the emulator does not have' },
  external_object_transform: { unsupported: 'it reads an object table over Cloud Storage, which the emulator does not have' },
};
