/**
 * Corpus coverage report (contract §6.5 variation tags and depth tiers): which surface items —
 * builtin functions, statement kinds, job-configuration knobs, types and API endpoints — the
 * fixtures exercise, how deeply (0 uncovered, 1 sampled, 2–5 covered, 6+ deep) and which are
 * "broad but shallow" (3 or more fixtures whose tag union is exactly {happy_path}).
 *
 * Where items come from:
 * - SQL fixtures (`<phase>/<name>/`): functions, statements and types from the canonical
 *   `query.sql` (setup.sql is scaffolding and not counted); types also from `expected.json`'s schema,
 *   `parameters.json` and table schemas in `setup_rest.json`; knobs from `job_config.json` keys and
 *   the parameter mode; endpoints from `setup_rest.json` plus the call the runner makes for the
 *   canonical query (jobs.query, or jobs.insert when a knob needs it).
 * - HTTP fixtures (`http/<group>/<name>/`): endpoints of `setup_requests.json` and `request.json`;
 *   SQL items and knobs from the request bodies.
 * - gRPC fixtures (`grpc/<api>/<name>/`): the storage API methods called.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFixture, resolveSqlRoot, type Fixture, type SchemaField } from './fixtures.js';
import { parseJsonSafe, type JsonValue } from './jsonsafe.js';
import { detectTags, lexSql, VARIATION_TAGS, type VariationTag } from './tags.js';

export const SURFACE_CATEGORIES = ['function', 'statement', 'job_config', 'type', 'endpoint'] as const;
export type SurfaceCategory = (typeof SURFACE_CATEGORIES)[number];

const CATEGORY_TITLES: Record<SurfaceCategory, string> = {
  function: 'Functions',
  statement: 'Statements',
  job_config: 'Job-configuration knobs',
  type: 'Types',
  endpoint: 'Endpoints',
};

/** Depth tiers (contract §6.5): 0 uncovered, 1 sampled, 2 to 5 covered, 6 or more deep. */
export type DepthTier = 'uncovered' | 'sampled' | 'covered' | 'deep';
export const DEPTH_TIERS: DepthTier[] = ['uncovered', 'sampled', 'covered', 'deep'];

/** The fixture count from which an all-happy-path item is reported as broad but shallow (contract §8). */
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

/** Query job-configuration knobs (Python client snake_case, corpus README note 6). */
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

/** Call-shaped syntax that is not a function call (and names that are not builtins). */
const NOT_FUNCTIONS = new Set([
  'select', 'from', 'where', 'in', 'and', 'or', 'not', 'exists', 'as', 'on', 'using', 'values', 'over', 'partition', 'window',
  'struct', 'array', 'unnest', 'options', 'case', 'when', 'then', 'else', 'join', 'any', 'all', 'some', 'distinct', 'with',
  'union', 'except', 'intersect', 'table', 'into', 'by', 'group', 'order', 'having', 'limit', 'qualify', 'returns', 'recursive',
  'range', 'rows', 'between', 'is', 'like', 'set', 'declare', 'call', 'procedure', 'function', 'view', 'insert', 'update',
  'delete', 'merge', 'create', 'replace', 'if', 'elseif', 'while', 'until', 'return', 'language', 'tablesample', 'system',
  'pivot', 'unpivot', 'for', 'rollup', 'cube', 'grouping sets', 'sets', 'respect', 'ignore', 'nulls', 'interval', 'at', 'zone',
  'int64', 'float64', 'numeric', 'bignumeric', 'decimal', 'bigdecimal', 'string', 'bytes', 'bool', 'date', 'datetime', 'time',
  'timestamp', 'json', 'geography', 'key', 'foreign', 'primary', 'references', 'cluster', 'row', 'default', 'collate_', 'execute',
  'immediate', 'assert', 'export', 'data', 'load', 'raise', 'do', 'loop', 'begin', 'end', 'lateral', 'match_recognize',
]);

/** Special-syntax functions of the function reference that the analyzer lists only as `$…` operators. */
const SPECIAL_FUNCTIONS = ['cast', 'safe_cast', 'extract'];

// ---------------------------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------------------------

/**
 * Function calls in SQL text: identifiers (dotted names included) followed by `(`, lower-cased,
 * outside strings and comments. A `SAFE.` prefix is dropped. Names defined by CREATE FUNCTION in the
 * same text and call-shaped keywords are not functions.
 */
