/**
 * The layer check: cruises src/ with dependency-cruiser and the rules in .dependency-cruiser.cjs
 * (no import cycle, no import running back up a layer; the layer order is written down there).
 *
 * dependency-cruiser 17 parses TypeScript only through typescript < 7; this repository has
 * typescript 7 (no JS compiler API), so the check first writes a JavaScript mirror of the tree:
 * each `.ts` file is stripped of its types by esbuild with `verbatimModuleSyntax`, after a textual
 * pass that turns type-only imports (`import type`, `export type … from`, `import('x').T`,
 * `typeof import('x')`) into plain imports so they still count as edges. Dynamic `import()` calls
 * are kept as they are (dependency-cruiser reports them as dynamic imports). Reports map the
 * mirror's `.js` names back to the `.ts` sources.
 *
 * Usage: `npm run deps:check` (exit status 1 and one line per violation when the check fails).
 */
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

/** One broken rule: the rule's name, the importing module, the imported one, and for cycles the loop. */
export interface LayerViolation {
  rule: string;
  from: string;
  to: string;
  cycle?: string[];
}

/** The outcome of one cruise: how many modules/dependencies were read, and every violation. */
export interface LayerReport {
  modules: number;
  dependencies: number;
  dynamicImports: Array<{ from: string; to: string }>;
  violations: LayerViolation[];
}

const TYPE_IMPORT_EXPR = /(typeof\s+)?\bimport\(\s*(['"])([^'"]+)\2\s*\)(\s*\.\s*([A-Za-z_$][\w$]*))?/g;

/**
 * Rewrites one TypeScript source so every type-only import survives type stripping as an import.
 * Returns the rewritten text (still TypeScript).
 */
export function keepTypeImports(source: string): string {
  const extra: string[] = [];
  let text = source
    .replace(/\bimport\s+type\s+(?=[{*\w])/g, 'import ')
    .replace(/\bexport\s+type\s+(\{[^}]*\}\s*from\b)/g, 'export $1')
    .replace(/\bexport\s+type\s+(\*\s*(as\s+\w+\s+)?from\b)/g, 'export $1');
  text = text.replace(TYPE_IMPORT_EXPR, (whole, typeofKw: string | undefined, _q, spec: string, member: string | undefined, name: string | undefined) => {
    const typePosition = typeofKw !== undefined || (member !== undefined && name !== 'then');
    if (!typePosition) return whole;
    extra.push(`import {} from ${JSON.stringify(spec)};`);
    return 'any';
  });
  return extra.length ? `${extra.join('\n')}\n${text}` : text;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * Writes the JavaScript mirror of `root/<dir>` under `mirror/<dir>` (`.ts` → stripped `.js`; `.json`
 * copied so JSON imports resolve). Returns the number of TypeScript modules written.
 */
export function writeMirror(root: string, dir: string, mirror: string): number {
  let n = 0;
  for (const file of walk(join(root, dir))) {
    const rel = relative(root, file);
    if (file.endsWith('.json')) {
      mkdirSync(dirname(join(mirror, rel)), { recursive: true });
      copyFileSync(file, join(mirror, rel));
      continue;
    }
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const code = transformSync(keepTypeImports(readFileSync(file, 'utf8')), {
      loader: 'ts',
      format: 'esm',
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    }).code;
    const out = join(mirror, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, code);
    n++;
  }
  return n;
}

const toTs = (name: string): string => name.replace(/\.js$/, '.ts');

/**
 * Cruises `root/<dir>` (default: this repository's src/) with the given forbidden rules (default: the
 * ones in .dependency-cruiser.cjs) and returns the module count and every violation.
 */
export async function checkLayers(opts: { root?: string; dir?: string; forbidden?: IForbiddenRuleType[] } = {}): Promise<LayerReport> {
  const root = opts.root ?? resolve(dirname(new URL(import.meta.url).pathname), '..');
  const dir = opts.dir ?? 'src';
  const forbidden = opts.forbidden ?? (createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as { forbidden: IForbiddenRuleType[] }).forbidden;
  const mirror = mkdtempSync(join(tmpdir(), 'bqemu-layers-'));
  try {
    writeMirror(root, dir, mirror);
    const out = await cruise([dir], {
      baseDir: mirror,
      ruleSet: { forbidden },
      validate: true,
      exclude: { path: 'node_modules' },
      doNotFollow: { path: 'node_modules' },
    });
    const result = out.output as ICruiseResult;
    const violations: LayerViolation[] = (result.summary.violations ?? []).map((v) => ({
      rule: v.rule.name,
      from: toTs(v.from),
      to: toTs(v.to),
      ...(v.cycle ? { cycle: v.cycle.map((c) => toTs(typeof c === 'string' ? c : c.name)) } : {}),
    }));
    const dynamicImports = result.modules.flatMap((m) =>
      m.dependencies.filter((d) => d.dynamic && !d.coreModule && d.resolved.startsWith(`${dir}/`)).map((d) => ({ from: toTs(m.source), to: toTs(d.resolved) })),
    );
    const modules = result.modules.filter((m) => m.source.startsWith(`${dir}/`) && m.source.endsWith('.js'));
    return {
      modules: modules.length,
      dependencies: result.summary.totalDependenciesCruised ?? 0,
      dynamicImports,
      violations,
    };
  } finally {
    rmSync(mirror, { recursive: true, force: true });
  }
}

/** Renders a report as text: one line per violation, then a summary line. */
export function formatLayerReport(r: LayerReport): string {
  const lines = r.violations.map((v) => (v.cycle ? `${v.rule}: ${v.from} -> ${v.cycle.join(' -> ')}` : `${v.rule}: ${v.from} -> ${v.to}`));
  lines.push(
    r.violations.length === 0
      ? `no dependency violations found (${r.modules} modules, ${r.dependencies} dependencies cruised)`
      : `${r.violations.length} dependency violations (${r.modules} modules, ${r.dependencies} dependencies cruised)`,
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = await checkLayers();
  console.log(formatLayerReport(report));
  process.exitCode = report.violations.length ? 1 : 0;
}
