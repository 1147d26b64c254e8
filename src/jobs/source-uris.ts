/**
 * Which files a load job (load.ts) or an external table (external.ts) may read: the `sourceUris`
 * of JobConfigurationLoad / ExternalDataConfiguration (src/server/rest/bigquery-v2-discovery.json) as local
 * files, never outside the emulator's own data.
 *
 * - `gs://bucket/object`: the Cloud Storage stand-in folder (src/engine/cloud-storage.ts), inside
 *   the bucket's folder; with `STORAGE_EMULATOR_HOST` set, local copies of the Cloud Storage
 *   objects (src/engine/storage-uris.ts `objectFiles`).
 * - `file:///path` and `/path` (the emulator's local forms): only under the Cloud Storage stand-in
 *   folder and the directories the user allowed (`bqemu serve --allow-local-files DIR`, repeatable,
 *   or `BQEMU_ALLOW_LOCAL_FILES`; none by default). A media upload's data is the job's own file
 *   (src/server/rest/uploads.ts) and does not go through this check.
 * - One `*` matches any characters, `/` included (BigQuery wildcard URIs); the listing starts at the
 *   folder before the `*` and must itself be allowed; symbolic links are followed only when their
 *   target is allowed too.
 *
 * Refusals: a path outside the allowed folders (also through `..` or a symbolic link) is BigQuery's
 * 403 accessDenied `Access Denied: File <uri>: Access Denied`, a wildcard over a folder that is not
 * allowed `Access Denied: BigQuery BigQuery: Permission denied while globbing file pattern.`, both
 * whether or not the file exists (no probing outside); another URI form is 400 invalid; an allowed
 * URI matching no file is 404 `Not found: URI <uri>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gcsPattern, gcsRoot, isInside, parseGcsUri, realPath } from '../engine/cloud-storage.js';
import { objectFiles, objectStore } from '../engine/storage-uris.js';
import { BigQueryError } from '../errors/errors.js';

/** Directories each emulator (its engine) allows local reads from, besides the stand-in folder. */
const allowed = new WeakMap<object, string[]>();

/**
 * Sets the local directories `engine`'s jobs may read `file://` and absolute-path sources from
 * (`--allow-local-files`); relative directories resolve against the working directory.
 */
export function setAllowedLocalDirs(engine: object, dirs: readonly string[]): void {
  allowed.set(engine, dirs.filter((d) => d.trim()).map((d) => path.resolve(d)));
}

/** The directories `engine` may read local files from: the stand-in folder first, then the user's. */
export function allowedLocalDirs(engine: object): string[] {
  return [gcsRoot(), ...(allowed.get(engine) ?? [])];
}

/** A pattern to match and the folders it may match in (both lexical and real paths). */
interface Scope {
  pattern: string;
  roots: { dir: string; real?: string }[];
}

/** The local pattern of one URI and the folders it may read. @throws BigQueryError invalid / accessDenied. */
function scopeOf(engine: object, uri: string): Scope {
  const gs = parseGcsUri(uri);
  if (gs) {
    const pattern = gcsPattern(uri, gs);
    // Lexically inside the bucket's folder; really (links followed) inside the stand-in folder.
    return { pattern, roots: [{ dir: path.resolve(gcsRoot(), gs.bucket), real: realPath(gcsRoot()) }] };
  }
  let local: string;
  if (uri.startsWith('file://')) {
    let rest = uri.slice('file://'.length);
    if (rest.startsWith('localhost/')) rest = rest.slice('localhost'.length);
    try {
      local = decodeURIComponent(rest);
    } catch {
      throw BigQueryError.invalidSourceUri(uri);
    }
  } else local = uri;
  if (!path.isAbsolute(local) || local.includes('\0')) throw BigQueryError.invalidSourceUri(uri);
  const pattern = path.resolve(local);
  const roots = allowedLocalDirs(engine).map((dir) => ({ dir, real: realPath(dir) }));
  return { pattern, roots };
}

/** True when the real path of an existing `p` lies in one of the scope's folders. */
function allowedReal(scope: Scope, p: string): boolean {
  const real = realPath(p);
  return real !== undefined && scope.roots.some((r) => r.real !== undefined && isInside(real, r.real));
}

/**
 * Files under `dir` (symbolic links to allowed files included, linked folders not entered). One
 * folder is read at a time, asynchronously, so listing a large tree never stalls other requests.
 */
async function walk(scope: Scope, dir: string, out: string[]): Promise<void> {
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walk(scope, p, out);
    else if (e.isFile()) out.push(p);
    else if (e.isSymbolicLink() && allowedReal(scope, p) && fs.statSync(p).isFile()) out.push(p);
  }
}

/** The files of one URI, sorted (a wildcard's matches). */
async function filesOf(engine: object, uri: string): Promise<string[]> {
  // With a Cloud Storage service configured (STORAGE_EMULATOR_HOST), gs:// objects are downloaded.
  const gs = parseGcsUri(uri);
  if (gs && objectStore().kind === 'cloud-storage') return objectFiles(uri, gs, () => BigQueryError.sourceUriWildcards(uri));
  const scope = scopeOf(engine, uri);
  const { pattern } = scope;
  const star = pattern.indexOf('*');
  if (star < 0) {
    if (!scope.roots.some((r) => isInside(pattern, r.dir) && pattern !== r.dir)) throw BigQueryError.accessDeniedFile(uri);
    if (!fs.existsSync(pattern)) return [];
    if (!allowedReal(scope, pattern)) throw BigQueryError.accessDeniedFile(uri);
    return fs.statSync(pattern).isFile() ? [pattern] : [];
  }
  if (pattern.indexOf('*', star + 1) >= 0) throw BigQueryError.sourceUriWildcards(uri);
  const [prefix, suffix] = [pattern.slice(0, star), pattern.slice(star + 1)];
  const dir = prefix.endsWith(path.sep) ? prefix.slice(0, -1) || path.sep : path.dirname(prefix);
  if (!scope.roots.some((r) => isInside(dir, r.dir))) throw BigQueryError.accessDeniedGlob();
  if (!fs.existsSync(dir)) return [];
  if (!allowedReal(scope, dir)) throw BigQueryError.accessDeniedGlob();
  if (!fs.statSync(dir).isDirectory()) return [];
  const all: string[] = [];
  await walk(scope, dir, all);
  return all.filter((f) => f.length >= prefix.length + suffix.length && f.startsWith(prefix) && f.endsWith(suffix)).sort();
}

/**
 * The local files of `sourceUris`, in order (a wildcard's matches sorted), all inside the folders
 * `engine` may read.
 * @throws BigQueryError invalid for a missing list, another URI form or several `*` in one URI;
 *   accessDenied (403) for a path outside the allowed folders; notFound when a URI matches no file.
 */
export async function sourceFiles(engine: object, uris: unknown): Promise<string[]> {
  const list = Array.isArray(uris) ? uris.map(String) : typeof uris === 'string' ? [uris] : [];
  if (!list.length) throw BigQueryError.requiredParameterMissing('sourceUris');
  const out: string[] = [];
  for (const uri of list) {
    const files = await filesOf(engine, uri);
    if (!files.length) throw BigQueryError.resourceNotFound('URI', uri);
    out.push(...files);
  }
  return out;
}
