/**
 * The ObjectRef functions of BigQuery's objectref_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/objectref_functions): each reads
 * or signs a Cloud Storage object through a BigQuery connection, services the emulator does not
 * have, so each is refused by name.
 */
import type { FnTable } from './registry.js';

const reason = 'ObjectRef values need Cloud Storage and a BigQuery connection, which the emulator does not have';

/** OBJ.FETCH_METADATA, OBJ.GET_ACCESS_URL, OBJ.GET_READ_URL, OBJ.LIST, OBJ.MAKE_REF. */
export const OBJECTREF_FUNCTIONS: FnTable = Object.fromEntries(
  ['obj.fetch_metadata', 'obj.get_access_url', 'obj.get_read_url', 'obj.list', 'obj.make_ref'].map((n) => [n, { unsupported: reason }]),
);
