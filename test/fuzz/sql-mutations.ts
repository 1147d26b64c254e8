/**
 * Fuzz generators: mutated GoogleSQL from the conformance corpus (`conformance/fixtures/<phase>/
 * <name>/query.sql`, placeholders expanded to the fuzz scene's dataset): truncation, token swaps,
 * huge literals and identifiers, deep nesting and long IN lists — each sent through `jobs.query`.
 * The sizes straddle BigQuery's documented limits (https://cloud.google.com/bigquery/quotas:
 * query text 1,024 KB; identifiers, https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { FuzzRequest } from './http-target.js';
import type { Scene } from './rest-requests.js';

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../conformance/fixtures');

/** Every corpus query text with `${…}` placeholders pointing at `scene` (sorted by fixture id). */
export function corpusQueries(scene: Pick<Scene, 'projectId' | 'datasetId'>): string[] {
  const out: string[] = [];
  for (const phase of fs.readdirSync(CORPUS).sort()) {
    const pdir = path.join(CORPUS, phase);
    if (!fs.statSync(pdir).isDirectory()) continue;
    for (const name of fs.readdirSync(pdir).sort()) {
      const f = path.join(pdir, name, 'query.sql');
      if (!fs.existsSync(f)) continue;
      const values: Record<string, string> = { DATASET: `${scene.projectId}.${scene.datasetId}`, PROJECT: scene.projectId, DATASET_ID: scene.datasetId };
      out.push(fs.readFileSync(f, 'utf8').replace(/\$\{(\w+)\}/g, (m, n: string) => values[n] ?? 'x'));
    }
  }
  return out;
}

