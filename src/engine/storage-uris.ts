/**
 * `gs://` URIs over the configured object store (object-store.ts), chosen once when an engine
 * starts (`useObjectStore`, from `STORAGE_EMULATOR_HOST` / `--storage-emulator-host`,
 * src/config/config.ts): a Cloud Storage service through `@google-cloud/storage`
 * (cloud-storage-client.ts) when one is named, else the local stand-in folder (cloud-storage.ts).
 * Process-wide, as the stand-in folder is. The Cloud Storage client is not imported here: the
 * entry points hand it in (`provideCloudStorage`), `bqemu serve` only when a service is named, so a
 * start without one does not load `@google-cloud/storage` and `google-auth-library` (60–80 ms of
 * the cold start's main thread, bench/results/2026-11-27-cold-start.md).
 *
 * - Writers (extract jobs, EXPORT DATA) write the local file of `openDestination` and then
 *   `commit` it (an upload to Cloud Storage; nothing more for the folder).
 * - Readers (load jobs, external tables: src/jobs/source-uris.ts) get local copies of the objects
 *   a URI names through `objectFiles`; one `*` matches any characters, `/` included, as BigQuery's
 *   wildcard URIs (https://cloud.google.com/bigquery/docs/batch-loading-data#load-wildcards).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BigQueryError } from '../errors/errors.js';
import { destinationFile, gcsPattern, gcsRoot, isInside, LocalFolderStore, parseGcsUri } from './cloud-storage.js';
import type { ObjectStore } from './object-store.js';
import { ConfigError } from '../config/config.js';

/** An object store of Cloud Storage: its endpoint, and a way to drop its local copies. */
export interface CloudObjectStore extends ObjectStore {
  readonly endpoint: string;
  /** Removes the local copies of objects (the mirror folder). */
  dropMirror(): void;
  /** The gs:// URI of a local copy `file`, if it is one. */
  uriOf(file: string): string | undefined;
}

/**
 * Makes the Cloud Storage object store at `endpoint` (a URL, `storageEndpoint`), local copies
 * under `mirror` (cloud-storage-client.ts `openCloudStorage`).
 */
export type CloudStorageOpener = (endpoint: string, mirror: string) => CloudObjectStore;

/** The endpoint URL the client makes of a `STORAGE_EMULATOR_HOST` value (scheme added when absent, trailing `/` dropped). */
export function storageEndpoint(host: string): string {
  const url = /^(\w*):\/\//.test(host) ? host : `https://${host}`;
  return url.replace(/\/+$/, '');
}

let store: ObjectStore = new LocalFolderStore();
let cloud: CloudObjectStore | undefined;
let openCloud: CloudStorageOpener | undefined;

/**
 * Hands in the Cloud Storage client (cloud-storage-client.ts `openCloudStorage`) before an engine
 * with a `storageEmulatorHost` starts. Process-wide; called by the entry points (src/cli/main.ts
 * when a service is named, src/cli/start-emulator.ts always).
 */
export function provideCloudStorage(open: CloudStorageOpener): void {
  openCloud = open;
}

/**
 * Chooses the object store of `gs://` URIs: Cloud Storage at `storageEmulatorHost` (a
 * `STORAGE_EMULATOR_HOST` value: `http://127.0.0.1:4443`, or `host:port` read as https as the
 * client reads it) with downloads mirrored in a private folder `$TMPDIR/bqemu-gcs-mirror-*`
 * (removed by `releaseObjectStore`), else the local folder.
 * @throws ConfigError when a service is named and no entry point provided the client (provideCloudStorage).
 */
