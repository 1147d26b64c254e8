/** Coverage report model: surface categories, depth tiers, report shapes and reference lists. */
import type { VariationTag } from './tags.js';

export const SURFACE_CATEGORIES = ['function', 'statement', 'job_config', 'type', 'endpoint'] as const;
export type SurfaceCategory = (typeof SURFACE_CATEGORIES)[number];

/**
 * Depth tiers (conformance/README.md "Variation tags"): 0 uncovered, 1 sampled, 2 to 5 covered, 6
 * or more deep.
 */
export type DepthTier = 'uncovered' | 'sampled' | 'covered' | 'deep';
export const DEPTH_TIERS: DepthTier[] = ['uncovered', 'sampled', 'covered', 'deep'];

/**
 * The fixture count from which an all-happy-path item is reported as broad but shallow
 * (conformance/README.md "Variation tags").
 */
export const SHALLOW_THRESHOLD = 3;

export function depthTier(fixtureCount: number): DepthTier {
  if (fixtureCount <= 0) return 'uncovered';
  if (fixtureCount === 1) return 'sampled';
  if (fixtureCount <= 5) return 'covered';
  return 'deep';
}

/** One fixture's contribution. */
export interface CoverageFixture {
  id: string;
  kind: 'sql' | 'http' | 'grpc';
  tags: VariationTag[];
  items: { category: SurfaceCategory; name: string }[];
}

export interface SurfaceItem {
  category: SurfaceCategory;
  name: string;
  /** In the reference list of the category (false: only seen in the corpus). */
  known: boolean;
  fixtures: string[];
  tier: DepthTier;
  /** Union of the tags of the fixtures exercising the item. */
  tags: VariationTag[];
  /** 3 or more fixtures whose tag union is exactly {happy_path}. */
  shallow: boolean;
}

export interface CoverageReport {
  corpus: string;
  fixtures: CoverageFixture[];
  items: SurfaceItem[];
  /** Fixtures per tag. */
  tagCounts: Record<VariationTag, number>;
  /** Fixture directories that could not be read. */
  problems: { id: string; message: string }[];
  /** Where the known function list came from. */
  functionSource: string;
}

// ---------------------------------------------------------------------------------------------
// Reference lists
// ---------------------------------------------------------------------------------------------

/** Statement kinds of GoogleSQL on BigQuery (the statement items a complete corpus would show). */
export const KNOWN_STATEMENTS = [
  'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE TABLE',
  'CREATE TABLE', 'CREATE TABLE AS SELECT', 'CREATE TABLE LIKE', 'CREATE TABLE COPY', 'CREATE TABLE CLONE',
  'CREATE SNAPSHOT TABLE', 'CREATE EXTERNAL TABLE', 'CREATE VIEW', 'CREATE MATERIALIZED VIEW',
  'CREATE FUNCTION', 'CREATE AGGREGATE FUNCTION', 'CREATE TABLE FUNCTION', 'CREATE PROCEDURE', 'CREATE SCHEMA',
  'CREATE ROW ACCESS POLICY', 'CREATE SEARCH INDEX', 'CREATE VECTOR INDEX',
  'ALTER TABLE ADD COLUMN', 'ALTER TABLE DROP COLUMN', 'ALTER TABLE RENAME TO', 'ALTER TABLE RENAME COLUMN',
  'ALTER TABLE SET OPTIONS', 'ALTER TABLE ALTER COLUMN', 'ALTER TABLE SET DEFAULT COLLATE', 'ALTER TABLE ADD PRIMARY KEY',
  'ALTER TABLE ADD FOREIGN KEY', 'ALTER TABLE DROP PRIMARY KEY', 'ALTER TABLE DROP CONSTRAINT',
  'ALTER VIEW', 'ALTER MATERIALIZED VIEW', 'ALTER SCHEMA',
  'DROP TABLE', 'DROP SNAPSHOT TABLE', 'DROP EXTERNAL TABLE', 'DROP VIEW', 'DROP MATERIALIZED VIEW', 'DROP FUNCTION',
  'DROP TABLE FUNCTION', 'DROP PROCEDURE', 'DROP SCHEMA', 'DROP ROW ACCESS POLICY', 'DROP ALL ROW ACCESS POLICIES',
  'DROP SEARCH INDEX', 'DROP VECTOR INDEX', 'UNDROP SCHEMA',
  'DECLARE', 'SET', 'BEGIN … END', 'BEGIN TRANSACTION', 'COMMIT', 'ROLLBACK', 'IF', 'LOOP', 'WHILE', 'REPEAT',
  'FOR … IN', 'CASE', 'BREAK', 'LEAVE', 'CONTINUE', 'ITERATE', 'RETURN', 'RAISE', 'CALL', 'EXECUTE IMMEDIATE',
  'ASSERT', 'EXPORT DATA', 'LOAD DATA', 'GRANT', 'REVOKE',
];

/** Query job-configuration knobs (Python client snake_case, conformance/README.md "Recording notes" 6). */
export const KNOWN_JOB_CONFIG = [
  'allow_large_results', 'clustering_fields', 'connection_properties', 'continuous', 'create_disposition', 'create_session',
  'default_dataset', 'destination', 'destination_encryption_configuration', 'dry_run', 'flatten_results', 'job_timeout_ms',
  'labels', 'maximum_billing_tier', 'maximum_bytes_billed', 'priority', 'query_parameters:named', 'query_parameters:positional',
  'range_partitioning', 'schema_update_options', 'script_options', 'table_definitions', 'time_partitioning',
  'use_legacy_sql', 'use_query_cache', 'user_defined_function_resources', 'write_disposition',
];

export const KNOWN_TYPES = ['INT64', 'FLOAT64', 'NUMERIC', 'BIGNUMERIC', 'BOOL', 'STRING', 'BYTES', 'DATE', 'DATETIME', 'TIME', 'TIMESTAMP', 'INTERVAL', 'GEOGRAPHY', 'JSON', 'ARRAY', 'STRUCT', 'RANGE'];

/** BigQuery REST v2 methods and Storage API RPCs. */
export const KNOWN_ENDPOINTS = [
  'projects.list', 'projects.getServiceAccount',
  'datasets.list', 'datasets.insert', 'datasets.get', 'datasets.patch', 'datasets.update', 'datasets.delete', 'datasets.undelete',
  'tables.list', 'tables.insert', 'tables.get', 'tables.patch', 'tables.update', 'tables.delete',
  'tables.getIamPolicy', 'tables.setIamPolicy', 'tables.testIamPermissions',
  'tabledata.list', 'tabledata.insertAll',
  'jobs.list', 'jobs.insert', 'jobs.insert (upload)', 'jobs.get', 'jobs.cancel', 'jobs.delete', 'jobs.query', 'jobs.getQueryResults',
  'routines.list', 'routines.insert', 'routines.get', 'routines.update', 'routines.delete',
  'models.list', 'models.get', 'models.patch', 'models.delete',
  'rowAccessPolicies.list', 'rowAccessPolicies.insert', 'rowAccessPolicies.get', 'rowAccessPolicies.update',
  'rowAccessPolicies.delete', 'rowAccessPolicies.batchDelete',
  'BigQueryRead.CreateReadSession', 'BigQueryRead.ReadRows', 'BigQueryRead.SplitReadStream',
  'BigQueryWrite.CreateWriteStream', 'BigQueryWrite.AppendRows', 'BigQueryWrite.GetWriteStream',
  'BigQueryWrite.FinalizeWriteStream', 'BigQueryWrite.BatchCommitWriteStreams', 'BigQueryWrite.FlushRows',
];
