#!/usr/bin/env node
// Entry point. Runs the compiled build (dist/, made by `npm run build`, which `npm install` runs)
// when it is at least as new as every file under src/ — its bundle (dist/cli/bundle/main.js,
// scripts/build-bundle.mjs) when there is one, which starts faster;
// otherwise compiles on the fly with tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

if (buildIsFresh()) {
  if (fs.existsSync(path.join(root, 'dist', 'cli', 'bundle', 'main.js'))) await import('../dist/cli/bundle/main.js');
  else await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
