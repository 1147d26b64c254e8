/**
 * Fixture qualification (conformance/README.md "Qualification"): a fixture belongs in the corpus
 * only if its output is fully determined by its recorded SQL and its setup is idempotent. This
 * module finds the fixtures that break a rule so the report can list them (they are never silently
 * dropped).
 *
 * Rules checked, on SQL with comments and string literals removed (so `'now()'` or a column named
 * `i_brand` do not count):
 * - `wall-clock`: CURRENT_TIMESTAMP / CURRENT_DATE / CURRENT_DATETIME / CURRENT_TIME (with or
 *   without parentheses), NOW();
 * - `random`: RAND();
 * - `session-user`: SESSION_USER();
 * - `uuid`: GENERATE_UUID();
 * - `job-history`: INFORMATION_SCHEMA.JOBS, JOBS_BY_USER, JOBS_BY_PROJECT, JOBS_TIMELINE…;
 * - `time-travel`: FOR SYSTEM_TIME AS OF with a relative expression (anything but a literal), and
 *   also a literal one (static time travel is excluded too: conformance/README.md "Qualification");
 * - `non-idempotent-setup`: a CREATE (table, view, function, procedure, schema…) that is neither
 *   `OR REPLACE`, `IF NOT EXISTS` nor `TEMP`, unless it targets the fixture's fresh per-fixture
 *   dataset (`${DATASET}` / `${DATASET_ID}`, created only when setup.sql or setup_rest.json exists —
 *   conformance/README.md "Recording notes" 9); DML whose target names a fixed dataset; a
 *   setup_rest.json step that writes into a fixed dataset the fixture did not create.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonSafe, type JsonValue } from './jsonsafe.js';
import { splitSetupSql } from './fixtures.js';

export type QualificationRule = 'wall-clock' | 'random' | 'session-user' | 'uuid' | 'job-history' | 'time-travel' | 'non-idempotent-setup';

export interface QualificationIssue {
  rule: QualificationRule;
  /** File the issue was found in (`query.sql`, `setup.sql`, `setup_rest.json`). */
  file: string;
  detail: string;
}

/** The inputs the rules look at (unexpanded: placeholders still in place). */
export interface QualificationInput {
  query: string;
  setupSql?: string;
  setupRest?: JsonValue;
  jobConfig?: JsonValue;
  /** True when `expected.json` is the error form (a failing CREATE creates nothing). */
  expectsError?: boolean;
}

/**
 * Strip comments and string/bytes literals from GoogleSQL text; backtick-quoted identifiers keep
 * their content without the backticks (so `` `region-us`.INFORMATION_SCHEMA.JOBS `` stays visible).
 * Literals become `''` so that "a literal stands here" is still visible.
 */
