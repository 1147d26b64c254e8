/**
 * Statement analysis: split a request into statements, resolve the tables each references, build
 * the minimal per-statement catalog (docs/ARCHITECTURE.md §1) and call the ZetaSQL analyzer with BigQuery's
 * options (docs/ARCHITECTURE.md §1). Analyses of identical (SQL, position, catalog version, parameter types,
 * defaults) are cached.
 */
import { resolvedStatementOf, type AnalyzerClient } from '../analyzer/client.js';
import type { Node } from '../analyzer/ast.js';
import { toTypeProto } from '../analyzer/types.js';
import { CATALOG_FUNCTIONS } from '../analyzer/catalog-functions.js';
import { excludedNamespaceFunctions } from '../analyzer/function-namespaces.js';
import { rewriteGroupByExpressions } from '../analyzer/rewrite.js';
import { ERROR_REWRITES } from '../analyzer/error-rewrites.js';
import { isMissingRangeSessionize, lineColOf, mapLocations, rewriteRangeSessionize, type SessionizeRewrite } from '../analyzer/range-sessionize.js';
import { datasetLocation, type CatalogStore, type TableMeta } from '../catalog/store.js';
import { DEFAULT_LOCATION, sameLocation } from '../types/locations.js';
import { BigQueryError } from '../errors/errors.js';
import { lookupFunction } from '../functions/index.js';
import { currentInterrupterSignal } from './duckdb/db.js';
import type { BqType } from '../types/types.js';
import { resolveTablePath, type NameDefaults, type TableRef } from './names.js';
import { functionProto, tvfProto } from './routine-definitions.js';
import { infoSchemaScope, infoSchemaTable } from './information-schema-views.js';
import { INGESTION_PSEUDO_COLUMNS, isIngestionPartitioned } from './partitioning.js';
import { addTable, checkDatasetIdInPath, missingRoutine, missingTable, subCatalog, wildcardTable, type CatalogProto } from './statement-catalog.js';

export interface AnalyzedStatement {
  stmt: Node;
  /** Tables bound in the catalog, by serialization id. */
  tables: Map<string, TableMeta>;
}

export interface ParamTypes {
  named?: Map<string, BqType>;
  positional?: BqType[];
  /** Script variables (src/scripting), bound as catalog constants: lower-case name → type. */
  variables?: Map<string, BqType>;
  /** System variables (`time_zone`, `error.message` …): dotted lower-case path → type. */
  systemVariables?: Map<string, BqType>;
  /** Extra catalog functions (`FunctionProto`s of temporary SQL functions, src/scripting). */
  functions?: object[];
}

