/**
 * GoogleSQL documentation examples (corpus README, docs-examples): runs every self-contained,
 * deterministic example through `@google-cloud/bigquery` against an emulator and compares the
 * result with the documented table in the docs' display style (docs-render.ts).
 *
 * Selection: cases with none of the flags nondeterministic, multi_statement, needs_tables,
 * needs_graph, needs_protos, needs_definitions, not_query. `expression` cases are a bare
 * expression and run as `SELECT <expr>`. `ordered: false` results compare as multisets.
 * `kind: error` cases pass when the query fails and, when the docs quote an error message, the
 * message shares most of its words. Graph, protocol-buffer and pipe-syntax cases are reported apart
 * from the overall rate.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { BigQuery } from '@google-cloud/bigquery';
import { makeClient } from './client.js';
import { compileFilter } from './fixtures.js';
import { cellMatches, fieldType, renderValue, toDisplayFields, type DisplayField } from './docs-render.js';
import { normaliseCause } from './report.js';

/** One line of visible.jsonl. */
export interface DocCase {
  id: string;
  doc: string;
  section?: string;
  line?: number;
  query: string;
  kind: 'result' | 'error';
  columns?: string[] | null;
  rows?: string[][] | null;
  ordered?: boolean;
  truncated?: boolean;
  error?: string | null;
  headerless?: boolean;
  marked_bad?: boolean;
  flags: Record<string, boolean | undefined>;
}

/** Flags that take a case out of the self-contained deterministic set. */
export const EXCLUDING_FLAGS = ['nondeterministic', 'multi_statement', 'needs_tables', 'needs_graph', 'needs_protos', 'needs_definitions', 'not_query'] as const;

export type DocGroup = 'core' | 'pipe' | 'graph' | 'proto';

/** Report group: graph and proto examples are not BigQuery; pipe syntax is reported apart. */
export function docGroup(c: DocCase): DocGroup {
  if (c.flags.needs_graph || c.doc.startsWith('graph')) return 'graph';
  if (c.flags.needs_protos || /proto/.test(c.doc)) return 'proto';
  if (c.doc === 'pipe-syntax.md' || /\|>/.test(c.query)) return 'pipe';
  return 'core';
}

/** True for a self-contained deterministic case. */
export function isRunnable(c: DocCase): boolean {
  return !EXCLUDING_FLAGS.some((f) => c.flags[f]);
}

/** The SQL sent for a case (`SELECT <expr>` for expression cases). */
export function caseSql(c: DocCase): string {
  return c.flags.expression ? `SELECT ${c.query}` : c.query;
}

export function loadDocCases(file: string): DocCase[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as DocCase);
}

/** What the emulator returned. */
export type DocActual =
  | { kind: 'result'; fields: DisplayField[]; rows: unknown[][] }
  | { kind: 'error'; message: string };

export interface DocOutcome {
  id: string;
  doc: string;
  group: DocGroup;
  status: 'pass' | 'fail';
  /** Short groupable cause of a failure. */
  cause?: string;
  detail?: string;
  expected?: { columns?: string[] | null; rows?: string[][] | null; error?: string | null };
  actual?: { columns: string[]; types: string[]; rows: string[][] } | { error: string };
  durationMs: number;
}

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

/** A documented error text that only says that an error happens (no message to compare). */
export function genericErrorText(text: string): boolean {
  const t = text.trim();
  if (/^(error|errors?\.?|throws an error\.?|produces an error\.?|returns an error\.?)$/i.test(t)) return true;
  if (/^(an error is (thrown|returned|produced|raised)|this produces an error|this returns an error|this throws an error|throws an error|produces an error)\b(?!\s*:)/i.test(t)) return true;
  return false;
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'are', 'was', 'not', 'this', 'that', 'with', 'error', 'has', 'have', 'can', 'cannot', 'cant', 'but', 'be', 'is', 'in', 'of', 'to', 'an', 'at']);

function words(s: string): string[] {
  return s
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^\p{L}\p{N}_]+/gu, ' ')
    .split(' ')
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w));
}

/**
 * Loose error-message comparison: the docs quote a fragment (`Error: Unequal array length`).
 * Passes when the normalised fragment is contained in the message, or at least half of its
 * significant words (or two of three or more) appear in it; documented prose that only says an
 * error happens accepts any error.
 */