export function extractFunctionCalls(sql: string): string[] {
  const { code } = lexSql(sql);
  const defined = new Set<string>();
  for (const m of code.matchAll(/\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:AGGREGATE\s+|TABLE\s+)?FUNCTION\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)/gi)) {
    defined.add(m[1]!.toLowerCase().split('.').pop()!);
  }
  const out = new Set<string>();
  for (const m of code.matchAll(/(?<![\w.])([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\(/g)) {
    let name = m[1]!.replace(/\s+/g, '').toLowerCase();
    if (name.includes('_q_')) continue;
    if (name.startsWith('safe.')) name = name.slice(5);
    const before = code.slice(Math.max(0, (m.index ?? 0) - 12), m.index).toUpperCase();
    if (/\b(FROM|JOIN|INTO|TABLE|FUNCTION|PROCEDURE|CALL|EXISTS)\s*$/.test(before)) continue;
    const last = name.split('.').pop()!;
    if (defined.has(last) || NOT_FUNCTIONS.has(name)) continue;
    out.add(name);
  }
  return [...out];
}

const TYPE_ALIASES: Record<string, string> = {
  INT64: 'INT64', INT: 'INT64', INTEGER: 'INT64', SMALLINT: 'INT64', BIGINT: 'INT64', TINYINT: 'INT64', BYTEINT: 'INT64',
  FLOAT64: 'FLOAT64', FLOAT: 'FLOAT64', NUMERIC: 'NUMERIC', DECIMAL: 'NUMERIC', BIGNUMERIC: 'BIGNUMERIC', BIGDECIMAL: 'BIGNUMERIC',
  BOOL: 'BOOL', BOOLEAN: 'BOOL', STRING: 'STRING', BYTES: 'BYTES', DATE: 'DATE', DATETIME: 'DATETIME', TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP', INTERVAL: 'INTERVAL', GEOGRAPHY: 'GEOGRAPHY', JSON: 'JSON', ARRAY: 'ARRAY', STRUCT: 'STRUCT',
  RECORD: 'STRUCT', RANGE: 'RANGE',
};
const TYPE_WORD = Object.keys(TYPE_ALIASES).join('|');

/** Canonical type name of a schema/parameter/SQL type word (`INTEGER` → `INT64`), or undefined. */
export function canonicalType(word: string): string | undefined {
  return TYPE_ALIASES[word.toUpperCase()];
}

/**
 * Type names written in SQL text: casts (`AS <type>` before `)`, `<` or `(`), typed literals
 * (`DATE '…'`, `JSON '…'`, `INTERVAL …`), parameterised types (`ARRAY<…>`, `STRUCT<…>`, `RANGE<…>`
 * and what they contain) and column/parameter declarations of DDL and DECLARE.
 */
export function extractSqlTypes(sql: string): string[] {
  const { code } = lexSql(sql);
  const out = new Set<string>();
  const add = (w: string) => {
    const t = canonicalType(w);
    if (t) out.add(t);
  };
  for (const m of code.matchAll(new RegExp(`\\bAS\\s+(${TYPE_WORD})\\b\\s*(?=[)<(])`, 'gi'))) add(m[1]!);
  for (const m of code.matchAll(/\b(DATE|DATETIME|TIME|TIMESTAMP|NUMERIC|BIGNUMERIC|DECIMAL|BIGDECIMAL|JSON)\s*''/gi)) add(m[1]!);
  if (/\bINTERVAL\s+(?:''|[-+]?\d|\()/i.test(code)) out.add('INTERVAL');
  for (const m of code.matchAll(/\b(ARRAY|STRUCT|RANGE)\s*</gi)) {
    add(m[1]!);
    let depth = 0;
    let j = (m.index ?? 0) + m[0].length - 1;
    const start = j;
    for (; j < code.length; j++) {
      if (code[j] === '<') depth++;
      else if (code[j] === '>' && --depth === 0) break;
    }
    for (const w of code.slice(start + 1, j).matchAll(new RegExp(`\\b(${TYPE_WORD})\\b`, 'gi'))) add(w[1]!);
  }
  for (const stmt of code.split(';')) {
    if (!/^\s*(CREATE|ALTER|DECLARE)\b/i.test(stmt)) continue;
    const head = stmt.split(/\bAS\s*(?:\(|SELECT\b|WITH\b|''|r'')/i)[0]!;
    for (const m of head.matchAll(new RegExp(`\\b[A-Za-z_]\\w*\\s+(${TYPE_WORD})\\b`, 'gi'))) {
      if (/^(TABLE|VIEW|FUNCTION|EXISTS|REPLACE|TEMP|TEMPORARY|SCHEMA|COLUMN|RETURNS|DEFAULT|TYPE)\s/i.test(m[0])) {
        // `RETURNS INT64`, `SET DATA TYPE STRING`: a type after a keyword still names a type.
        if (/^(RETURNS|TYPE)\s/i.test(m[0])) add(m[1]!);
        continue;
      }
      add(m[1]!);
    }
  }
  return [...out];
}

function wordsAt(code: string): string[] {
  return code.trim().toUpperCase().split(/\s+/).filter(Boolean);
}

/** Index just past the first depth-0 occurrence of keyword `kw` in `code`, or -1. */
function afterKeyword(code: string, kw: string): number {
  let depth = 0;
  const re = /[()]|\b[A-Za-z_]+\b/g;
  for (const m of code.matchAll(re)) {
    if (m[0] === '(') depth++;
    else if (m[0] === ')') depth--;
    else if (depth === 0 && m[0].toUpperCase() === kw) return (m.index ?? 0) + m[0].length;
  }
  return -1;
}

const ALTER_TABLE_ACTIONS = ['ADD COLUMN', 'DROP COLUMN', 'RENAME TO', 'RENAME COLUMN', 'SET OPTIONS', 'ALTER COLUMN', 'SET DEFAULT COLLATE', 'ADD PRIMARY KEY', 'ADD FOREIGN KEY', 'ADD CONSTRAINT', 'DROP PRIMARY KEY', 'DROP CONSTRAINT'];

function classifyCreate(words: string[], code: string): string {
  let i = 1;
  if (words[i] === 'OR' && words[i + 1] === 'REPLACE') i += 2;
  if (words[i] === 'TEMP' || words[i] === 'TEMPORARY') i++;
  const w = words[i] ?? '';
  const w2 = words[i + 1] ?? '';
  const w3 = words[i + 2] ?? '';
  if (w === 'TABLE' && w2 === 'FUNCTION') return 'CREATE TABLE FUNCTION';
  if (w === 'TABLE') {
    const tail = code.toUpperCase();
    if (/\bCLONE\b/.test(tail)) return 'CREATE TABLE CLONE';
    if (/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[\w.]+\s+COPY\b/.test(tail)) return 'CREATE TABLE COPY';
    if (/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[\w.]+\s+LIKE\b/.test(tail)) return 'CREATE TABLE LIKE';
    if (afterKeyword(code, 'AS') >= 0) return 'CREATE TABLE AS SELECT';
    return 'CREATE TABLE';
  }
  if (w === 'ROW' && w2 === 'ACCESS') return 'CREATE ROW ACCESS POLICY';
  if (['MATERIALIZED', 'EXTERNAL', 'SNAPSHOT', 'SEARCH', 'VECTOR', 'AGGREGATE'].includes(w)) return `CREATE ${w} ${w2}`;
  if (w === 'FUNCTION' || w === 'PROCEDURE' || w === 'VIEW' || w === 'SCHEMA' || w === 'MODEL') return `CREATE ${w}`;
  return `CREATE ${[w, w2, w3].filter(Boolean).join(' ')}`.trim();
}

function classifyAlter(words: string[], code: string): string {
  const kind = words[1] === 'MATERIALIZED' ? 'MATERIALIZED VIEW' : words[1] ?? '';
  if (kind !== 'TABLE') return `ALTER ${kind}`.trim();
  const up = ` ${wordsAt(code).join(' ')} `;
  for (const a of ALTER_TABLE_ACTIONS) if (up.includes(` ${a} `)) return `ALTER TABLE ${a}`;
  if (/ ADD /.test(up)) return 'ALTER TABLE ADD COLUMN';
  return 'ALTER TABLE';
}

function classifyDrop(words: string[]): string {
  if (words[1] === 'ALL') return 'DROP ALL ROW ACCESS POLICIES';
  if (words[1] === 'ROW') return 'DROP ROW ACCESS POLICY';
  if (words[1] === 'TABLE' && words[2] === 'FUNCTION') return 'DROP TABLE FUNCTION';
  if (['MATERIALIZED', 'EXTERNAL', 'SNAPSHOT', 'SEARCH', 'VECTOR'].includes(words[1] ?? '')) return `DROP ${words[1]} ${words[2] ?? ''}`.trim();
  return `DROP ${words[1] ?? ''}`.trim();
}

/**
 * Statement kinds of SQL text (script or single statement). Script blocks are entered: `BEGIN`,
 * `IF … THEN`, `WHILE … DO`, `LOOP`, `REPEAT` and `FOR … IN … DO` count themselves and the
 * statement they open with; `END …`, `ELSE` and `UNTIL` lines only close blocks.
 */
export function extractStatements(sql: string): string[] {
  const { code } = lexSql(sql);
  const out = new Set<string>();
  const parts = code.split(';');
  for (let part of parts) {
    for (let guard = 0; guard < 8; guard++) {
      part = part.replace(/^\s*[A-Za-z_]\w*\s*:(?!:)/, ''); // a block label
      const words = wordsAt(part);
      const w0 = words[0];
      if (w0 === undefined) break;
      const next = (kw: string): boolean => {
        const at = afterKeyword(part, kw);
        if (at < 0) return false;
        part = part.slice(at);
        return true;
      };
      if (w0 === 'END' || w0 === 'UNTIL') break;
      if (w0 === 'ELSE') {
        part = part.replace(/^\s*ELSE\b/i, '');
        continue;
      }
      if (w0 === 'BEGIN') {
        // `BEGIN;` and `BEGIN TRANSACTION` open a transaction; `BEGIN <statement>` opens a block.
        if (words.length === 1 || words[1] === 'TRANSACTION') {
          out.add('BEGIN TRANSACTION');
          break;
        }
        out.add('BEGIN … END');
        part = part.replace(/^\s*BEGIN\b/i, '');
        continue;
      }
      if (w0 === 'IF' || w0 === 'ELSEIF') {
        if (w0 === 'IF') out.add('IF');
        if (!next('THEN')) break;
        continue;
      }
      if (w0 === 'WHILE') {
        out.add('WHILE');
        if (!next('DO')) break;
        continue;
      }
      if (w0 === 'FOR') {
        out.add('FOR … IN');
        if (!next('DO')) break;
        continue;
      }
      if (w0 === 'LOOP' || w0 === 'REPEAT') {
        out.add(w0);
        part = part.replace(/^\s*(LOOP|REPEAT)\b/i, '');
        continue;
      }
      if (w0 === 'CASE') {
        out.add('CASE');
        if (!next('THEN')) break;
        continue;
      }
      if (w0 === 'EXCEPTION') {
        // BEGIN … EXCEPTION WHEN ERROR THEN <statement>
        if (!next('THEN')) break;
        continue;
      }
      if (w0 === 'WHEN') {
        if (!next('THEN')) break;
        continue;
      }
      if (w0 === 'SELECT' || w0 === 'WITH' || w0 === 'FROM' || w0.startsWith('(')) out.add('SELECT');
      else if (w0 === 'INSERT' || w0 === 'UPDATE' || w0 === 'DELETE' || w0 === 'MERGE') out.add(w0);
      else if (w0 === 'TRUNCATE') out.add('TRUNCATE TABLE');
      else if (w0 === 'CREATE') out.add(classifyCreate(words, part));
      else if (w0 === 'ALTER') out.add(classifyAlter(words, part));
      else if (w0 === 'DROP') out.add(classifyDrop(words));
      else if (w0 === 'UNDROP') out.add('UNDROP SCHEMA');
      else if (w0 === 'EXECUTE') out.add('EXECUTE IMMEDIATE');
      else if (w0 === 'EXPORT') out.add(words[1] === 'MODEL' ? 'EXPORT MODEL' : 'EXPORT DATA');
      else if (w0 === 'LOAD') out.add('LOAD DATA');
      else if (w0 === 'COMMIT' || w0 === 'ROLLBACK') out.add(w0);
      else if (['DECLARE', 'SET', 'CALL', 'RETURN', 'RAISE', 'BREAK', 'LEAVE', 'CONTINUE', 'ITERATE', 'ASSERT', 'GRANT', 'REVOKE'].includes(w0)) out.add(w0);
      else out.add(`other: ${w0}`);
      break;
    }
  }
  return [...out];
}

/** `POST /bigquery/v2/projects/p/datasets/d/tables` → `tables.insert` (REST v2 method names). */
export function restMethodName(method: string, path: string): string {
  const verb = method.toUpperCase();
  const upload = /^\/?upload\//.test(path);
  const segs = path.split('?')[0]!.replace(/^\/?(upload\/)?bigquery\/v2\//, '').replace(/^\//, '').split('/').filter(Boolean);
  const template = `${verb} /${segs.map((s, i) => (i % 2 === 1 ? '{}' : s)).join('/')}`;
  if (segs[0] !== 'projects') return template;
  if (segs.length === 1) return 'projects.list';
  const rest = segs.slice(2);
  const coll = (resource: string, hasId: boolean, action?: string): string => {
    if (action) return `${resource}.${action.replace(/^:/, '')}`;
    if (!hasId) return verb === 'GET' ? `${resource}.list` : verb === 'POST' ? `${resource}.insert` : template;
    return { GET: 'get', PATCH: 'patch', PUT: 'update', DELETE: 'delete' }[verb] ? `${resource}.${{ GET: 'get', PATCH: 'patch', PUT: 'update', DELETE: 'delete' }[verb]}` : template;
  };
  const [a, aId, b, bId, c, cId, d] = rest;
  if (a === undefined) return 'projects.get';
  if (a === 'serviceAccount') return 'projects.getServiceAccount';
  if (a === 'queries') return aId === undefined ? 'jobs.query' : 'jobs.getQueryResults';
  if (a === 'jobs') {
    if (aId === undefined) return verb === 'POST' ? (upload ? 'jobs.insert (upload)' : 'jobs.insert') : verb === 'PUT' && upload ? 'jobs.insert (upload)' : 'jobs.list';
    if (b === 'cancel') return 'jobs.cancel';
    if (b === 'delete') return 'jobs.delete';
    return coll('jobs', true);
  }
  if (a === 'datasets') {
    if (aId?.endsWith(':undelete')) return 'datasets.undelete';
    if (b === undefined) return coll('datasets', aId !== undefined);
    if (b === 'tables') {
      if (bId === undefined) return coll('tables', false);
      const [tid, action] = bId.split(':');
      if (action) return `tables.${action}`;
      if (tid && c === undefined) return coll('tables', true);
      if (c === 'data') return 'tabledata.list';
      if (c === 'insertAll') return 'tabledata.insertAll';
      if (c === 'rowAccessPolicies') {
        if (cId === undefined) return coll('rowAccessPolicies', false);
        if (cId.endsWith(':batchDelete')) return 'rowAccessPolicies.batchDelete';
        return d ? template : coll('rowAccessPolicies', true);
      }
      return template;
    }
    if (b === 'routines' || b === 'models') return coll(b, bId !== undefined);
  }
  return template;
}

// ---------------------------------------------------------------------------------------------
// Corpus walk
// ---------------------------------------------------------------------------------------------

function walkSchemaTypes(fields: SchemaField[] | undefined, out: Set<string>): void {
  for (const f of fields ?? []) {
    const t = canonicalType(f.type);
    if (t) out.add(t);
    if ((f.mode ?? '').toUpperCase() === 'REPEATED') out.add('ARRAY');
    walkSchemaTypes(f.fields, out);
  }
}

function walkJsonTypes(v: JsonValue | undefined, out: Set<string>): void {
  if (v === null || v === undefined) return;
  if (typeof v === 'string') {
    for (const w of v.matchAll(new RegExp(`\\b(${TYPE_WORD})\\b`, 'g'))) {
      const t = canonicalType(w[1]!);
      if (t) out.add(t);
    }
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) walkJsonTypes(x, out);
    return;
  }
  if (typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'type' || k === 'arrayType' || k === 'typeKind') && typeof x === 'string') {
        const t = canonicalType(x);
        if (t) out.add(t);
      } else if (k === 'mode' && typeof x === 'string' && x.toUpperCase() === 'REPEATED') out.add('ARRAY');
      else if (k === 'arrayType' || k === 'structTypes' || k === 'rangeElementType') {
        out.add(k === 'arrayType' ? 'ARRAY' : k === 'structTypes' ? 'STRUCT' : 'RANGE');
        walkJsonTypes(x, out);
      } else if (typeof x === 'object') walkJsonTypes(x, out);
    }
  }
}

/** The `schema` objects of REST bodies (tables.insert / tables.patch). */
function bodySchemaTypes(body: JsonValue | undefined, out: Set<string>): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const schema = (body as Record<string, JsonValue>).schema;
  if (schema) walkJsonTypes(schema, out);
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Query texts and knobs carried by a REST body (jobs.query or jobs.insert). */
function bodyQueryParts(body: JsonValue | undefined): { queries: string[]; knobs: string[] } {
  const queries: string[] = [];
  const knobs: string[] = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { queries, knobs };
  const b = body as Record<string, JsonValue>;
  const pick = (o: Record<string, JsonValue>, skip: string[]) => {
    for (const k of Object.keys(o)) {
      if (skip.includes(k)) continue;
      if (k === 'queryParameters') continue;
      if (k === 'parameterMode') knobs.push(`query_parameters:${String(o[k]).toLowerCase()}`);
      else knobs.push(snake(k));
    }
  };
  if (typeof b.query === 'string') {
    queries.push(b.query);
    pick(b, ['query', 'kind', 'requestId', 'formatOptions', 'maxResults', 'timeoutMs', 'location', 'jobCreationMode']);
  }
  const cfg = b.configuration;
  if (cfg && typeof cfg === 'object' && !Array.isArray(cfg)) {
    const c = cfg as Record<string, JsonValue>;
    pick(c, ['query', 'load', 'extract', 'copy', 'jobType']);
    const q = c.query;
    if (q && typeof q === 'object' && !Array.isArray(q)) {
      const qq = q as Record<string, JsonValue>;
      if (typeof qq.query === 'string') queries.push(qq.query);
      pick(qq, ['query', 'destinationTable']);
      if (qq.destinationTable) knobs.push('destination');
    }
  }
  return { queries, knobs };
}

function readJsonFile(p: string): JsonValue | undefined {
  if (!existsSync(p)) return undefined;
  return parseJsonSafe(readFileSync(p, 'utf8'));
}

function subdirs(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .sort()
    .filter((n) => statSync(join(dir, n)).isDirectory());
}

interface Collector {
  add(fx: CoverageFixture): void;
}

function sqlItems(queries: string[], items: CoverageFixture['items'], types: Set<string>): void {
  for (const q of queries) {
    for (const f of extractFunctionCalls(q)) items.push({ category: 'function', name: f });
    for (const s of extractStatements(q)) items.push({ category: 'statement', name: s });
    for (const t of extractSqlTypes(q)) types.add(t);
  }
}

function collectSql(sqlRoot: string, col: Collector, problems: CoverageReport['problems'], needsInsert: (cfg: Record<string, JsonValue>) => boolean): void {
  for (const phase of subdirs(sqlRoot)) {
    for (const name of subdirs(join(sqlRoot, phase))) {
      const dir = join(sqlRoot, phase, name);
      if (!existsSync(join(dir, 'query.sql'))) continue;
      const id = `${phase}/${name}`;
      let fx: Fixture;
      try {
        fx = loadFixture(dir);
      } catch (e) {
        problems.push({ id, message: (e as Error).message });
        continue;
      }
      const items: CoverageFixture['items'] = [];
      const types = new Set<string>();
      sqlItems([fx.query], items, types);
      walkSchemaTypes(fx.expected.schema, types);
      if (fx.parameters) {
        items.push({ category: 'job_config', name: `query_parameters:${fx.parameters.mode}` });
        for (const p of fx.parameters.parameters) walkJsonTypes(typeof p.type === 'string' ? { type: p.type } : p.type, types);
      }
      for (const k of Object.keys(fx.jobConfig ?? {})) items.push({ category: 'job_config', name: k });
      for (const step of fx.setupRest ?? []) {
        items.push({ category: 'endpoint', name: restMethodName(step.method, step.path) });
        bodySchemaTypes(step.body, types);
      }
      items.push({ category: 'endpoint', name: fx.jobConfig && needsInsert(fx.jobConfig) ? 'jobs.insert' : 'jobs.query' });
      for (const t of types) items.push({ category: 'type', name: t });
      col.add({ id, kind: 'sql', tags: detectTags({ name: fx.name, query: fx.query, expected: fx.expected }), items });
    }
  }
}

function asSteps(v: JsonValue | undefined): { method: string; path: string; body?: JsonValue }[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : typeof v === 'object' && Array.isArray((v as Record<string, JsonValue>).calls) ? ((v as Record<string, JsonValue>).calls as JsonValue[]) : [v];
  const out: { method: string; path: string; body?: JsonValue }[] = [];
  for (const s of list) {
    if (s && typeof s === 'object' && !Array.isArray(s) && typeof s.method === 'string') {
      out.push({ method: s.method, path: typeof s.path === 'string' ? s.path : '', body: s.body ?? s.request });
    }
  }
  return out;
}

function collectHttp(httpRoot: string, col: Collector, problems: CoverageReport['problems']): void {
  for (const group of subdirs(httpRoot)) {
    for (const name of subdirs(join(httpRoot, group))) {
      const dir = join(httpRoot, group, name);
      const id = `http/${group}/${name}`;
      try {
        const req = readJsonFile(join(dir, 'request.json'));
        if (req === undefined) continue;
        const items: CoverageFixture['items'] = [];
        const types = new Set<string>();
        const queries: string[] = [];
        const steps = [...asSteps(readJsonFile(join(dir, 'setup_requests.json'))), ...asSteps(req)];
        for (const [i, s] of steps.entries()) {
          items.push({ category: 'endpoint', name: restMethodName(s.method, s.path) });
          bodySchemaTypes(s.body, types);
          const parts = bodyQueryParts(s.body);
          // Only the fixture's own request counts for knobs and SQL; setup requests are scaffolding.
          if (i === steps.length - 1) {
            queries.push(...parts.queries);
            for (const k of parts.knobs) items.push({ category: 'job_config', name: k });
          }
        }
        sqlItems(queries, items, types);
        for (const t of types) items.push({ category: 'type', name: t });
        const resp = readJsonFile(join(dir, 'expected_response.json'));
        const body = resp && typeof resp === 'object' && !Array.isArray(resp) ? (resp as Record<string, JsonValue>).body : undefined;
        col.add({ id, kind: 'http', tags: detectTags({ name, query: queries.join('\n'), expected: body }), items });
      } catch (e) {
        problems.push({ id, message: (e as Error).message });
      }
    }
  }
}

function collectGrpc(grpcRoot: string, col: Collector, problems: CoverageReport['problems']): void {
  for (const api of subdirs(grpcRoot)) {
    for (const name of subdirs(join(grpcRoot, api))) {
      const dir = join(grpcRoot, api, name);
      const id = `grpc/${api}/${name}`;
      try {
        const req = readJsonFile(join(dir, 'request.json'));
        if (req === undefined) continue;
        const items: CoverageFixture['items'] = asSteps(req).map((s) => ({ category: 'endpoint' as const, name: s.method }));
        const resp = readJsonFile(join(dir, 'expected_response.json'));
        const calls = resp && typeof resp === 'object' && !Array.isArray(resp) ? (resp as Record<string, JsonValue>).calls : undefined;
        const failed = Array.isArray(calls) && calls.some((c) => c && typeof c === 'object' && !Array.isArray(c) && typeof c.status === 'string' && c.status !== 'OK');
        // A failed call stands for the `error` key of an expected.json.
        col.add({ id, kind: 'grpc', tags: detectTags({ name, query: '', expected: failed ? { error: true } : {} }), items });
      } catch (e) {
        problems.push({ id, message: (e as Error).message });
      }
    }
  }
}

/** Options of {@link collectCoverage}. */
export interface CoverageOptions {
  /** Corpus root, `bigquery-recorded/`, its `sql/` directory or a project fixture root. */
  corpus: string;
  /** Known builtin function names (lower case); corpus-only names are added as unknown items. */
  knownFunctions?: string[];
  functionSource?: string;
  /** Whether the canonical query of a job_config needs jobs.insert (the runner's rule). */
  needsJobInsert?: (cfg: Record<string, JsonValue>) => boolean;
}

function firstDir(cands: string[]): string | undefined {
  return cands.find((c) => existsSync(c) && statSync(c).isDirectory());
}

/** Walk the corpus and build the report. */
export function collectCoverage(opts: CoverageOptions): CoverageReport {
  const sqlRoot = resolveSqlRoot(opts.corpus);
  const fixtures: CoverageFixture[] = [];
  const problems: CoverageReport['problems'] = [];
  const col: Collector = { add: (f) => fixtures.push(f) };
  collectSql(sqlRoot, col, problems, opts.needsJobInsert ?? ((cfg) => 'destination' in cfg || 'dry_run' in cfg));
  const httpRoot = firstDir([join(opts.corpus, 'http'), join(opts.corpus, 'bigquery-recorded', 'http'), join(sqlRoot, '..', 'http')]);
  if (httpRoot) collectHttp(httpRoot, col, problems);
  const grpcRoot = firstDir([join(opts.corpus, 'grpc'), join(opts.corpus, 'bigquery-recorded', 'grpc'), join(sqlRoot, '..', 'grpc')]);
  if (grpcRoot) collectGrpc(grpcRoot, col, problems);
  return buildReport(resolve(opts.corpus), fixtures, problems, opts.knownFunctions ?? [], opts.functionSource ?? 'corpus only');
}

/** Aggregate fixtures into items (pure; exported for tests). */
export function buildReport(corpus: string, fixtures: CoverageFixture[], problems: CoverageReport['problems'], knownFunctions: string[], functionSource: string): CoverageReport {
  const known: Record<SurfaceCategory, Set<string>> = {
    function: new Set([...knownFunctions.map((f) => f.toLowerCase()).filter((f) => !f.startsWith('$')), ...SPECIAL_FUNCTIONS]),
    statement: new Set(KNOWN_STATEMENTS),
    job_config: new Set(KNOWN_JOB_CONFIG),
    type: new Set(KNOWN_TYPES),
    endpoint: new Set(KNOWN_ENDPOINTS),
  };
  const items = new Map<string, { category: SurfaceCategory; name: string; fixtures: Set<string>; tags: Set<VariationTag> }>();
  const key = (c: SurfaceCategory, n: string) => `${c}\u0000${n}`;
  const ensure = (category: SurfaceCategory, name: string) => {
    const k = key(category, name);
    let it = items.get(k);
    if (!it) {
      it = { category, name, fixtures: new Set(), tags: new Set() };
      items.set(k, it);
    }
    return it;
  };
  for (const c of SURFACE_CATEGORIES) for (const n of known[c]) ensure(c, n);
  const tagCounts = Object.fromEntries(VARIATION_TAGS.map((t) => [t, 0])) as Record<VariationTag, number>;
  for (const fx of fixtures) {
    for (const t of fx.tags) tagCounts[t]++;
    for (const { category, name } of fx.items) {
      const it = ensure(category, name);
      it.fixtures.add(fx.id);
      for (const t of fx.tags) it.tags.add(t);
    }
  }
  const out: SurfaceItem[] = [...items.values()].map((it) => {
    const tags = VARIATION_TAGS.filter((t) => it.tags.has(t));
    const n = it.fixtures.size;
    return {
      category: it.category,
      name: it.name,
      known: known[it.category].has(it.name),
      fixtures: [...it.fixtures].sort(),
      tier: depthTier(n),
      tags,
      shallow: n >= SHALLOW_THRESHOLD && tags.length === 1 && tags[0] === 'happy_path',
    };
  });
  out.sort((a, b) => SURFACE_CATEGORIES.indexOf(a.category) - SURFACE_CATEGORIES.indexOf(b.category) || b.fixtures.length - a.fixtures.length || a.name.localeCompare(b.name));
  return { corpus, fixtures, items: out, tagCounts, problems, functionSource };
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

function wrapList(names: string[], indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const n of names) {
    if (line.length + n.length + 2 > width && line.trim()) {
      lines.push(line.replace(/,\s*$/, ','));
      line = indent;
    }
    line += `${n}, `;
  }
  if (line.trim()) lines.push(line.replace(/,\s*$/, ''));
  return lines;
}

function itemLabel(it: SurfaceItem): string {
  return it.known ? it.name : `${it.name}*`;
}

/** Text report: tags, per-category tier counts and lists, broad-but-shallow items. */
export function formatCoverageText(r: CoverageReport, opts: { maxPerTier?: number } = {}): string {
  const max = opts.maxPerTier ?? 400;
  const lines: string[] = [];
  const kinds = { sql: 0, http: 0, grpc: 0 };
  for (const f of r.fixtures) kinds[f.kind]++;
  lines.push(`Coverage of ${r.corpus}`);
  lines.push(`  ${r.fixtures.length} fixtures (${kinds.sql} sql, ${kinds.http} http, ${kinds.grpc} grpc); functions known from ${r.functionSource}`);
  lines.push('', 'Variation tags (fixtures per tag):');
  for (const t of VARIATION_TAGS) lines.push(`  ${t.padEnd(15)} ${String(r.tagCounts[t]).padStart(5)}`);
  lines.push('', 'Depth tiers (0 uncovered, 1 sampled, 2-5 covered, 6+ deep):');
  lines.push(`  ${'category'.padEnd(24)} ${DEPTH_TIERS.map((t) => t.padStart(9)).join(' ')}     total`);
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    lines.push(`  ${CATEGORY_TITLES[c].padEnd(24)} ${DEPTH_TIERS.map((t) => String(its.filter((i) => i.tier === t).length).padStart(9)).join(' ')} ${String(its.length).padStart(9)}`);
  }
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    lines.push('', `${CATEGORY_TITLES[c]}:`);
    for (const t of [...DEPTH_TIERS].reverse()) {
      const inTier = its.filter((i) => i.tier === t);
      if (inTier.length === 0) continue;
      const names = inTier.slice(0, max).map((i) => (t === 'uncovered' ? itemLabel(i) : `${itemLabel(i)} (${i.fixtures.length})`));
      lines.push(`  ${t} (${inTier.length}):`);
      lines.push(...wrapList(names, '    '));
      if (inTier.length > max) lines.push(`    … ${inTier.length - max} more`);
    }
  }
  const shallow = r.items.filter((i) => i.shallow);
  lines.push('', `Broad but shallow (>= ${SHALLOW_THRESHOLD} fixtures, tag union exactly {happy_path}): ${shallow.length}`);
  for (const c of SURFACE_CATEGORIES) {
    const its = shallow.filter((i) => i.category === c);
    if (its.length === 0) continue;
    lines.push(`  ${CATEGORY_TITLES[c]}:`);
    lines.push(...wrapList(its.map((i) => `${itemLabel(i)} (${i.fixtures.length})`), '    '));
  }
  if (r.items.some((i) => !i.known && i.fixtures.length > 0)) lines.push('', '* not in the reference list of its category (seen in the corpus only)');
  if (r.problems.length) {
    lines.push('', `Unreadable fixtures (${r.problems.length}):`);
    for (const p of r.problems.slice(0, 20)) lines.push(`  ${p.id}: ${p.message}`);
  }
  return lines.join('\n');
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A self-contained HTML page (inline CSS, no scripts or external assets). */
export function renderCoverageHtml(r: CoverageReport): string {
  const tierClass: Record<DepthTier, string> = { uncovered: 't0', sampled: 't1', covered: 't2', deep: 't3' };
  const parts: string[] = [];
  parts.push('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bqemu corpus coverage</title><style>');
  parts.push(
    'body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}' +
      'th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}th{background:#f2f2f2}' +
      'td.n{text-align:right}.t0{background:#fbe3e3}.t1{background:#fdf1d6}.t2{background:#e6f2e1}.t3{background:#cfe8c8}' +
      '.shallow{font-weight:bold}.tag{display:inline-block;border-radius:3px;padding:0 4px;margin:0 2px;background:#e8e8f4;font-size:12px}' +
      'details{margin:.3em 0}summary{cursor:pointer}code{font-size:12px}',
  );
  parts.push('</style></head><body>');
  parts.push(`<h1>Corpus coverage</h1><p>${esc(r.corpus)} — ${r.fixtures.length} fixtures; functions known from ${esc(r.functionSource)}.</p>`);
  parts.push('<h2>Variation tags</h2><table><tr><th>tag</th><th>fixtures</th></tr>');
  for (const t of VARIATION_TAGS) parts.push(`<tr><td>${t}</td><td class="n">${r.tagCounts[t]}</td></tr>`);
  parts.push('</table><h2>Depth tiers</h2><table><tr><th>category</th>');
  for (const t of DEPTH_TIERS) parts.push(`<th class="${tierClass[t]}">${t}</th>`);
  parts.push('<th>broad but shallow</th><th>total</th></tr>');
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    parts.push(`<tr><td>${CATEGORY_TITLES[c]}</td>`);
    for (const t of DEPTH_TIERS) parts.push(`<td class="n ${tierClass[t]}">${its.filter((i) => i.tier === t).length}</td>`);
    parts.push(`<td class="n">${its.filter((i) => i.shallow).length}</td><td class="n">${its.length}</td></tr>`);
  }
  parts.push('</table>');
  const shallow = r.items.filter((i) => i.shallow);
  parts.push(`<h2>Broad but shallow (${shallow.length})</h2><p>Items with ${SHALLOW_THRESHOLD} or more fixtures whose tag union is exactly {happy_path}.</p><table><tr><th>category</th><th>item</th><th>fixtures</th></tr>`);
  for (const i of shallow) parts.push(`<tr><td>${CATEGORY_TITLES[i.category]}</td><td>${esc(i.name)}</td><td class="n">${i.fixtures.length}</td></tr>`);
  parts.push('</table>');
  for (const c of SURFACE_CATEGORIES) {
    const its = r.items.filter((i) => i.category === c);
    parts.push(`<h2>${CATEGORY_TITLES[c]}</h2><table><tr><th>item</th><th>fixtures</th><th>tier</th><th>tags</th><th>fixture ids</th></tr>`);
    for (const i of its) {
      const ids = i.fixtures.length
        ? `<details><summary>${i.fixtures.length}</summary>${i.fixtures.map((f) => `<code>${esc(f)}</code>`).join('<br>')}</details>`
        : '';
      parts.push(
        `<tr class="${tierClass[i.tier]}${i.shallow ? ' shallow' : ''}"><td>${esc(i.name)}${i.known ? '' : ' *'}</td><td class="n">${i.fixtures.length}</td>` +
          `<td>${i.tier}${i.shallow ? ' (shallow)' : ''}</td><td>${i.tags.map((t) => `<span class="tag">${t}</span>`).join('')}</td><td>${ids}</td></tr>`,
      );
    }
    parts.push('</table>');
  }
  parts.push('<p>* not in the reference list of its category (seen in the corpus only).</p></body></html>');
  return parts.join('\n');
}

