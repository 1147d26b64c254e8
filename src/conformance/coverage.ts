/**
 * Corpus coverage report (conformance/README.md "Variation tags": tags and depth tiers): which surface items —
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
import { AnalyzerClient } from '../analyzer/client.js';
import { registeredNames } from '../functions/index.js';
import * as client from './client.js';
import { loadFixture, resolveSqlRoot, type Fixture } from './fixtures.js';
import { parseJsonSafe, type JsonValue } from './jsonsafe.js';
import { detectTags, VARIATION_TAGS, type VariationTag } from './tags.js';
import { bodyQueryParts, bodySchemaTypes, extractFunctionCalls, extractSqlTypes, extractStatements, restMethodName, SPECIAL_FUNCTIONS, walkJsonTypes, walkSchemaTypes } from './coverage-extract.js';
import { formatCoverageText, renderCoverageHtml } from './coverage-render.js';
import { depthTier, KNOWN_ENDPOINTS, KNOWN_JOB_CONFIG, KNOWN_STATEMENTS, KNOWN_TYPES, SHALLOW_THRESHOLD, SURFACE_CATEGORIES, type CoverageFixture, type CoverageReport, type SurfaceCategory, type SurfaceItem } from './coverage-model.js';

export * from './coverage-model.js';
export { canonicalType, extractFunctionCalls, extractSqlTypes, extractStatements, restMethodName } from './coverage-extract.js';
export { formatCoverageText, renderCoverageHtml } from './coverage-render.js';

// ---------------------------------------------------------------------------------------------
// Corpus walk
// ---------------------------------------------------------------------------------------------

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

/** Options of {@link corpusCoverage}. */
export interface CorpusCoverageOptions {
  corpus?: string;
  html?: string;
  /** Ask the analyzer for the builtin function list (default true). */
  analyzer?: boolean;
  log?: (line: string) => void;
}

/** The default corpus: the repository's `conformance/fixtures` (relative to the working directory, as `corpus run`). */
export function defaultCoverageCorpus(): string {
  return 'conformance/fixtures';
}

/** Known builtin function names: the analyzer's GetBuiltinFunctions, else the function table. */
export async function knownFunctionNames(useAnalyzer: boolean): Promise<{ names: string[]; source: string }> {
  const names = new Set<string>();
  const sources: string[] = [];
  if (useAnalyzer) {
    try {
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
