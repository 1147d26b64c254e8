#!/usr/bin/env node
// Entry point. Runs the compiled build (dist/, made by `npm run build`, which `npm install` runs)
// when it is at least as new as every file under src/ — its bundle (dist/cli/bundle/main.js,
// scripts/build-bundle.mjs) when there is one, which starts faster; otherwise compiles on the fly
// with tsx. CommonJS (bin/package.json), so the first line below runs before Node reads any file
// through libuv's thread pool: an ES module entry is itself read through that pool, which fixes
// its size before the module's first line runs.
'use strict';

// libuv's thread pool runs every DuckDB call of @duckdb/node-api (a running query holds one thread
// until DuckDB hands back a chunk); its default of 4 threads made a `SELECT 1` wait behind 4 long
// queries. Sized above the DuckDB connection pool's maximum (src/engine/duckdb/db.ts POOL_MAX).
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

async function main() {
  if (buildIsFresh()) {
    if (fs.existsSync(path.join(root, 'dist', 'cli', 'bundle', 'main.js'))) await import('../dist/cli/bundle/main.js');
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