export function useObjectStore(storageEmulatorHost?: string): void {
  if (!storageEmulatorHost) {
    store = new LocalFolderStore();
    return;
  }
  if (!openCloud) throw new ConfigError('--storage-emulator-host needs the Cloud Storage client, which this entry point did not provide (provideCloudStorage)');
  const endpoint = storageEndpoint(storageEmulatorHost);
  if (cloud && store === cloud && cloud.endpoint === endpoint) return;
  releaseObjectStore();
  store = cloud = openCloud(endpoint, fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-gcs-mirror-')));
}

/**
 * Removes the local copies of Cloud Storage objects (the mirror folder) when an engine stops; a
 * later read downloads again. Nothing to do for the local folder.
 */
export function releaseObjectStore(): void {
  if (cloud && store === cloud) cloud.dropMirror();
}

/** The object store of `gs://` URIs now in use. */
export function objectStore(): ObjectStore {
  return store;
}

/** Where a writer puts one destination's bytes, and how they are published. */
export interface Destination {
  /** Local file to write (absolute; its folder exists). */
  file: string;
  /** Whether an object of that name exists already. */
  exists: boolean;
  /** Publishes the written file as the object (an upload for Cloud Storage), then cleans up. */
  commit(): Promise<void>;
  /** Drops a file that will not be published (a failed write). */
  discard(): Promise<void>;
}

/**
 * The destination of a write to `gs://bucket/object` (a `*` becomes `000000000000`, the name
 * BigQuery gives a single shard).
 * @throws BigQueryError invalidQuery for a URI that is not `gs://bucket/object`; accessDenied for
 *   one that leaves its bucket (the stand-in folder's containment rules, cloud-storage.ts).
 */
export async function openDestination(uri: string): Promise<Destination> {
  const parsed = parseGcsUri(uri);
  if (!parsed) throw BigQueryError.invalidExportUri(uri);
  const name = parsed.object.replace('*', '000000000000');
  const target = store;
  if (target.kind === 'local-folder') {
    // Written in place: the folder's own file (write() then has nothing to copy).
    const file = destinationFile(uri);
    return { file, exists: fs.existsSync(file), commit: () => target.write(file, parsed.bucket, name), discard: async () => {} };
  }
  // The same containment as the folder: no `..` out of the bucket, no bucket `.` / `..`.
  gcsPattern(uri, { bucket: parsed.bucket, object: name }, path.resolve(os.tmpdir(), 'bqemu-gcs-staging'));
  const exists = (await store.stat(parsed.bucket, name)) !== undefined;
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bqemu-gcs-upload-'));
  const file = path.join(dir, path.basename(name) || 'object');
  return {
    file,
    exists,
    commit: async () => {
      try {
        await target.write(file, parsed.bucket, name);
      } finally {
        await fs.promises.rm(dir, { recursive: true, force: true });
      }
    },
    discard: () => fs.promises.rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Local copies of the objects one `gs://` URI names in Cloud Storage, sorted by object name ([]
 * when none matches: the caller answers `Not found: URI …`). Only for the `cloud-storage` store;
 * the local folder is read in place by src/jobs/source-uris.ts.
 * @throws BigQueryError accessDenied for a URI leaving its bucket; invalid for several `*`
 *   (the caller's factory `tooMany`); backendError when the service fails.
 */
export async function objectFiles(uri: string, parsed: { bucket: string; object: string }, tooMany: () => BigQueryError): Promise<string[]> {
  // Containment only (no `..` out of the bucket); the local copy's path is the store's.
  gcsPattern(uri, parsed, path.resolve(os.tmpdir(), 'bqemu-gcs-staging'));
  const star = parsed.object.indexOf('*');
  let objects;
  if (star < 0) {
    const o = await store.stat(parsed.bucket, parsed.object);
    objects = o ? [o] : [];
  } else {
    if (parsed.object.indexOf('*', star + 1) >= 0) throw tooMany();
    const [prefix, suffix] = [parsed.object.slice(0, star), parsed.object.slice(star + 1)];
    objects = (await store.list(parsed.bucket, prefix)).filter((o) => o.name.length >= prefix.length + suffix.length && o.name.endsWith(suffix) && !o.name.endsWith('/'));
  }
  const files: string[] = [];
  for (const o of objects) files.push(await store.read(parsed.bucket, o));
  return files;
}

/** How an error names a source file: its gs:// URI when it is the stand-in folder's or a Cloud Storage download, else its path. */
export function fileLabel(f: string): string {
  if (cloud && store === cloud) {
    const uri = cloud.uriOf(f);
    if (uri) return uri;
  }
  const root = gcsRoot();
  return isInside(f, root) ? `gs://${path.relative(root, f).split(path.sep).join('/')}` : f;
}