export function errorMessageMatches(documented: string, actual: string): boolean {
  if (genericErrorText(documented)) return true;
  const frag = documented
    .trim()
    .replace(/^(an error is (returned|thrown)\s*:|error\s*[:.]|error(?=\s))\s*/i, '')
    .replace(/\.$/, '');
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  if (norm(actual).includes(norm(frag))) return true;
  const fw = [...new Set(words(frag))];
  if (fw.length === 0) return true;
  const aw = new Set(words(actual));
  const shared = fw.filter((w) => aw.has(w)).length;
  return shared / fw.length >= 0.5 || (fw.length >= 3 && shared >= 2);
}

function rowMatches(expected: string[], actual: unknown[], fields: DisplayField[], order: number[]): boolean {
  return order.every((ai, ei) => cellMatches(expected[ei]!, actual[ai], fields[ai]!));
}

/** Maximum bipartite matching of expected rows onto actual rows (multiset comparison). */
function multisetMatch(expected: string[][], actual: unknown[][], fields: DisplayField[], order: number[]): number[] | undefined {
  const adj = expected.map((e) => actual.map((a) => rowMatches(e, a, fields, order)));
  const owner = new Array<number>(actual.length).fill(-1);
  const tryRow = (ei: number, seen: boolean[]): boolean => {
    for (let ai = 0; ai < actual.length; ai++) {
      if (!adj[ei]![ai] || seen[ai]) continue;
      seen[ai] = true;
      if (owner[ai] === -1 || tryRow(owner[ai]!, seen)) {
        owner[ai] = ei;
        return true;
      }
    }
    return false;
  };
  const unmatched: number[] = [];
  for (let ei = 0; ei < expected.length; ei++) if (!tryRow(ei, new Array<boolean>(actual.length).fill(false))) unmatched.push(ei);
  return unmatched.length ? unmatched : undefined;
}

/** Column order: the actual column for each documented one (by name when the names are a permutation). */
function columnOrder(c: DocCase, fields: DisplayField[]): number[] {
  const identity = fields.map((_f, i) => i);
  const cols = c.columns;
  if (!cols || cols.length !== fields.length) return identity;
  const names = fields.map((f) => f.name.toLowerCase());
  const wanted = cols.map((n) => n.toLowerCase());
  if (new Set(names).size !== names.length) return identity;
  const idx = wanted.map((n) => names.indexOf(n));
  if (idx.some((i) => i < 0) || new Set(idx).size !== idx.length) return identity;
  return idx;
}

/**
 * Some pages print a STRUCT column as one column per field (`nested.first`, `nested.second`): when
 * the documented names ask for it, flatten those STRUCT columns the same way.
 */
export function flattenForColumns(columns: string[] | null | undefined, fields: DisplayField[], rows: unknown[][]): { fields: DisplayField[]; rows: unknown[][] } {
  if (!columns || columns.length === fields.length || !columns.some((c) => c.includes('.'))) return { fields, rows };
  const wanted = new Set(columns.map((c) => c.toLowerCase()));
  const plan: { field: DisplayField; from: number; sub?: string }[] = [];
  fields.forEach((f, i) => {
    const isStruct = fieldType(f) === 'STRUCT' && (f.mode ?? '').toUpperCase() !== 'REPEATED';
    const subs = isStruct ? (f.fields ?? []).filter((sf) => wanted.has(`${f.name}.${sf.name}`.toLowerCase())) : [];
    if (isStruct && subs.length === (f.fields ?? []).length && subs.length > 0) {
      for (const sf of subs) plan.push({ field: { ...sf, name: `${f.name}.${sf.name}` }, from: i, sub: sf.name });
    } else plan.push({ field: f, from: i });
  });
  return {
    fields: plan.map((p) => p.field),
    rows: rows.map((r) => plan.map((p) => (p.sub === undefined ? r[p.from] : ((r[p.from] ?? {}) as Record<string, unknown>)[p.sub] ?? null))),
  };
}

