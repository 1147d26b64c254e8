/**
 * BigQuery types → DuckDB storage types, for the engine. The mapping itself lives below the
 * function table in src/types/duckdb-types.ts (the function lowerings spell DuckDB types and
 * STRUCT field names too); this module re-exports it so engine code keeps one import site.
 */
export { duckFieldName, duckFieldNames, duckType, quoteIdent } from '../../types/duckdb-types.js';