/** Splits SQL into tokens (strings, quoted identifiers, words, numbers, punctuation, spaces). */
export function tokenize(sql: string): string[] {
  return sql.match(/'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?|`[^`]*`?|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\s+|./gs) ?? [];
}

/** Size knobs: `npm test` keeps them below the sizes that take minutes; `npm run fuzz` raises them. */
export interface SqlFuzzSizes {
  literalLengths: number[];
  identifierLengths: number[];
  depths: number[];
  inListLengths: number[];
}

export const SQL_TEST_SIZES: SqlFuzzSizes = { literalLengths: [1_000, 20_000], identifierLengths: [129, 1_100, 20_000], depths: [20, 100, 300], inListLengths: [1_000, 10_000] };
/** Sizes that reproduce issue reports (≥64 KiB analyzer errors, 3,000-deep expressions, 1 MB text). */
export const SQL_LIMIT_SIZES: SqlFuzzSizes = {
  literalLengths: [50_000, 65_600, 100_000, 1_100_000],
  identifierLengths: [65_600, 100_000],
  depths: [1_000, 3_000, 10_000],
  inListLengths: [100_000, 200_000],
};

/** A mutation of one corpus query. */
interface SqlCase {
  kind: string;
  sql: string;
}

const pickIndex = (n: number) => fc.nat({ max: Math.max(0, n - 1) });

/** Replaces the token at one of the indexes matching `test` (or appends `fallback` when none). */
function replaceToken(tokens: string[], i: number, test: (t: string) => boolean, make: (t: string) => string, fallback: string): string {
  const idx = tokens.map((t, j) => (test(t) ? j : -1)).filter((j) => j >= 0);
  if (idx.length === 0) return tokens.join('') + fallback;
  const j = idx[i % idx.length]!;
  return [...tokens.slice(0, j), make(tokens[j]!), ...tokens.slice(j + 1)].join('');
}

const isWord = (t: string) => /^[A-Za-z_]/.test(t) && !KEYWORDS.has(t.toUpperCase());
const isNumber = (t: string) => /^\d/.test(t);
const KEYWORDS = new Set(['SELECT', 'FROM', 'WHERE', 'AS', 'AND', 'OR', 'NOT', 'NULL', 'GROUP', 'BY', 'ORDER', 'LIMIT', 'UNNEST', 'CAST', 'WITH', 'JOIN', 'ON', 'IN', 'IS', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'TRUE', 'FALSE', 'STRUCT', 'ARRAY']);

/** Huge-literal forms: a number, a string, NUMERIC/BIGNUMERIC/INTERVAL/BYTES literal texts. */
function hugeLiteral(n: number, form: number): string {
  switch (form % 6) {
    case 0:
      return '9'.repeat(n);
    case 1:
      return `'${'x'.repeat(n)}'`;
    case 2:
      return `NUMERIC '${'9'.repeat(n)}'`;
    case 3:
      return `BIGNUMERIC '${'1'.repeat(n)}.5'`;
    case 4:
      return `INTERVAL '${'1'.repeat(n)}' DAY`;
    default:
      return `b'${'y'.repeat(n)}'`;
  }
}

/** Deep-nesting forms around `1`. */
function nested(d: number, form: number): string {
  switch (form % 5) {
    case 0:
      return `${'ABS('.repeat(d)}1${')'.repeat(d)}`;
    case 1:
      return `${'('.repeat(d)}1${')'.repeat(d)}`;
    case 2:
      return `${'(SELECT '.repeat(d)}1${')'.repeat(d)}`;
    case 3:
      return `${'[STRUCT('.repeat(d)}1${')]'.repeat(d)}`;
    default:
      return Array.from({ length: d }, (_, i) => `${i}`).join(' + ');
  }
}

/** The SQL-mutation arbitrary over `queries`. */
export function mutatedSql(queries: string[], sizes: SqlFuzzSizes): fc.Arbitrary<SqlCase> {
  const q = fc.constantFrom(...queries);
  const toks = q.map((s) => ({ s, t: tokenize(s) }));
  return fc.oneof(
    fc.tuple(q, fc.double({ min: 0, max: 1, noNaN: true })).map(([s, f]) => ({ kind: 'sql:truncate', sql: s.slice(0, Math.floor(s.length * f)) })),
    fc.tuple(toks, fc.nat(), fc.nat()).map(([{ t }, a, b]) => {
      const x = [...t];
      const i = a % Math.max(1, x.length);
      const j = b % Math.max(1, x.length);
      [x[i], x[j]] = [x[j]!, x[i]!];
      return { kind: 'sql:tokenSwap', sql: x.join('') };
    }),
    fc.tuple(toks, fc.nat(), fc.constantFrom('delete', 'duplicate')).map(([{ t }, a, op]) => {
      const i = a % Math.max(1, t.length);
      const x = op === 'delete' ? [...t.slice(0, i), ...t.slice(i + 1)] : [...t.slice(0, i), t[i] ?? '', ...t.slice(i)];
      return { kind: 'sql:tokenEdit', sql: x.join('') };
    }),
    fc.tuple(toks, fc.nat(), fc.constantFrom(...sizes.literalLengths), fc.nat()).map(([{ t }, i, n, form]) => ({
      kind: 'sql:hugeLiteral',
      sql: replaceToken(t, i, isNumber, () => hugeLiteral(n, form), ` -- \nUNION ALL SELECT ${hugeLiteral(n, form)}`),
    })),
    fc.tuple(toks, fc.nat(), fc.constantFrom(...sizes.identifierLengths), fc.boolean()).map(([{ t }, i, n, quoted]) => ({
      kind: 'sql:hugeIdentifier',
      sql: replaceToken(t, i, isWord, () => (quoted ? `\`${'t'.repeat(n)}\`` : `c${'c'.repeat(n - 1)}`), ` AS c${'c'.repeat(n)}`),
    })),
    fc.tuple(fc.constantFrom(...sizes.depths), fc.nat()).map(([d, form]) => ({ kind: 'sql:deepNesting', sql: `SELECT ${nested(d, form)} AS x` })),
    fc.tuple(fc.constantFrom(...sizes.inListLengths), fc.boolean()).map(([n, strings]) => ({
      kind: 'sql:longInList',
      sql: `SELECT x IN (${Array.from({ length: n }, (_, i) => (strings ? `'v${i}'` : String(i))).join(', ')}) AS hit FROM UNNEST([${strings ? "'v1'" : '1'}]) AS x`,
    })),
  );
}

/** A `jobs.query` request for `sql` (waits up to `timeoutMs` server-side; the job may outlive it). */
export function queryRequest(scene: Pick<Scene, 'projectId'>, c: SqlCase, timeoutMs = 10_000): FuzzRequest {
  return {
    kind: c.kind,
    label: 'jobs.query',
    method: 'POST',
    path: `/bigquery/v2/projects/${scene.projectId}/queries`,
    body: JSON.stringify({ query: c.sql, useLegacySql: false, timeoutMs }),
  };
}