export function stripSql(sql: string): string {
  let out = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const d = sql[i + 1];
    if ((c === '-' && d === '-') || c === '#') {
      while (i < n && sql[i] !== '\n') i++;
      out += ' ';
      continue;
    }
    if (c === '/' && d === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out += ' ';
      continue;
    }
    if (c === '`') {
      const end = sql.indexOf('`', i + 1);
      out += end < 0 ? sql.slice(i + 1) : sql.slice(i + 1, end);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === "'" || c === '"') {
      // A string prefix (r, b, rb, br) goes with the literal. Even in a raw literal a backslash keeps
      // the next quote from closing it (GoogleSQL, like Python), so escapes are skipped either way.
      const prefix = /[rRbB]{1,2}$/.exec(out)?.[0] ?? '';
      if (prefix && !/[A-Za-z0-9_]/.test(out[out.length - prefix.length - 1] ?? ' ')) out = out.slice(0, out.length - prefix.length);
      const triple = sql.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < n) {
        if (sql[j] === '\\') {
          j += 2;
          continue;
        }
        if (sql.startsWith(quote, j)) break;
        if (!triple && sql[j] === '\n') break;
        j++;
      }
      i = Math.min(n, j + quote.length);
      out += "''";
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

interface SqlRule {
  rule: QualificationRule;
  re: RegExp;
  what: (m: RegExpExecArray) => string;
}

// `(?<![\w.$])` keeps field accesses (`t.current_date`) and longer identifiers (`x_rand`) out.
const SQL_RULES: SqlRule[] = [
  { rule: 'wall-clock', re: /(?<![\w.$])CURRENT_(?:TIMESTAMP|DATETIME|DATE|TIME)\b/gi, what: (m) => m[0].toUpperCase() },
  { rule: 'wall-clock', re: /(?<![\w.$])NOW\s*\(/gi, what: () => 'NOW()' },
  { rule: 'random', re: /(?<![\w.$])RAND\s*\(/gi, what: () => 'RAND()' },
  { rule: 'session-user', re: /(?<![\w.$])SESSION_USER\s*\(/gi, what: () => 'SESSION_USER()' },
  { rule: 'uuid', re: /(?<![\w.$])GENERATE_UUID\s*\(/gi, what: () => 'GENERATE_UUID()' },
  { rule: 'job-history', re: /\bINFORMATION_SCHEMA\s*\.\s*(JOBS\w*)\b/gi, what: (m) => `INFORMATION_SCHEMA.${m[1]!.toUpperCase()}` },
];

/** A literal-only time-travel operand: `TIMESTAMP '…'`, `'…'`, or a parameter is not literal. */
const LITERAL_TIME = /^\s*(?:TIMESTAMP\s*)?''\s*(?:$|[;)\s])/i;

/** Names that stand for the fresh per-fixture dataset (before placeholder expansion). */
function inFixtureDataset(name: string): boolean {
  return /\$\{DATASET\}|\$\{DATASET_ID\}/.test(name);
}

/** Does a (possibly dotted) object name carry an explicit dataset part? */
function qualifiedParts(name: string): string[] {
  return name.replace(/`/g, '').split('.').filter(Boolean);
}

const CREATE_RE =
  /\bCREATE\s+(OR\s+REPLACE\s+)?(TEMP\s+|TEMPORARY\s+)?(?:(?:EXTERNAL|SNAPSHOT|MATERIALIZED|SEARCH|VECTOR)\s+)?(TABLE\s+FUNCTION|AGGREGATE\s+FUNCTION|TABLE|VIEW|FUNCTION|PROCEDURE|SCHEMA|INDEX|ROW\s+ACCESS\s+POLICY|MODEL)\s+(IF\s+NOT\s+EXISTS\s+)?([^\s(;]+)/gi;
const DML_RE = /\b(?:INSERT\s+(?:INTO\s+)?|UPDATE\s+|DELETE\s+(?:FROM\s+)?|MERGE\s+(?:INTO\s+)?|TRUNCATE\s+TABLE\s+)([^\s(;]+)/gi;

/** The issues of one SQL text (query.sql or setup.sql). */
export function checkSql(sql: string, file: string, ctx: { freshDataset: boolean; createsCount: boolean }): QualificationIssue[] {
  const issues: QualificationIssue[] = [];
  // Placeholders survive stripping only outside literals; protect them from the backtick handling.
  const code = stripSql(sql);
  const seen = new Set<string>();
  const add = (i: QualificationIssue) => {
    const k = `${i.rule}|${i.file}|${i.detail}`;
    if (!seen.has(k)) {
      seen.add(k);
      issues.push(i);
    }
  };
  for (const r of SQL_RULES) {
    r.re.lastIndex = 0;
    for (let m = r.re.exec(code); m; m = r.re.exec(code)) add({ rule: r.rule, file, detail: r.what(m) });
  }
  const tt = /\bFOR\s+SYSTEM_TIME\s+AS\s+OF\b([^;]*)/gi;
  for (let m = tt.exec(code); m; m = tt.exec(code)) {
    const operand = m[1] ?? '';
    if (LITERAL_TIME.test(operand)) add({ rule: 'time-travel', file, detail: 'static time travel (FOR SYSTEM_TIME AS OF a literal timestamp)' });
    else add({ rule: 'time-travel', file, detail: `relative time travel (FOR SYSTEM_TIME AS OF ${operand.trim().split(/\s+/).slice(0, 6).join(' ')})` });
  }
  if (ctx.createsCount) {
    CREATE_RE.lastIndex = 0;
    for (let m = CREATE_RE.exec(code); m; m = CREATE_RE.exec(code)) {
      const [, orReplace, temp, kind, ifNotExists, name] = m;
      if (orReplace || temp || ifNotExists) continue;
      const k = kind!.toUpperCase().replace(/\s+/g, ' ');
      const target = name!;
      if (k === 'SCHEMA') {
        if (!inFixtureDataset(target)) add({ rule: 'non-idempotent-setup', file, detail: `CREATE SCHEMA ${target} without OR REPLACE / IF NOT EXISTS` });
        continue;
      }
      if (k === 'ROW ACCESS POLICY' || k === 'INDEX') continue; // named ON a table: follows that table
      if (inFixtureDataset(target)) {
        if (!ctx.freshDataset) add({ rule: 'non-idempotent-setup', file, detail: `CREATE ${k} ${target} in the per-fixture dataset, which is only created when setup.sql or setup_rest.json exists` });
        continue;
      }
      // Unqualified names resolve through a default dataset or session; only a fixed dataset is reused across runs.
      if (qualifiedParts(target).length >= 2) add({ rule: 'non-idempotent-setup', file, detail: `CREATE ${k} ${target} in a fixed dataset without OR REPLACE / IF NOT EXISTS` });
    }
  }
  DML_RE.lastIndex = 0;
  for (let m = DML_RE.exec(code); m; m = DML_RE.exec(code)) {
    const target = m[1]!;
    if (inFixtureDataset(target) || /^\$\{/.test(target)) continue;
    const parts = qualifiedParts(target);
    if (parts.length >= 2 && !/^(?:SET|WHERE|VALUES|SELECT)$/i.test(parts[0]!)) {
      add({ rule: 'non-idempotent-setup', file, detail: `DML into ${target}, a fixed dataset that keeps its rows between runs` });
    }
  }
  return issues;
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Collect `query` strings (view definitions, routine bodies) inside a JSON value. */
function embeddedQueries(v: JsonValue | undefined, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => embeddedQueries(x, out));
  else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'query' || k === 'definitionBody' || k === 'filterPredicate') && typeof x === 'string') out.push(x);
      else embeddedQueries(x, out);
    }
  }
  return out;
}

/**
 * Check one fixture's inputs against conformance/README.md "Qualification". Returns every issue
 * found (empty: it qualifies).
 */
export function qualifyFixture(input: QualificationInput): QualificationIssue[] {
  const freshDataset = input.setupSql !== undefined || input.setupRest !== undefined;
  const issues: QualificationIssue[] = [];
  if (input.setupSql !== undefined) {
    for (const stmt of splitSetupSql(input.setupSql)) issues.push(...checkSql(stmt, 'setup.sql', { freshDataset, createsCount: true }));
  }
  issues.push(...checkSql(input.query, 'query.sql', { freshDataset, createsCount: !input.expectsError }));
  for (const q of embeddedQueries(input.setupRest)) issues.push(...checkSql(q, 'setup_rest.json', { freshDataset, createsCount: false }));
  for (const q of embeddedQueries(input.jobConfig)) issues.push(...checkSql(q, 'job_config.json', { freshDataset, createsCount: false }));
  if (Array.isArray(input.setupRest)) {
    const created = new Set<string>();
    for (const [i, step] of input.setupRest.entries()) {
      if (!isObject(step) || typeof step.path !== 'string') continue;
      const path = step.path.split('?')[0]!;
      const method = typeof step.method === 'string' ? step.method.toUpperCase() : 'GET';
      if (method === 'POST' && /\/datasets\/?$/.test(path)) {
        const ref = isObject(step.body) && isObject(step.body.datasetReference) ? step.body.datasetReference : undefined;
        if (ref && typeof ref.datasetId === 'string') created.add(ref.datasetId);
        continue; // datasets created over REST are tracked and deleted on teardown (conformance/README.md "Fixture files")
      }
      const m = /\/datasets\/([^/]+)\//.exec(path);
      if (method !== 'GET' && m && !inFixtureDataset(m[1]!) && !created.has(m[1]!)) {
        issues.push({ rule: 'non-idempotent-setup', file: 'setup_rest.json', detail: `step ${i}: ${method} into the fixed dataset ${m[1]}` });
      }
    }
  }
  return issues;
}

function readJson(dir: string, file: string): JsonValue | undefined {
  const p = join(dir, file);
  if (!existsSync(p)) return undefined;
  try {
    return parseJsonSafe(readFileSync(p, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Read a fixture directory's inputs and check them (a missing query.sql yields no issues: the loader reports it). */
export function qualifyFixtureDir(dir: string): QualificationIssue[] {
  const q = join(dir, 'query.sql');
  if (!existsSync(q)) return [];
  const setup = join(dir, 'setup.sql');
  const expected = readJson(dir, 'expected.json');
  const input: QualificationInput = {
    query: readFileSync(q, 'utf8'),
    expectsError: isObject(expected) && expected.error !== undefined && expected.error !== null,
  };
  if (existsSync(setup)) input.setupSql = readFileSync(setup, 'utf8');
  const rest = readJson(dir, 'setup_rest.json');
  if (rest !== undefined) input.setupRest = rest;
  const cfg = readJson(dir, 'job_config.json');
  if (cfg !== undefined) input.jobConfig = cfg;
  return qualifyFixture(input);
}

/** Non-qualifying fixtures of a list, each with its issues (ids in input order). */
export function checkQualification(fixtures: { id: string; dir: string }[]): { id: string; issues: QualificationIssue[] }[] {
  const out: { id: string; issues: QualificationIssue[] }[] = [];
  for (const f of fixtures) {
    const issues = qualifyFixtureDir(f.dir);
    if (issues.length) out.push({ id: f.id, issues });
  }
  return out;
}
