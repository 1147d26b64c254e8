/**
 * The web console at `/`: a single page (console/, bundled by scripts/build-console.mjs into
 * dist/web-console/) that browses projects, datasets and tables, runs queries and lists jobs
 * through the emulator's own REST API, same-origin (so the network guards of
 * src/server/rest/network-guards.ts accept its requests as they are). Nothing of the front end is
 * imported here: the files are read at the first request and kept in memory, so the server's
 * start is unaffected. In a development checkout whose bundle is missing or older than console/,
 * the first request builds it in a child process (esbuild, about a second; the event loop is free
 * meanwhile).
 *
 * Routes: `GET /` (the page), `GET /console/<file>` (its script and style sheet). Any other name
 * under /console/ is the REST 404 of an unknown path.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BigQueryError } from '../errors/errors.js';

/** The repository (or installed package) root: src/server/ and dist/server/ are both two levels down. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where scripts/build-console.mjs writes the bundle. */
export const CONSOLE_DIST = path.join(ROOT, 'dist', 'web-console');
const CONSOLE_SRC = path.join(ROOT, 'console');
const BUILD_SCRIPT = path.join(ROOT, 'scripts', 'build-console.mjs');

/** The files the page loads, with their media types. */
const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/**
 * Headers of every console answer: scripts, styles, fetches only from this origin (no CDN, no
 * inline script), never framed by another page, no MIME sniffing.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

let ready: Promise<void> | undefined;
const cache = new Map<string, Buffer>();

/** Newest modification time (ms) of the files under `dir` (0 when it does not exist). */
async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? await newestMtime(p) : (await fs.promises.stat(p)).mtimeMs);
  }
  return newest;
}

/** Whether the bundle exists and is at least as new as the console's sources (when those exist). */
async function bundleIsFresh(): Promise<boolean> {
  let built: number;
  try {
    built = (await fs.promises.stat(path.join(CONSOLE_DIST, 'app.js'))).mtimeMs;
    await fs.promises.access(path.join(CONSOLE_DIST, 'index.html'));
  } catch {
    return false;
  }
  return (await newestMtime(CONSOLE_SRC)) <= built;
}

/** Builds the bundle in a child process (node scripts/build-console.mjs). */
function buildBundle(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BUILD_SCRIPT], { cwd: ROOT, timeout: 120_000 }, (err, _out, stderr) => {
      if (err) reject(new Error(`the web console could not be built (${BUILD_SCRIPT}): ${String(stderr || err.message).trim()}`));
      else resolve();
    });
  });
}

/**
 * Resolves once dist/web-console/ holds a bundle to serve: building it first when it is missing,
 * or stale in a checkout that has console/ sources. A failed build is retried at the next request.
 * @throws Error with the build's error output when the build fails.
 */
export function ensureConsoleBundle(): Promise<void> {
  ready ??= (async () => {
    if (await bundleIsFresh()) return;
    if (!fs.existsSync(BUILD_SCRIPT) || !fs.existsSync(CONSOLE_SRC)) {
      // An installed package ships the bundle; serve what is there (a 500 names what is missing).
      return;
    }
    await buildBundle();
  })().catch((e: unknown) => {
    ready = undefined;
    throw e;
  });
  return ready;
}

async function sendAsset(reply: FastifyReply, name: string): Promise<FastifyReply> {
  await ensureConsoleBundle().catch((e: unknown) => {
    throw BigQueryError.consoleUnavailable((e as Error).message);
  });
  let body = cache.get(name);
  if (!body) {
    try {
      body = await fs.promises.readFile(path.join(CONSOLE_DIST, name));
    } catch {
      throw BigQueryError.consoleUnavailable(`${name} is missing from ${CONSOLE_DIST} (run npm run build)`);
    }
    cache.set(name, body);
  }
  return reply.headers(SECURITY_HEADERS).type(ASSETS[name]).send(body);
}

/** Registers the console's routes (`GET /`, `GET /console/:file`) on the root of `app`. */
export function consoleRoutes(app: FastifyInstance): void {
  app.get('/', async (_req, reply) => sendAsset(reply, 'index.html'));
  app.get<{ Params: { file: string } }>('/console/:file', async (req, reply) => {
    const file = req.params.file;
    if (file === 'index.html' || !Object.hasOwn(ASSETS, file)) return reply.callNotFound();
    return sendAsset(reply, file);
  });
}
