/**
 * Utility functions (BigQuery "Utility functions" page, utility-functions): GENERATE_UUID and
 * TYPEOF. TYPEOF answers the GoogleSQL spelling of its argument's static type (e.g. `INT64`,
 * `ARRAY<STRING>`), known at analysis time.
 */
import { typeToSql } from '../types/types.js';
import type { FnTable } from './registry.js';

/** The utility_functions page. */
export const UTILITY_FUNCTIONS: FnTable = {
  generate_uuid: () => 'CAST(uuid() AS VARCHAR)',
  typeof: (c) => `'${typeToSql(c.argTypes[0]).replace(/'/g, "''")}'`,
};