/** First differing cell, for the failure detail. */
function firstCellDiff(expected: string[], actual: unknown[], fields: DisplayField[], order: number[]): { col: string; type: string; expected: string; got: string } | undefined {
  for (let ei = 0; ei < expected.length; ei++) {
    const ai = order[ei]!;
    if (!cellMatches(expected[ei]!, actual[ai], fields[ai]!)) {
      const f = fields[ai]!;
      const type = (f.mode ?? '').toUpperCase() === 'REPEATED' ? `ARRAY<${fieldType(f)}>` : fieldType(f);
      return { col: f.name, type, expected: expected[ei]!, got: renderValue(actual[ai], f) };
    }
  }
  return undefined;
}

/** Failure categories for emulator errors, so similar messages group together. */
export function errorCause(message: string): string {
  const m = message.replace(/\s+/g, ' ').trim();
  const unsupported = /^(Function|Operator|Function operator) (\S+) is not supported/i.exec(m);
  if (unsupported) return `not supported: ${unsupported[1]} ${unsupported[2]}`;
  const notFound = /^Function not found: ([\w.]+)/i.exec(m);
  if (notFound) return `function not found (analyzer): ${notFound[1]}`;
  return normaliseCause(m.replace(/ at \[\d+:\d+\]/g, ''));
}

/** Compare one case's actual outcome with its documented one. Pure. */
export function compareDocCase(c: DocCase, actual: DocActual): { pass: boolean; cause?: string; detail?: string } {
  if (c.kind === 'error') {
    if (actual.kind === 'result') return { pass: false, cause: 'expected an error, got a result', detail: `documented: ${c.error ?? ''}` };
    if (errorMessageMatches(c.error ?? '', actual.message)) return { pass: true };
    return { pass: false, cause: 'error message differs', detail: `documented: ${c.error ?? ''} | got: ${actual.message}` };
  }
  if (actual.kind === 'error') return { pass: false, cause: `emulator error: ${errorCause(actual.message)}`, detail: actual.message };
  const expRows = c.rows ?? [];
  const { fields, rows } = flattenForColumns(c.columns, actual.fields, actual.rows);
  const width = expRows[0]?.length ?? c.columns?.length ?? fields.length;
  if (expRows.length > 0 && width !== fields.length) {
    return { pass: false, cause: 'column count', detail: `expected ${width} columns [${(c.columns ?? []).join(', ')}], got ${fields.length} [${fields.map((f) => f.name).join(', ')}]` };
  }
  if (expRows.length !== rows.length) {
    return { pass: false, cause: 'row count', detail: `expected ${expRows.length} rows, got ${rows.length}: ${rows.slice(0, 3).map((r) => `[${r.map((v, i) => renderValue(v, fields[i]!)).join(' | ')}]`).join(' ')}` };
  }
  const order = columnOrder(c, fields);
  const unmatched = multisetMatch(expRows, rows, fields, order);
  if (c.ordered) {
    let firstDiff: { row: number; d: NonNullable<ReturnType<typeof firstCellDiff>> } | undefined;
    for (let i = 0; i < expRows.length && !firstDiff; i++) {
      const d = firstCellDiff(expRows[i]!, rows[i]!, fields, order);
      if (d) firstDiff = { row: i, d };
    }
    if (!firstDiff) return { pass: true };
    // Same rows, another order: ties of the sort key may come in any order. Accept when some column
    // (the sort key) shows the documented sequence position by position.
    if (!unmatched) {
      const keyCol = order.some((ai, ei) => expRows.every((r, i) => cellMatches(r[ei]!, rows[i]![ai], fields[ai]!)));
      if (keyCol) return { pass: true };
      return { pass: false, cause: 'row order', detail: `row ${firstDiff.row + 1} ${firstDiff.d.col}: expected ${JSON.stringify(firstDiff.d.expected)}, got ${JSON.stringify(firstDiff.d.got)}` };
    }
  }
  if (!unmatched) return { pass: true };
  const ei = unmatched[0]!;
  // Report the closest actual row: the one sharing most cells with the documented row.
  let best = 0;
  let bestScore = -1;
  rows.forEach((r, ai) => {
    const score = order.filter((a, e) => cellMatches(expRows[ei]![e]!, r[a], fields[a]!)).length;
    if (score > bestScore) {
      best = ai;
      bestScore = score;
    }
  });
  const d = firstCellDiff(expRows[ei]!, rows[best]!, fields, order);
  const type = d?.type ?? 'row';
  return {
    pass: false,
    cause: `value mismatch: ${type}`,
    detail: d ? `row ${ei + 1} ${d.col}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.got)}` : `documented row ${ei + 1} not found`,
  };
}

