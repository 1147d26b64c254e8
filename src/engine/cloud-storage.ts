/**
 * The local folder standing in for Cloud Storage: `gs://bucket/object` is the file
 * `<gcsDir>/bucket/object` (`--gcs-dir` / `BQEMU_GCS_DIR`, default `$TMPDIR/bqemu-gcs`). EXPORT DATA (export.ts) and extract
 * jobs (src/jobs/extract.ts) write there; load jobs and external tables read there
 * (src/jobs/source-uris.ts) — unless `STORAGE_EMULATOR_HOST` names a Cloud Storage emulator
 * (src/engine/storage-uris.ts chooses the object store).
 *
 * Containment: a URI never names a file outside its bucket's folder — `..` segments, a bucket
 * named `.` or `..`, and symbolic links inside the folder that point out of it are refused with
 * BigQuery's 403 accessDenied `Access Denied: File <uri>: Access Denied` (the text BigQuery gives
 * a Cloud Storage object the caller cannot read, e.g.
 * https://github.com/GoogleCloudPlatform/PerfKitExplorer/issues/1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BigQueryError } from '../errors/errors.js';
import type { ObjectStore, StoredObject } from './object-store.js';

/** The configured Cloud Storage folder (setGcsRoot), process-wide as BQEMU_GCS_DIR was. */
let configuredRoot: string | undefined;

/**
 * Sets the local directory standing in for Cloud Storage, from the configuration (`--gcs-dir` /
 * `BQEMU_GCS_DIR`, src/config/config.ts). Process-wide: every emulator of the process shares it.
 */
export function setGcsRoot(dir: string): void {
  configuredRoot = path.resolve(dir);
}

/** Local directory standing in for Cloud Storage (absolute; not created here): the configured one, else `$TMPDIR/bqemu-gcs`. */
export function gcsRoot(): string {
  return configuredRoot ?? path.resolve(os.tmpdir(), 'bqemu-gcs');
}

/** True when `child` is `dir` itself or lies under it (both absolute, normalized). */
export function isInside(child: string, dir: string): boolean {
  const rel = path.relative(dir, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real path of `p`, or undefined when it does not exist (or cannot be resolved). */
export function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** `gs://bucket/object` split into bucket and object, or undefined for another form. */
export function parseGcsUri(uri: string): { bucket: string; object: string } | undefined {
  const m = /^gs:\/\/([^/]+)\/(.+)$/s.exec(uri);
  return m ? { bucket: m[1], object: m[2] } : undefined;
}

/**
 * The local path of a `gs://bucket/object` URI (a `*` left in place) inside the bucket's folder
 * under `root` (the stand-in folder, or the local mirror of a Cloud Storage emulator, object-store.ts).
 * @throws BigQueryError accessDenied when the object path leaves the bucket's folder.
 */
export function gcsPattern(uri: string, parsed: { bucket: string; object: string }, root = gcsRoot()): string {
  const bucketDir = path.resolve(root, parsed.bucket);
  const p = path.resolve(bucketDir, parsed.object);
  if (parsed.bucket === '.' || parsed.bucket === '..' || !isInside(bucketDir, root) || p === bucketDir || !isInside(p, bucketDir))
    throw BigQueryError.accessDeniedFile(uri);
  return p;
}

/**
 * The local file a write to `gs://bucket/object` goes to (one shard: a `*` becomes
 * `000000000000`, the name BigQuery gives a single shard), with its parent folders created.
 * The nearest existing folder on the way and an existing file must resolve (symbolic links
 * followed) inside the stand-in folder, so a link planted there cannot redirect the write.
 * @throws BigQueryError invalidQuery for a URI that is not `gs://bucket/object`; accessDenied for one
 *   that leaves the stand-in folder.
 */
export function destinationFile(uri: string): string {
  const parsed = parseGcsUri(uri);
  if (!parsed) throw BigQueryError.invalidExportUri(uri);
  const file = gcsPattern(uri, { ...parsed, object: parsed.object.replace('*', '000000000000') });
  const root = gcsRoot();
  fs.mkdirSync(root, { recursive: true });
  const realRoot = realPath(root) ?? root;
  let existing = file;
  while (!fs.existsSync(existing) && existing !== path.dirname(existing)) existing = path.dirname(existing);
  const real = realPath(existing);
  if (!real || !isInside(real, realRoot)) throw BigQueryError.accessDeniedFile(uri);
  let link = false;
  try {
    link = fs.lstatSync(file).isSymbolicLink();
  } catch {
    // No file yet (ENOENT): nothing to follow, the write creates it inside the folder.
  }
  if (link) {
    const target = realPath(file);
    if (!target || !isInside(target, realRoot)) throw BigQueryError.accessDeniedFile(uri);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/**
 * The local folder as an ObjectStore (object-store.ts): objects are the regular files under
 * `<gcsDir>/<bucket>/`, their generation the modification time. Load jobs and external tables
 * read this folder through src/jobs/source-uris.ts (symbolic-link and `file://` rules included);
 * this store serves the writers (storage-uris.ts `openDestination`) and listings.
 */
export class LocalFolderStore implements ObjectStore {
  readonly kind = 'local-folder';

  /** Regular files of the bucket's folder whose names start with `prefix`, sorted; [] without the folder. */
  async list(bucket: string, prefix: string): Promise<StoredObject[]> {
    const root = gcsRoot();
    const dir = path.resolve(root, bucket);
    if (bucket === '.' || bucket === '..' || dir === root || !isInside(dir, root)) return [];
    const out: StoredObject[] = [];
    const walk = async (d: string): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(d, { withFileTypes: true });
      } catch {
        return; // No such folder: nothing listed.
      }
      for (const e of entries) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.isFile()) {
          const name = path.relative(dir, p).split(path.sep).join('/');
          if (name.startsWith(prefix)) out.push(await this.described(name, p));
        }
      }
    };
    await walk(dir);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The file `<gcsDir>/<bucket>/<name>` when it is a regular file inside the bucket's folder. */
  async stat(bucket: string, name: string): Promise<StoredObject | undefined> {
    const uri = `gs://${bucket}/${name}`;
    const p = gcsPattern(uri, { bucket, object: name });
    try {
      return (await fs.promises.lstat(p)).isFile() ? await this.described(name, p) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The folder's own file. */
  async read(bucket: string, object: StoredObject): Promise<string> {
    return gcsPattern(`gs://${bucket}/${object.name}`, { bucket, object: object.name });
  }

  /** Copies `file` into the folder (nothing to do when it was written there directly). */
  async write(file: string, bucket: string, name: string): Promise<void> {
    const dest = destinationFile(`gs://${bucket}/${name}`);
    if (path.resolve(file) !== dest) await fs.promises.copyFile(file, dest);
  }

  private async described(name: string, p: string): Promise<StoredObject> {
    const st = await fs.promises.stat(p);
    return { name, size: st.size, generation: String(Math.trunc(st.mtimeMs * 1000)) };
  }
}