/** Options of {@link corpusCoverage}. */
export interface CorpusCoverageOptions {
  corpus?: string;
  html?: string;
  /** Ask the analyzer for the builtin function list (default true). */
  analyzer?: boolean;
  log?: (line: string) => void;
}

/** The default corpus: `conformance/fixtures` when it exists, else the recorded SQL corpus. */
export function defaultCoverageCorpus(): string {
  return existsSync('conformance/fixtures') ? 'conformance/fixtures' : '../shared/corpus/bigquery-recorded/sql';
}

/** Known builtin function names: the analyzer's GetBuiltinFunctions, else the function table. */
export async function knownFunctionNames(useAnalyzer: boolean): Promise<{ names: string[]; source: string }> {
  const names = new Set<string>();
  const sources: string[] = [];
  if (useAnalyzer) {
    try {
      const { AnalyzerClient } = await import('../analyzer/client.js');
      const a = new AnalyzerClient();
      try {
        await a.start();
        const res = (await a.call('getBuiltinFunctions', { languageOptions: a.languageOptions })) as { function?: { namePath?: string[] }[] };
        for (const f of res.function ?? []) if (f.namePath?.length) names.add(f.namePath.join('.').toLowerCase());
        sources.push('the analyzer (GetBuiltinFunctions)');
      } finally {
        a.stop();
      }
    } catch {
      // fall back to the function table below
    }
  }
  try {
    await import('../functions/index.js');
    const { registeredNames } = await import('../functions/registry.js');
    const before = names.size;
    for (const n of registeredNames()) names.add(n.toLowerCase());
    sources.push(`the function table${names.size > before ? ` (+${names.size - before})` : ''}`);
  } catch {
    // no function table: corpus-only names
  }
  return { names: [...names], source: sources.join(' + ') || 'corpus only' };
}

/** `bqemu corpus coverage`: prints the text report, writes the HTML page when asked. Exit code 0, or 2 on a bad corpus. */
export async function corpusCoverage(opts: CorpusCoverageOptions): Promise<number> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const corpus = opts.corpus ?? defaultCoverageCorpus();
  const { names, source } = await knownFunctionNames(opts.analyzer !== false);
  let needsJobInsert: ((cfg: Record<string, JsonValue>) => boolean) | undefined;
  try {
    const client = await import('./client.js');
    needsJobInsert = (cfg) => {
      const m = client.mapJobConfig(cfg, 'p');
      return m.destination !== undefined || m.options.dryRun === true || client.needsJobInsert(m.options);
    };
  } catch {
    needsJobInsert = undefined;
  }
  let report: CoverageReport;
  try {
    report = collectCoverage({ corpus, knownFunctions: names, functionSource: source, needsJobInsert });
  } catch (e) {
    log(`coverage: ${(e as Error).message}`);
    return 2;
  }
  log(formatCoverageText(report));
  if (opts.html) {
    writeFileSync(opts.html, renderCoverageHtml(report));
    log(`HTML report written to ${opts.html}`);
  }
  return 0;
}
