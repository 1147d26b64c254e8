#!/usr/bin/env node
// Bundles the compiled command line (dist/cli/main.js and everything it imports, the pure-JavaScript
// dependencies included) into a few modules under dist/cli/bundle/ (main.js and its chunks), which
// bin/bqemu.js runs. Cold start: Node 20 spends more time resolving, reading and linking ~1,500
// small modules than running them (measured in bench/results/2026-11-26-cold-start.md).
// - Each dynamic import is a chunk of its own (esbuild's code splitting), loaded when the import()
//   is reached: `serve` compiles the small entry, spawns the analyzer, and only then compiles the
//   server's chunk (src/cli/main.ts) — one single file delayed the analyzer's spawn by its compile.
// - `import.meta.url` of each module is rewritten to its own compiled file's URL (relative to the
//   bundle), so the files found beside a module (worker scripts, the analyzer launcher, the protos
//   descriptor, the web console) are the ones under dist/ as before.
// - Packages with native code or WebAssembly, or that locate files beside themselves, stay
//   external (loaded from node_modules as before), as do the optional peer dependencies.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = path.join(root, 'dist', 'cli', 'bundle');

const EXTERNAL = [
  '@duckdb/*',
  '@fivetrandevelopers/zetasql',
  'lz4-napi',
  'zstd-napi',
  'farmhash-modern',
  'quickjs-emscripten',
  'quickjs-emscripten/*',
  'tsx',
  'tsx/*',
  '@google-cloud/bigquery',
  '@google-cloud/bigquery-storage',
  '@google-cloud/bigquery-storage/*',
  'google-auth-library',
  'vitest',
  'esbuild',
];

/**
 * Writes BUNDLE_DIR from the compiled dist/ (run after tsc). Without esbuild (a production install
 * that has only dependencies) it removes any stale bundle and returns false: bin/bqemu.js then runs
 * dist/cli/main.js.
 */
export async function buildBundle() {
  fs.rmSync(BUNDLE_DIR, { recursive: true, force: true });
  let build;
  try {
    ({ build } = await import('esbuild'));
  } catch {
    return false;
  }
  const dist = path.join(root, 'dist');
  const outDir = BUNDLE_DIR;
  const ownUrl = {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(dist + path.sep)) return undefined;
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
        const rel = path.relative(outDir, args.path).split(path.sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
  await build({
    entryPoints: [path.join(dist, 'cli', 'main.js')],
    outdir: BUNDLE_DIR,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownUrl],
    // CommonJS dependencies call require() for Node's own modules.
    banner: { js: "import { createRequire as __bqemuCreateRequire } from 'node:module';\nconst require = __bqemuCreateRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'warning',
  });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildBundle();
