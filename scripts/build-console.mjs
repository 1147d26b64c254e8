#!/usr/bin/env node
// Bundles the web console (console/: preact + htm components, CodeMirror 6, Tabulator, Pico CSS)
// into dist/web-console/ with esbuild: index.html, app.js, app.css. No CDN: every asset the page
// loads is one of these files, served by src/server/console.ts. `npm run build` runs this after
// compiling src/; the server runs it itself (as a child process) when the bundle is missing or
// older than console/ in a development checkout.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_SRC = path.join(root, 'console');
export const CONSOLE_OUT = path.join(root, 'dist', 'web-console');

/** Builds the console bundle into CONSOLE_OUT (replacing what is there). */
export async function buildConsole() {
  const tmp = `${CONSOLE_OUT}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  await build({
    entryPoints: { app: path.join(CONSOLE_SRC, 'main.js'), 'app-style': path.join(CONSOLE_SRC, 'style.css') },
    outdir: tmp,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox115', 'safari16'],
    legalComments: 'linked',
    logLevel: 'warning',
  });
  fs.renameSync(path.join(tmp, 'app-style.css'), path.join(tmp, 'app.css'));
  for (const f of fs.readdirSync(tmp)) if (f.startsWith('app-style')) fs.rmSync(path.join(tmp, f));
  fs.copyFileSync(path.join(CONSOLE_SRC, 'index.html'), path.join(tmp, 'index.html'));
  fs.rmSync(CONSOLE_OUT, { recursive: true, force: true });
  fs.renameSync(tmp, CONSOLE_OUT);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildConsole();
