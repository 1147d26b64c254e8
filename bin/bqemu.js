#!/usr/bin/env node
// Entry point. Runs the compiled build (dist/, made by `npm run build`, which `npm install` runs)
// when it is at least as new as every file under src/ — its bundle (dist/cli/bundle/main.cjs,
// scripts/build-bundle.mjs) with its V8 code cache when there is one, which starts faster;
// otherwise compiles on the fly with tsx. CommonJS (bin/package.json), so the first line below runs before Node reads any file
// through libuv's thread pool: an ES module entry is itself read through that pool, which fixes
// its size before the module's first line runs.
'use strict';

// libuv's thread pool runs every DuckDB call of @duckdb/node-api (a running query holds one thread
// until DuckDB hands back a chunk); its default of 4 threads made a `SELECT 1` wait behind 4 long
// queries. Sized above the DuckDB connection pool's maximum (src/engine/duckdb/connection-pool.ts POOL_MAX).
// Read by libuv when the pool first starts, so it is set before anything uses it.
process.env.UV_THREADPOOL_SIZE ??= '24';

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function newestSource(dir) {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function buildIsFresh() {
  try {
    const stamp = fs.statSync(path.join(root, 'dist', '.build-stamp')).mtimeMs;
    return newestSource(path.join(root, 'src')) <= stamp;
  } catch {
    return false;
  }
}

/**
 * Runs the CommonJS bundle `file` as a module, compiled with V8's code cache
 * `<file>.<build id>.cache` when there is one: the build id is in the bundle's first line, so a
 * cache is only ever read with the bundle it was made for, whatever the files' times after a copy
 * (V8 itself rejects a cache of another Node version or other V8 flags: the bundle is then
 * compiled as without one). With BQEMU_WRITE_CODE_CACHE=1
 * (the build's training run, scripts/build-bundle.mjs) it reads no cache and writes one when the
 * process exits, holding the code of every function compiled by then.
 */
function runBundle(file) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const training = process.env.BQEMU_WRITE_CODE_CACHE === '1';
  // The build writes ASCII (esbuild escapes the rest): read as Latin-1, a copy, not a UTF-8 decode
  // (26 ms → 1 ms for the 5 MB bundle); any other byte and it is decoded as UTF-8.
  const bytes = fs.readFileSync(file);
  const source = require('node:buffer').isAscii?.(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const buildId = /^'use strict';\n\/\* bqemu build ([0-9a-f]+) \*\//.exec(source.slice(0, 100))?.[1];
  const cacheFile = buildId && `${file}.${buildId}.cache`;
  let cachedData;
  if (cacheFile && !training) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      // No cache (a build without the training run): compiled from source.
    }
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    // The bundle's import() of external packages goes through Node's own loader.
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (training && cacheFile) {
    process.once('exit', () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    });
  }
  const mod = new Module(file, module);
  mod.filename = file;
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
}

async function main() {
  if (buildIsFresh()) {
    const bundle = path.join(root, 'dist', 'cli', 'bundle', 'main.cjs');
    if (fs.existsSync(bundle)) runBundle(bundle);
    else await import('../dist/cli/main.js');
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../src/cli/main.ts');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
