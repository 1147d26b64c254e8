#!/usr/bin/env node
// Bundles the compiled command line (dist/cli/main.js and everything it imports, the pure-JavaScript
// dependencies included) into one CommonJS file, dist/cli/bundle/main.cjs, which bin/bqemu.js runs
// with a V8 code cache (dist/cli/bundle/main.cjs.<build id>.cache, written by a training run: see
// writeCodeCache). Cold start: Node 20 spends more time resolving, reading and linking ~1,500 small
// modules than running them, and more compiling one large module than deserialising its code
// (measured in bench/results/2026-11-26-cold-start.md and -cold-start-2.md).
// - CommonJS because Node 20 offers a code cache only for scripts (vm.Script's cachedData), not for
//   ES modules; the dynamic imports of dist/ become lazy initialisers inside the one file.
// - `import.meta.url` of each module is rewritten to its own compiled file's URL (relative to the
//   bundle), so the files found beside a module (worker scripts, the analyzer launcher, the protos
//   descriptor, the web console) are the ones under dist/ as before.
// - Packages with native code or WebAssembly, or that locate files beside themselves, stay
//   external (loaded from node_modules as before), as do the optional peer dependencies.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = path.join(root, 'dist', 'cli', 'bundle');

const EXTERNAL = [
  // DuckDB's native binding (it finds its platform's package); @duckdb/node-api, its 124 small
  // modules of JavaScript, is bundled (in the code cache, not resolved file by file at start).
  '@duckdb/node-bindings',
  '@duckdb/node-bindings-*',
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

/** The bundle bin/bqemu.js runs. */
export const BUNDLE_FILE = path.join(BUNDLE_DIR, 'main.cjs');

/** Its V8 code cache: `main.cjs.<build id>.cache`, the id being the one in the bundle's first line. */
function codeCacheFile() {
  const id = /\/\* bqemu build ([0-9a-f]+) \*\//.exec(fs.readFileSync(BUNDLE_FILE, 'latin1').slice(0, 100))?.[1];
  return id && `${BUNDLE_FILE}.${id}.cache`;
}

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
        return { contents: text.replaceAll('import.meta.url', `__bqemuModuleUrl(${JSON.stringify(rel)})`), loader: 'js' };
      });
    },
  };
  await build({
    entryPoints: [path.join(dist, 'cli', 'main.js')],
    outfile: BUNDLE_FILE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownUrl],
    // Strict, as the ES modules it is made of; each module's own URL (see ownUrl above).
    banner: { js: `'use strict';\n/* bqemu build ${crypto.randomBytes(8).toString('hex')} */\nconst __bqemuModuleUrl = (rel) => require('node:url').pathToFileURL(require('node:path').join(__dirname, rel)).href;` },
    legalComments: 'none',
    // No comments and no layout: 7.2 → 4.9 MB to read, and ASCII only (bin/bqemu.js reads it as
    // Latin-1); names are kept (no renaming), so stacks and messages read as before.
    minifyWhitespace: true,
    charset: 'ascii',
    logLevel: 'warning',
    // protobufjs's generated decoders repeat a case for an enum's aliases (scripts/gen-analyzer-codecs.mjs
    // writes them as protobufjs does; the first one wins, as at run time).
    logOverride: { 'duplicate-case': 'silent' },
  });
  return true;
}

/** Longest the training run may take, ms (it is skipped past this, the build still succeeds). */
const TRAINING_TIMEOUT_MS = 60_000;

/**
 * The training run: starts `bin/bqemu.js serve` (which must run this bundle: call it after the
 * build stamp is written) with BQEMU_WRITE_CODE_CACHE=1, answers two queries through REST, and
 * stops it; on exit the emulator writes the code cache (codeCacheFile), V8's code for every
 * function compiled by then (start-up and the first queries' path), so later starts deserialise it
 * instead of compiling.
 * V8 rejects a cache made by another Node version or with other V8 flags (then the bundle is
 * compiled as without one). Never fails the build: returns false (and leaves no cache) on error.
 */
export async function writeCodeCache() {
  if (!fs.existsSync(BUNDLE_FILE)) return false;
  const CODE_CACHE_FILE = codeCacheFile();
  if (!CODE_CACHE_FILE) return false;
  fs.rmSync(CODE_CACHE_FILE, { force: true });
  const child = spawn(process.execPath, [path.join(root, 'bin', 'bqemu.js'), 'serve', '--port', '0', '--grpc-port', '0', '--project', 'code-cache-training'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
    // The user's BQEMU_* settings (a data directory…) are not the training run's.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BQEMU_'))), BQEMU_WRITE_CODE_CACHE: '1', BQEMU_LOG_LEVEL: 'warn' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), TRAINING_TIMEOUT_MS);
  try {
    let out = '';
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /serving BigQuery REST v2 on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      exited.then(() => reject(new Error('the training run exited before it served')));
    });
    for (const query of ['SELECT 1', "SELECT x, 'a' AS s FROM UNNEST([1, 2]) AS x ORDER BY x"]) {
      const r = await fetch(`${url}/bigquery/v2/projects/code-cache-training/queries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, useLegacySql: false }),
      });
      await r.arrayBuffer();
    }
    child.kill('SIGTERM');
    await exited;
    return fs.existsSync(CODE_CACHE_FILE);
  } catch (e) {
    child.kill('SIGKILL');
    await exited;
    fs.rmSync(CODE_CACHE_FILE, { force: true });
    console.error(`build: no code cache for the bundle (${e.message})`);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildBundle();
  await writeCodeCache();
}
