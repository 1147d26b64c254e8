/**
 * GoogleSQL documentation examples (conformance/docs-examples/, conformance/README.md "Test data
 * copied from the reference corpus"): runs every self-contained, deterministic example through
 * `@google-cloud/bigquery` against an emulator and compares the result with the documented table in
 * the docs' display style (docs-render.ts).
 *
 * Selection: cases with none of the flags nondeterministic, multi_statement, needs_tables,
 * needs_graph, needs_protos, needs_definitions, not_query. `expression` cases are a bare
 * expression and run as `SELECT <expr>`. `ordered: false` results compare as multisets.
 * `kind: error` cases pass when the query fails and, when the docs quote an error message, the
 * message shares most of its words. Graph, protocol-buffer and pipe-syntax cases are reported apart
 * from the overall rate, and so are the cases of GoogleSQL features BigQuery does not have
 * (docs-scope.ts): the acceptance metric is the pass rate of the BigQuery-feature cases.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { BigQuery } from '@google-cloud/bigquery';
import { makeClient } from './client.js';
import { compileFilter } from './fixtures.js';
import { fieldType, renderValue, toDisplayFields, type DisplayField } from './docs-render.js';
import { compareDocCase } from './docs-compare.js';
import { formatDocsReport } from './docs-report.js';
import { makeScopeClassifier } from './docs-scope.js';

export { compareDocCase, errorCause, errorMessageMatches, flattenForColumns, genericErrorText } from './docs-compare.js';
export { failureKind, formatDocsReport } from './docs-report.js';
export type { DocActual, DocCase, DocGroup, DocOutcome } from './docs-model.js';
import type { DocActual, DocCase, DocGroup, DocOutcome } from './docs-model.js';

/** Flags that take a case out of the self-contained deterministic set. */
export const EXCLUDING_FLAGS = ['nondeterministic', 'multi_statement', 'needs_tables', 'needs_graph', 'needs_protos', 'needs_definitions', 'not_query'] as const;

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

export async function runDocCase(bq: BigQuery, c: DocCase, timeoutMs: number, notBigQuery?: string): Promise<DocOutcome> {
  const started = Date.now();
  const base = { id: c.id, doc: c.doc, group: docGroup(c), ...(notBigQuery ? { notBigQuery } : {}) };
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
      // Lazy, not cycle-breaking (conformance sits above server): a run against --endpoint never loads DuckDB.
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
  const scope = makeScopeClassifier(all);
  const outcomes = new Array<DocOutcome>(cases.length);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let next = 0;
  let done = 0;
  const interactive = process.stderr.isTTY === true;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      const verdict = scope(cases[i]!);
      outcomes[i] = await runDocCase(bq, cases[i]!, timeoutMs, verdict.bigquery ? undefined : verdict.reason);
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
    const bqCases = outcomes.filter((o) => o.group === 'core' && !o.notBigQuery);
    const bigquery = { passed: bqCases.filter((o) => o.status === 'pass').length, total: bqCases.length };
    const summary = { cases: opts.cases, endpoint: opts.endpoint ?? 'in-process', filter: opts.filter ?? null, skipped, passed: outcomes.filter((o) => o.status === 'pass').length, total: outcomes.length, bigquery };
    writeFileSync(opts.json, JSON.stringify({ ...summary, outcomes }, null, 2) + '\n');
  }
  log(formatDocsReport(outcomes, skipped, { maxFailures: opts.maxFailures ?? 0 }));
  return outcomes.every((o) => o.status === 'pass') ? 0 : 1;
}