/** Removes comments and whitespace; empty when nothing executable remains. */
export function stripComments(s: string): string {
  return s.replace(/--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\//g, '').trim();
}

const MAX_CACHE = 2000;

/**
 * Analyses kept (oldest out first). Fewer than the statement positions kept (MAX_CACHE): a
 * kept resolved AST costs ~4.5 KB of heap even for a 30-character `SELECT` (measured), and 2,000
 * of them were a third of the emulator's memory growth over 10,000 distinct small queries
 * (bench/results/2026-11-26-cold-start.md); 500 still hold every statement a script loop or a
 * dashboard repeats.
 */
const ANALYSIS_CACHE_MAX_ENTRIES = 500;

/**
 * Analyses kept in the cache are bounded by the size of their statements too: a resolved AST holds
 * ~170 bytes of objects per character of its statement (a 100,000-literal IN list: ~100 MB), and
 * 2,000 such entries kept every large hostile text of a fuzz run alive (V8 heap 1.45 GB, garbage
 * collection the largest share of the event-loop stalls). Statements over
 * ANALYSIS_CACHE_MAX_STATEMENT_BYTES are not kept; the kept ones hold at most
 * ANALYSIS_CACHE_MAX_TOTAL_BYTES of statement text (oldest out first). Short statements — the ones
 * that repeat, e.g. inside script loops — are unaffected.
 */
const ANALYSIS_CACHE_MAX_STATEMENT_BYTES = 64 * 1024;
const ANALYSIS_CACHE_MAX_TOTAL_BYTES = 4 * 1024 * 1024;

/** ZetaSQL rewrites that turn constructs into simpler resolved AST (PIVOT → aggregation, …). */
const ANALYZER_REWRITES = [
  'REWRITE_FLATTEN', 'REWRITE_ARRAY_FILTER_TRANSFORM', 'REWRITE_UNPIVOT', 'REWRITE_PIVOT', 'REWRITE_ARRAY_INCLUDES',
  'REWRITE_TYPEOF_FUNCTION', 'REWRITE_WITH_EXPR', 'REWRITE_NULLIFERROR_FUNCTION', 'REWRITE_LIKE_ANY_ALL',
];

/**
 * The exact content of an analysis catalog as a string, for naming it once registered in an
 * analyzer process (src/analyzer/registered-catalogs.ts): everything but the parts every catalog
 * shares — the builtin function options and the emulator's own functions (CATALOG_FUNCTIONS,
 * always the first entries of the root's functions).
 */
export function catalogKey(root: CatalogProto): string {
  return JSON.stringify(root, function (this: unknown, k, v) {
    if (this === root && k === 'builtinFunctionOptions') return undefined;
    if (v === root.customFunction) return (v as unknown[]).slice(CATALOG_FUNCTIONS.length);
    return v;
  });
}

export class StatementAnalyzer {
  private cache = new Map<string, AnalyzedStatement & { next: number; bytes: number }>();
  /** Statement bytes of the analyses in `cache`. */
  private cachedBytes = 0;
  private extractCache = new Map<string, { names: string[][]; next: number }>();

  constructor(
    private readonly analyzer: AnalyzerClient,
    private readonly catalog: CatalogStore,
  ) {
    // A cancelled job (jobs.cancel, statement timeout) abandons its analyzer calls too.
    analyzer.signalOf = currentInterrupterSignal;
  }

  /** Byte positions where statements start; the caller analyzes them one by one. */
  async nextStatement(sql: string, pos: number): Promise<{ names: string[][]; next: number }> {
    const key = `${pos}\u0000${sql}`;
    const hit = this.extractCache.get(key);
    if (hit) return hit;
    const res = await this.analyzer.call('extractTableNamesFromNextStatement', {
      parseResumeLocation: { input: sql, bytePosition: pos, allowResume: true },
      options: this.analyzer.languageOptions,
    });
    const out = {
      names: (res.tableName ?? []).map((t: { tableNameSegment?: string[] }) => t.tableNameSegment ?? []),
      next: Number(res.resumeBytePosition ?? Buffer.byteLength(sql)),
    };
    remember(this.extractCache, key, out);
    return out;
  }

  /**
   * Analyzes the statement starting at byte `pos` of `sql`.
   * @throws BigQueryError invalidQuery (syntax/analysis), notFound (dataset/table)
   */
  async analyze(sql: string, pos: number, defaults: NameDefaults, params: ParamTypes): Promise<AnalyzedStatement & { next: number }> {
    const paramKey = [...(params.named ?? new Map()).entries()].map(([k, v]) => `${k}:${JSON.stringify(v)}`).join(',') + '|' + JSON.stringify(params.positional ?? []) +
      (params.variables || params.systemVariables || params.functions ? JSON.stringify([[...(params.variables ?? [])], [...(params.systemVariables ?? [])], params.functions ?? []]) : '');
    const key = `${this.catalog.version}\u0000${pos}\u0000${defaults.location ?? ''}\u0000${defaults.projectId}\u0000${defaults.defaultDataset?.projectId}.${defaults.defaultDataset?.datasetId}\u0000${defaults.temp?.tables.size ? `${defaults.temp.datasetId}:${[...defaults.temp.tables].join(',')}` : ''}\u0000${paramKey}\u0000${sql}`;
    // A job's own TEMP scope is unique per job but matters only once it holds tables.
    const hit = this.cache.get(key);
    if (hit) return hit;
    const { names, next } = await this.nextStatement(sql, pos);
    const root: CatalogProto = { name: '', table: [], catalog: [] };
    const tables = new Map<string, TableMeta>();
    const bind = (segs: string[]): boolean => {
      const scope = infoSchemaScope(segs, defaults);
      if (scope) {
        const meta = infoSchemaTable(this.catalog, scope);
        const id = String(tables.size + 1);
        tables.set(id, meta);
        addTable(root, segs, { name: segs[segs.length - 1], serializationId: id, fullName: segs.join('.'), column: meta.columns.map((c) => ({ name: c.name, type: toTypeProto(c.type) })) });
        return true;
      }
      let ref: TableRef;
      try {
        ref = resolveTablePath(segs, defaults);
      } catch {
        return false; // not a table we can bind; the analyzer reports it
      }
      const meta = this.catalog.getTable(ref.projectId, ref.datasetId, ref.tableId) ?? wildcardTable(this.catalog, ref);
      if (!meta) return false;
      // A job with a location sees only that location's datasets (TEMP tables go with the job).
      if (!this.visibleFrom(ref, defaults)) return false;
      const id = String(tables.size + 1);
      tables.set(id, meta);
      const column: object[] = meta.columns.map((c) => ({ name: c.name, type: toTypeProto(c.type) }));
      if (meta.wildcard) column.push({ name: '_TABLE_SUFFIX', type: { typeKind: 'TYPE_STRING' }, isPseudoColumn: true });
      if (isIngestionPartitioned(meta)) for (const c of INGESTION_PSEUDO_COLUMNS) column.push({ name: c.name, type: toTypeProto(c.type), isPseudoColumn: true });
      addTable(root, segs, {
        name: segs[segs.length - 1],
        serializationId: id,
        fullName: `${ref.projectId}.${ref.datasetId}.${ref.tableId}`,
        column,
      });
      return true;
    };
    for (const segs of names) {
      checkDatasetIdInPath(segs, defaults);
      bind(segs);
    }
    const options = {
      languageOptions: this.analyzer.languageOptions,
      defaultTimezone: 'UTC',
      errorMessageMode: 'ERROR_MESSAGE_ONE_LINE',
      pruneUnusedColumns: true,
      showFunctionSignatureMismatchDetails: true,
      enabledRewrites: [...ANALYZER_REWRITES, 'REWRITE_INLINE_SQL_FUNCTIONS', 'REWRITE_INLINE_SQL_TVFS', 'REWRITE_INLINE_SQL_UDAS'],
      parameterMode: params.positional?.length ? 'PARAMETER_POSITIONAL' : 'PARAMETER_NAMED',
      queryParameters: [...(params.named ?? new Map()).entries()].map(([name, t]) => ({ name, type: toTypeProto(t) })),
      positionalQueryParameters: (params.positional ?? []).map(toTypeProto),
      // Ingestion-time partitioning: `PARTITION BY _PARTITIONDATE` / `_PARTITIONTIME` in CREATE TABLE.
      ddlPseudoColumns: [
        { name: '_PARTITIONTIME', type: { typeKind: 'TYPE_TIMESTAMP' } },
        { name: '_PARTITIONDATE', type: { typeKind: 'TYPE_DATE' } },
      ],
      systemVariables: [...(params.systemVariables ?? [])].map(([path, t]) => ({ namePath: path.split('.'), type: toTypeProto(t) })),
    };
    root.customFunction = [...CATALOG_FUNCTIONS, ...(params.functions ?? [])];
    root.constant = [...(params.variables ?? [])].map(([name, t]) => ({ namePath: [name], type: toTypeProto(t), value: {} }));
    let stmt: Node | undefined;
    let target: object = { parseResumeLocation: { input: sql, bytePosition: pos, allowResume: true } };
    let rewritten = false;
    const tried = new Set<number>(); // src/analyzer/error-rewrites.ts entries applied
    // Source rewrites (src/analyzer/rewrite.ts, range-sessionize.ts) analyze the statement's text
    // alone; `remap` takes an error about the rewritten text back to the request's positions.
    let text: string | undefined;
    let remap: (e: unknown) => unknown = (e) => e;
    // Errors about the statement's text alone, placed in the request's text.
    const fromStatement = (e: unknown) => {
      const base = lineColOf(sql, pos);
      return mapLocations(e, (l, c) => (l === 1 ? { line: base.line, column: base.column + c - 1 } : { line: base.line + l - 1, column: c }));
    };
    const rewrite = (fixed: string, back: (e: unknown) => unknown = (e) => e) => {
      const prev = text === undefined ? fromStatement : remap;
      remap = (e) => prev(back(e));
      text = fixed;
      target = { sqlStatement: fixed };
    };
    const original = () => Buffer.from(sql).subarray(pos, next).toString('utf8').replace(/;\s*$/, '');
    // Statement targets the name extractor does not report (ALTER TABLE …) are bound on demand.
    for (let attempt = 0; !stmt; attempt++) {
      try {
        // A dataset named like a builtin function namespace (`net`) leaves that namespace out.
        const excluded = excludedNamespaceFunctions(root.catalog.map((c) => c.name));
        root.builtinFunctionOptions = { languageOptions: this.analyzer.languageOptions, ...(excluded.length ? { excludeFunctionIds: excluded } : {}) };
        const res = await this.analyzer.call('analyze', { options, simpleCatalog: root, ...target }, undefined, { key: catalogKey(root) });
        stmt = resolvedStatementOf(res);
      } catch (e) {
        const missing = missingTable(e);
        if (attempt < 8 && missing && bind(missing)) continue;
        const fn = missingRoutine(e);
        if (attempt < 16 && fn && this.bindRoutine(root, fn.segs, fn.tvf, defaults)) continue;
        if (attempt < 24 && isMissingRangeSessionize(e)) {
          const before = text ?? original();
          const r = await this.rewriteSessionize(before, text === undefined ? fromStatement : remap);
          if (r) {
            rewrite(r.sql, r.remap);
            continue;
          }
        }
        const r = e instanceof BigQueryError ? ERROR_REWRITES.findIndex((x, i) => !tried.has(i) && x.error.test(e.message)) : -1;
        if (r >= 0) {
          tried.add(r);
          const fixed = await this.rewriteParsed(text ?? original(), ERROR_REWRITES[r].rewrite);
          if (fixed) {
            rewrite(fixed);
            continue;
          }
        }
        if (!rewritten && e instanceof BigQueryError && /neither grouped nor aggregated/.test(e.message)) {
          rewritten = true;
          const fixed = await this.rewriteGroupBy(text ?? original());
          if (fixed) {
            rewrite(fixed);
            continue;
          }
        }
        throw this.notFoundFromAnalyzer(remap(e), defaults);
      }
    }
    const out = { stmt, tables, next };
    this.keep(key, { ...out, bytes: next - pos });
    return out;
  }

  /** Keeps an analysis in the cache within its bounds (ANALYSIS_CACHE_MAX_ENTRIES, ANALYSIS_CACHE_MAX_* bytes). */
  private keep(key: string, entry: AnalyzedStatement & { next: number; bytes: number }): void {
    if (entry.bytes > ANALYSIS_CACHE_MAX_STATEMENT_BYTES) return;
    const same = this.cache.get(key);
    if (same) {
      this.cache.delete(key);
      this.cachedBytes -= same.bytes;
    }
    while (this.cache.size && (this.cache.size >= ANALYSIS_CACHE_MAX_ENTRIES || this.cachedBytes + entry.bytes > ANALYSIS_CACHE_MAX_TOTAL_BYTES)) {
      const [oldest, old] = this.cache.entries().next().value as [string, { bytes: number }];
      this.cache.delete(oldest);
      this.cachedBytes -= old.bytes;
    }
    this.cache.set(key, entry);
    this.cachedBytes += entry.bytes;
  }

  /** Adds a stored routine to the catalog under the path the statement wrote. */
  private bindRoutine(root: CatalogProto, segs: string[], tvf: boolean, defaults: NameDefaults): boolean {
    let ref: TableRef;
    try {
      ref = resolveTablePath(segs, defaults);
    } catch {
      return false;
    }
    const r = this.catalog.getRoutine(ref.projectId, ref.datasetId, ref.tableId);
    if (!r || (r.routineType === 'TABLE_VALUED_FUNCTION') !== tvf || r.routineType === 'PROCEDURE') return false;
    const cat = subCatalog(root, segs.slice(0, -1));
    const name = segs[segs.length - 1];
    if (tvf) {
      cat.customTvf ??= [];
      if (cat.customTvf.some((f) => (f as { namePath: string[] }).namePath[0].toLowerCase() === name.toLowerCase())) return false;
      cat.customTvf.push(tvfProto(r, [name]));
    } else {
      cat.customFunction ??= [];
      if (cat.customFunction.some((f) => (f as { namePath: string[] }).namePath.join('.').toLowerCase() === name.toLowerCase())) return false;
      cat.customFunction.push(functionProto(r, [name]));
    }
    return true;
  }

  /**
   * The RANGE_SESSIONIZE rewrite of src/analyzer/range-sessionize.ts applied to one statement's
   * text; undefined when it does not parse or holds no call.
   * @throws BigQueryError invalidQuery for a bad argument, located through `remap`
   */
  private async rewriteSessionize(text: string, remap: (e: unknown) => unknown): Promise<SessionizeRewrite | undefined> {
    let parsed;
    try {
      parsed = await this.analyzer.call('parse', { sqlStatement: text, options: this.analyzer.languageOptions });
    } catch {
      return undefined;
    }
    try {
      return rewriteRangeSessionize(text, parsed.parsedStatement);
    } catch (e) {
      throw remap(e);
    }
  }

  /** A parse-tree rewrite (src/analyzer/error-rewrites.ts) applied to one statement's text; undefined when it does not parse or nothing applies. */
  private async rewriteParsed(text: string, f: (sql: string, parsed: unknown) => string | undefined): Promise<string | undefined> {
    const stmtText = text.replace(/;\s*$/, '');
    let parsed;
    try {
      parsed = await this.analyzer.call('parse', { sqlStatement: stmtText, options: this.analyzer.languageOptions });
    } catch {
      return undefined;
    }
    return f(stmtText, parsed.parsedStatement);
  }

  /** The GROUP BY rewrite of src/analyzer/rewrite.ts applied to one statement's text. */
  private async rewriteGroupBy(text: string): Promise<string | undefined> {
    const stmtText = text.replace(/;\s*$/, '');
    try {
      const parsed = await this.analyzer.call('parse', { sqlStatement: stmtText, options: this.analyzer.languageOptions });
      return rewriteGroupByExpressions(stmtText, parsed.parsedStatement);
    } catch {
      return undefined;
    }
  }

  /** Turns ZetaSQL's `Table not found: x` into BigQuery's 404 for the resolved name, and a missing `ML.f` into the BigQuery ML refusal. */
  private notFoundFromAnalyzer(e: unknown, defaults: NameDefaults): unknown {
    // ML.PREDICT, ML.EVALUATE …: BigQuery ML functions (no dataset `ML` holds such a routine).
    const fn = missingRoutine(e);
    if (fn?.segs.length === 2 && fn.segs[0].toUpperCase() === 'ML' && !this.catalog.getDataset(defaults.projectId, fn.segs[0]))
      return BigQueryError.bigQueryMlNotSupported(`ML.${fn.segs[1].toUpperCase()}`);
    const refused = fn && refusedByName(fn.segs, (d) => !!this.catalog.getDataset(defaults.projectId, d));
    if (refused) return refused;
    const segs = missingTable(e);
    if (!segs) return e;
    const path = segs.join('.');
    let ref: TableRef;
    try {
      ref = resolveTablePath([path], { ...defaults, defaultDataset: defaults.defaultDataset });
    } catch (err) {
      return path.split('.').length === 1 ? err : e;
    }
    if (!this.catalog.getDataset(ref.projectId, ref.datasetId) || !this.visibleFrom(ref, defaults))
      return BigQueryError.datasetNotFound(ref.projectId, ref.datasetId, true, defaults.location ?? DEFAULT_LOCATION);
    return BigQueryError.tableNotFound(ref.projectId, ref.datasetId, ref.tableId, defaults.location ?? true);
  }

  /** Whether a job of `defaults.location` (none: any) sees the dataset of `ref` (src/types/locations.ts). */
  private visibleFrom(ref: TableRef, defaults: NameDefaults): boolean {
    if (!defaults.location || ref.datasetId === defaults.temp?.datasetId) return true;
    return sameLocation(datasetLocation(this.catalog.getDataset(ref.projectId, ref.datasetId)), defaults.location);
  }
}

function remember<K, V>(m: Map<K, V>, k: K, v: V): void {
  if (m.size >= MAX_CACHE) m.delete(m.keys().next().value as K);
  m.set(k, v);
}

/**
 * A BigQuery function the bundled analyzer does not know that the function table refuses by name
 * (`{unsupported}` entries of src/functions: graph, ObjectRef, KLL, DLP, SEARCH, VECTOR_SEARCH,
 * APPENDS…), or an `AI.` function (BigQuery's generative AI functions call Vertex AI), as the
 * emulator's "not supported" error naming the reason; undefined for any other missing routine.
 * `isDataset` tells a dataset that could hold a routine of that path (`AI.f` in a dataset `AI`).
 */
export function refusedByName(segs: string[], isDataset: (datasetId: string) => boolean): BigQueryError | undefined {
  const name = segs.join('.').toLowerCase();
  const f = lookupFunction(name);
  if (f && 'unsupported' in f) return BigQueryError.notSupported(`Function ${name.toUpperCase()} (${f.unsupported})`);
  if (segs.length === 2 && segs[0].toUpperCase() === 'AI' && !isDataset(segs[0]))
    return BigQueryError.notSupported(`Function ${name.toUpperCase()} (BigQuery's AI functions call Vertex AI models, which the emulator does not have)`);
  return undefined;
}