// ---------------------------------------------------------------------------------------------
// Execution
// ---------------------------------------------------------------------------------------------

function errText(e: unknown): string {
  if (e && typeof e === 'object') {
    const x = e as { errors?: { message?: string }[]; message?: string };
    if (Array.isArray(x.errors) && x.errors[0]?.message) return x.errors[0].message;
    if (typeof x.message === 'string') return x.message;
  }
  return String(e);
}

/** Decode raw REST rows (`{f: [{v}]}`) column by column with the client's own decoder (positional, so duplicate names survive). */
export function decodeRows(rawRows: unknown[], restFields: unknown[]): unknown[][] {
  return rawRows.map((r) => {
    const cells = ((r as { f?: { v: unknown }[] }).f ?? []) as { v: unknown }[];
    return restFields.map((f, i) => {
      const field = f as { name: string };
      const decoded = BigQuery.mergeSchemaWithRows_({ fields: [field] } as never, [{ f: [cells[i] ?? { v: null }] }] as never, { wrapIntegers: true, listParams: {} as never });
      return (decoded[0] as Record<string, unknown>)[field.name];
    });
  });
}

/** Run one case's SQL and return what came back. */
export async function runDocQuery(bq: BigQuery, sql: string): Promise<DocActual> {
  let raw: unknown[];
  let restFields: unknown[];
  try {
    const res = (await bq.query({ query: sql, useLegacySql: false }, { skipParsing: true, wrapIntegers: true } as never)) as unknown[];
    raw = (res[0] ?? []) as unknown[];
    const meta = res[2] as { schema?: { fields?: unknown[] } } | undefined;
    restFields = meta?.schema?.fields ?? [];
  } catch (e) {
    return { kind: 'error', message: errText(e) };
  }
  try {
    return { kind: 'result', fields: toDisplayFields(restFields), rows: decodeRows(raw, restFields) };
  } catch (e) {
    // The client's decoder rejected the wire rows (e.g. a NULL where an array is required).
    return { kind: 'error', message: `client could not decode the rows: ${errText(e)}` };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<T>((res) => {
    timer = setTimeout(() => res(onTimeout()), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export async function runDocCase(bq: BigQuery, c: DocCase, timeoutMs: number): Promise<DocOutcome> {
  const started = Date.now();
  const base = { id: c.id, doc: c.doc, group: docGroup(c) };
  const expected = { columns: c.columns ?? null, rows: c.rows ?? null, error: c.error ?? null };
  const actual = await withTimeout<DocActual | 'timeout'>(runDocQuery(bq, caseSql(c)), timeoutMs, () => 'timeout');
  if (actual === 'timeout') return { ...base, status: 'fail', cause: 'timeout', detail: `no answer within ${timeoutMs} ms`, expected, durationMs: Date.now() - started };
  const cmp = compareDocCase(c, actual);
  const out: DocOutcome = { ...base, status: cmp.pass ? 'pass' : 'fail', durationMs: Date.now() - started };
  if (!cmp.pass) {
    out.cause = cmp.cause;
    out.detail = cmp.detail;
    out.expected = expected;
    out.actual =
      actual.kind === 'error'
        ? { error: actual.message }
        : {
            columns: actual.fields.map((f) => f.name),
            types: actual.fields.map((f) => ((f.mode ?? '').toUpperCase() === 'REPEATED' ? `ARRAY<${fieldType(f)}>` : fieldType(f))),
            rows: actual.rows.slice(0, 50).map((r) => r.map((v, i) => renderValue(v, actual.fields[i]!))),
          };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

interface Tally {
  passed: number;
  total: number;
}

function pct(t: Tally): string {
  return `${t.total ? ((t.passed / t.total) * 100).toFixed(1) : '0.0'}%`;
}

/** Coarse failure kind of a cause, for the kinds table. */
export function failureKind(cause: string): string {
  if (!cause.startsWith('emulator error: ')) return cause.split(':')[0]!;
  const rest = cause.slice('emulator error: '.length);
  if (rest.startsWith('not supported: ')) return 'emulator error: function/operator not supported by bqemu';
  if (rest.startsWith('function not found')) return 'emulator error: function not found by the analyzer (not a BigQuery function?)';
  if (/^Type \w+ is not supported/.test(rest)) return 'emulator error: type not supported';
  if (/^Syntax error/.test(rest)) return 'emulator error: syntax error';
  if (rest.startsWith('client could not decode')) return 'client decode error (wire format)';
  if (/does not exist!|Binder Error|Conversion Error|Catalog Error|Parser Error|Invalid Input Error/i.test(rest)) return 'emulator error: execution engine error';
  return 'emulator error: other';
}

const GROUP_TITLES: Record<DocGroup, string> = { core: 'overall (GoogleSQL, excluding the groups below)', pipe: 'pipe syntax', graph: 'graph (not BigQuery)', proto: 'protocol buffers (not BigQuery)' };

/** Text report: rates by doc page and group, top failing pages and causes; last line `N passed, N failed`. */
export function formatDocsReport(outcomes: DocOutcome[], skipped: Record<string, number>, opts: { maxCauses?: number; maxFailures?: number } = {}): string {
  const lines: string[] = [];
  const byDoc = new Map<string, Tally>();
  const byGroup = new Map<DocGroup, Tally>();
  for (const o of outcomes) {
    const d = byDoc.get(o.doc) ?? { passed: 0, total: 0 };
    d.total++;
    if (o.status === 'pass') d.passed++;
    byDoc.set(o.doc, d);
    const g = byGroup.get(o.group) ?? { passed: 0, total: 0 };
    g.total++;
    if (o.status === 'pass') g.passed++;
    byGroup.set(o.group, g);
  }
  const w = Math.max(10, ...[...byDoc.keys()].map((k) => k.length));
  lines.push('Documentation examples by page:');
  for (const [doc, t] of [...byDoc.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`  ${doc.padEnd(w)}  ${String(t.passed).padStart(4)}/${String(t.total).padEnd(4)} ${pct(t).padStart(6)}`);
  }
  lines.push('', 'By group:');
  for (const g of ['core', 'pipe', 'graph', 'proto'] as DocGroup[]) {
    const t = byGroup.get(g);
    if (t) lines.push(`  ${GROUP_TITLES[g].padEnd(48)} ${String(t.passed).padStart(4)}/${String(t.total).padEnd(4)} ${pct(t).padStart(6)}`);
  }
  const skippedTotal = Object.values(skipped).reduce((a, b) => a + b, 0);
  if (skippedTotal) lines.push(`  not run (${skippedTotal}): ${Object.entries(skipped).map(([k, v]) => `${k} ${v}`).join(', ')}`);

  const failing = [...byDoc.entries()].filter(([, t]) => t.passed < t.total).sort((a, b) => b[1].total - b[1].passed - (a[1].total - a[1].passed) || a[0].localeCompare(b[0]));
  if (failing.length) {
    lines.push('', 'Top failing pages (failures):');
    for (const [doc, t] of failing.slice(0, 12)) lines.push(`  ${String(t.total - t.passed).padStart(5)}  ${doc} (${pct(t)} pass)`);
  }
  const failures = outcomes.filter((o) => o.status === 'fail');
  if (failures.length) {
    const kinds = new Map<string, number>();
    const causes = new Map<string, { count: number; examples: string[] }>();
    for (const o of failures) {
      const cause = o.cause ?? 'unknown';
      const kind = failureKind(cause);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const g = causes.get(cause) ?? { count: 0, examples: [] };
      g.count++;
      if (g.examples.length < 3) g.examples.push(o.id);
      causes.set(cause, g);
    }
    lines.push('', 'Failure kinds:');
    for (const [k, n] of [...kinds.entries()].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(5)}  ${k}`);
    const maxCauses = opts.maxCauses ?? 30;
    const sorted = [...causes.entries()].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]));
    lines.push('', `Top failure causes (${Math.min(maxCauses, sorted.length)} of ${sorted.length} groups):`);
    for (const [cause, g] of sorted.slice(0, maxCauses)) {
      lines.push(`  ${String(g.count).padStart(5)}  ${cause}`);
      lines.push(`         e.g. ${g.examples.join(', ')}`);
    }
    const maxFailures = opts.maxFailures ?? 0;
    if (maxFailures > 0) {
      lines.push('', `Failures (${Math.min(maxFailures, failures.length)} of ${failures.length}):`);
      for (const o of failures.slice(0, maxFailures)) lines.push(`  ${o.id}  [${o.cause}] ${(o.detail ?? '').replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  const passed = outcomes.length - failures.length;
  lines.push('', `${passed} passed, ${failures.length} failed`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// CLI entry
// ---------------------------------------------------------------------------------------------

export interface CorpusDocsOptions {
  /** visible.jsonl path. */
  cases: string;
  json?: string;
  /** Comma-separated patterns matched against the case id and the doc page (glob or substring). */
  filter?: string;
  endpoint?: string;
  project?: string;
  concurrency?: number;
  timeoutMs?: number;
  maxFailures?: number;
  log?: (line: string) => void;
}

interface EmulatorHandle {
  url: string;
  projectId: string;
  close(): Promise<void>;
  engine?: { analyzer?: { stop(): void } };
}
type StartEmulator = (opts: { host?: string; port?: number; projectId?: string; quiet?: boolean }) => Promise<EmulatorHandle>;

/**
 * `bqemu corpus docs`: run the runnable cases and print the report. Exit code 0 when all pass,
 * 1 when any fails, 2 when the cases or the emulator cannot be used.
 */
export async function corpusDocs(opts: CorpusDocsOptions): Promise<number> {
  const log = opts.log ?? ((l: string) => console.log(l));
  let all: DocCase[];
  try {
    all = loadDocCases(opts.cases);
  } catch (e) {
    log(`docs: cannot read ${opts.cases}: ${(e as Error).message}`);
    return 2;
  }
  const match = compileFilter(opts.filter);
  const selected = all.filter((c) => match(c.id) || match(c.doc));
  const skipped: Record<string, number> = {};
  const cases: DocCase[] = [];
  for (const c of selected) {
    if (isRunnable(c)) cases.push(c);
    else {
      const why = EXCLUDING_FLAGS.find((f) => c.flags[f])!;
      skipped[why] = (skipped[why] ?? 0) + 1;
    }
  }
  if (cases.length === 0) {
    log(`docs: no runnable cases${opts.filter ? ` match "${opts.filter}"` : ''}`);
    log('0 passed, 0 failed');
    return 2;
  }
  let emulator: EmulatorHandle | undefined;
  let endpoint = opts.endpoint;
  let projectId = opts.project ?? 'bqemu-docs';
  if (!endpoint) {
    try {
      const { startEmulator } = (await import('../server/server.js')) as unknown as { startEmulator: StartEmulator };
      emulator = await startEmulator({ host: '127.0.0.1', port: 0, quiet: true, projectId });
      endpoint = emulator.url;
      projectId = emulator.projectId;
    } catch (e) {
      log(`docs: cannot start the in-process emulator: ${(e as Error).message}`);
      return 2;
    }
  }
  const { bq } = makeClient(endpoint, projectId);
  const outcomes = new Array<DocOutcome>(cases.length);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let next = 0;
  let done = 0;
  const interactive = process.stderr.isTTY === true;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      outcomes[i] = await runDocCase(bq, cases[i]!, timeoutMs);
      done++;
      if (interactive && (done % 20 === 0 || done === cases.length)) process.stderr.write(`\r${done}/${cases.length} cases${done === cases.length ? '\n' : ''}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(Math.max(1, opts.concurrency ?? 4), cases.length) }, worker));
  } finally {
    if (emulator) {
      await emulator.close();
      emulator.engine?.analyzer?.stop();
    }
  }
  if (opts.json) {
    const summary = { cases: opts.cases, endpoint: opts.endpoint ?? 'in-process', filter: opts.filter ?? null, skipped, passed: outcomes.filter((o) => o.status === 'pass').length, total: outcomes.length };
    writeFileSync(opts.json, JSON.stringify({ ...summary, outcomes }, null, 2) + '\n');
  }
  log(formatDocsReport(outcomes, skipped, { maxFailures: opts.maxFailures ?? 0 }));
  return outcomes.every((o) => o.status === 'pass') ? 0 : 1;
}
