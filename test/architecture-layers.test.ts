/**
 * The layer check (.dependency-cruiser.cjs, scripts/dependency-layers.ts): src/ has no import cycle
 * (type-only imports included), no import running back up a layer and no cycle-breaking dynamic
 * import. The other cases cruise tiny temporary trees with a known back-edge, cycle and dynamic
 * import, proving the check can fail; and the module that used to crash when imported first
 * (engine/export.ts, "Cannot access 'EXPORT' before initialization") now loads on its own.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { IForbiddenRuleType } from 'dependency-cruiser';
import { checkLayers, formatLayerReport, keepTypeImports } from '../scripts/dependency-layers.js';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const { forbidden } = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as { forbidden: IForbiddenRuleType[] };

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Writes a temporary repository holding `files` (paths relative to its root). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bqemu-layers-fixture-'));
  temps.push(dir);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

describe('architecture layers', () => {
  it('src/ has no cycle, no import back up a layer and no cycle-breaking dynamic import', async () => {
    const report = await checkLayers({ root });
    // The whole tree was read (≈ one module per .ts file of src/), not an empty cruise.
    expect(report.modules).toBeGreaterThan(200);
    expect(report.violations, formatLayerReport(report)).toEqual([]);
  });

  it('fails on an import running back up a layer, naming the rule and both modules', async () => {
    const dir = tree({
      'src/engine/a.ts': "import { b } from '../jobs/b.js';\nexport const a = () => b;\n",
      'src/jobs/b.ts': 'export const b = 1;\n',
    });
    const report = await checkLayers({ root: dir, forbidden });
    expect(report.violations).toEqual([{ rule: 'layer-engine', from: 'src/engine/a.ts', to: 'src/jobs/b.ts' }]);
  });

  it('fails on a cycle closed by a type-only import', async () => {
    const dir = tree({
      'src/engine/a.ts': "import { b } from './b.js';\nexport interface A { n: number }\nexport const a = b;\n",
      'src/engine/b.ts': "import type { A } from './a.js';\nexport const b = (x: A) => x.n;\n",
    });
    const report = await checkLayers({ root: dir, forbidden });
    // dependency-cruiser reports a cycle once, from one of its modules, with the loop it closes.
    expect(report.violations).toHaveLength(1);
    const [v] = report.violations;
    expect(v.rule).toBe('no-circular');
    expect([v.from, ...(v.cycle ?? [])].sort()).toEqual(['src/engine/a.ts', 'src/engine/a.ts', 'src/engine/b.ts']);
  });

  it('fails on an in-function import() outside the lazy loaders', async () => {
    const dir = tree({
      'src/engine/a.ts': "export async function f() { return (await import('./b.js')).b; }\n",
      'src/engine/b.ts': 'export const b = 1;\n',
    });
    const report = await checkLayers({ root: dir, forbidden });
    expect(report.violations).toEqual([{ rule: 'no-dynamic-import', from: 'src/engine/a.ts', to: 'src/engine/b.ts' }]);
  });

  it('keeps type-only imports as edges when the types are stripped', () => {
    expect(keepTypeImports("import type { A } from './a.js';")).toBe("import { A } from './a.js';");
    expect(keepTypeImports("export type { A } from './a.js';")).toBe("export { A } from './a.js';");
    expect(keepTypeImports("let x: import('./a.js').A;")).toBe("import {} from \"./a.js\";\nlet x: any;");
    // A dynamic import stays dynamic (it is reported as one).
    expect(keepTypeImports("void import('./a.js').then((m) => m);")).toBe("void import('./a.js').then((m) => m);");
  });

  it('engine/export.ts loads when it is the first module imported', async () => {
    const m = await import('../src/engine/export.js');
    expect(Object.keys(m.EXPORT)).toContain('ExportDataStmt');
  });
});
