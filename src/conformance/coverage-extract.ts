/** Coverage surface extraction: functions, statements, types and REST methods from SQL and request bodies. */
import type { SchemaField } from './fixtures.js';
import type { JsonValue } from './jsonsafe.js';
import { lexSql } from './tags.js';

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
export const SPECIAL_FUNCTIONS = ['cast', 'safe_cast', 'extract'];

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

export function walkSchemaTypes(fields: SchemaField[] | undefined, out: Set<string>): void {
  for (const f of fields ?? []) {
    const t = canonicalType(f.type);
    if (t) out.add(t);
    if ((f.mode ?? '').toUpperCase() === 'REPEATED') out.add('ARRAY');
    walkSchemaTypes(f.fields, out);
  }
}

export function walkJsonTypes(v: JsonValue | undefined, out: Set<string>): void {
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
export function bodySchemaTypes(body: JsonValue | undefined, out: Set<string>): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const schema = (body as Record<string, JsonValue>).schema;
  if (schema) walkJsonTypes(schema, out);
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Query texts and knobs carried by a REST body (jobs.query or jobs.insert). */
export function bodyQueryParts(body: JsonValue | undefined): { queries: string[]; knobs: string[] } {
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
