/**
 * Cloud Storage through the official client `@google-cloud/storage`, for `gs://` URIs when
 * `STORAGE_EMULATOR_HOST` (or `--storage-emulator-host`) names a Cloud Storage service — in
 * practice a Cloud Storage emulator speaking the JSON API
 * (https://cloud.google.com/storage/docs/json_api). An ObjectStore (object-store.ts).
 *
 * - The endpoint is read as the client reads `STORAGE_EMULATOR_HOST`: a URL with a scheme as
 *   given, one without a scheme gets `https://` (the client's `Storage.sanitizeEndpoint`), a
 *   trailing `/` dropped. A custom endpoint is called without credentials (the client's
 *   `useAuthWithCustomEndpoint` default).
 * - Reads download an object into a local mirror folder (`<mirror>/<bucket>/<object>`, the
 *   containment rules of the stand-in folder: never outside it), streamed to disk and kept while
 *   its generation is unchanged, so an external table queried again does not download again.
 * - Writes upload the finished local file in one request (multipart upload).
 * - Errors: a missing object or bucket reads as absent (the caller answers BigQuery's
 *   `Not found: URI gs://…`); 403 from the service is BigQuery's `Access Denied: File gs://…:
 *   Access Denied`; anything else (the service down, a 5xx) is a 500 backendError naming the URI.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Storage } from '@google-cloud/storage';
import { BigQueryError } from '../errors/errors.js';
import { gcsPattern, isInside } from './cloud-storage.js';
import type { ObjectStore, StoredObject } from './object-store.js';


/** HTTP status of a client error (ApiError.code), if any. */
function statusOf(e: unknown): number | undefined {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

/** BigQuery's error for a failed call about `uri`. */
function failure(uri: string, e: unknown): BigQueryError {
  if (statusOf(e) === 403 || statusOf(e) === 401) return BigQueryError.accessDeniedFile(uri);
  return BigQueryError.cloudStorageFailed(uri, e instanceof Error ? e.message : String(e));
}

/**
 * The object store of a Cloud Storage service at `endpoint` (storage-uris.ts `storageEndpoint`),
 * local copies under `mirror`: what the entry points hand to storage-uris.ts `provideCloudStorage`.
 */
export function openCloudStorage(endpoint: string, mirror: string): CloudStorageStore {
  return new CloudStorageStore(endpoint, mirror);
}

/** Cloud Storage (an emulator) through `@google-cloud/storage`; local copies under `mirror`. */
export class CloudStorageStore implements ObjectStore {
  readonly kind = 'cloud-storage';
  private readonly storage: Storage;
  /** Generation of each mirrored file (absolute path → generation). */
  private readonly mirrored = new Map<string, string>();

  /**
   * @param endpoint the service's URL (storageEndpoint)
   * @param mirror absolute local folder downloads are kept in (created on first use)
   */
  constructor(
    readonly endpoint: string,
    readonly mirror: string,
  ) {
    this.storage = new Storage({ apiEndpoint: endpoint, projectId: 'bqemu', retryOptions: { maxRetries: 1 } });
    // With STORAGE_EMULATOR_HOST in the process's environment the client takes that raw value as
    // its JSON API base, whatever apiEndpoint says; the configured endpoint wins, at the JSON API's
    // own path (https://cloud.google.com/storage/docs/json_api: `/storage/v1`).
    this.storage.baseUrl = `${endpoint}/storage/v1`;
  }

  async list(bucket: string, prefix: string): Promise<StoredObject[]> {
    try {
      const [files] = await this.storage.bucket(bucket).getFiles({ prefix, autoPaginate: true });
      return files
        .map((f) => ({ name: f.name, size: Number(f.metadata.size ?? 0), generation: String(f.metadata.generation ?? '') }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      if (statusOf(e) === 404) return [];
      throw failure(`gs://${bucket}/${prefix}*`, e);
    }
  }

  async stat(bucket: string, name: string): Promise<StoredObject | undefined> {
    try {
      const [md] = await this.storage.bucket(bucket).file(name).getMetadata();
      return { name, size: Number(md.size ?? 0), generation: String(md.generation ?? '') };
    } catch (e) {
      if (statusOf(e) === 404) return undefined;
      throw failure(`gs://${bucket}/${name}`, e);
    }
  }

  /** Downloads the object into the mirror (streamed to a temporary name, then renamed) unless the same generation is there. */
  async read(bucket: string, object: StoredObject): Promise<string> {
    const uri = `gs://${bucket}/${object.name}`;
    const local = gcsPattern(uri, { bucket, object: object.name }, this.mirror);
    if (object.generation && this.mirrored.get(local) === object.generation && fs.existsSync(local)) return local;
    await fs.promises.mkdir(path.dirname(local), { recursive: true });
    const part = `${local}.${crypto.randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(this.storage.bucket(bucket).file(object.name).createReadStream({ validation: false }), fs.createWriteStream(part));
      await fs.promises.rename(part, local);
    } catch (e) {
      await fs.promises.rm(part, { force: true });
      if (statusOf(e) === 404) throw BigQueryError.resourceNotFound('URI', uri);
      throw failure(uri, e);
    }
    this.mirrored.set(local, object.generation);
    return local;
  }

  async write(file: string, bucket: string, name: string): Promise<void> {
    try {
      await this.storage.bucket(bucket).upload(file, { destination: name, resumable: false, validation: false });
    } catch (e) {
      if (statusOf(e) === 404) throw BigQueryError.resourceNotFound('URI', `gs://${bucket}/${name}`);
      throw failure(`gs://${bucket}/${name}`, e);
    }
  }

  /** Deletes the mirror folder and forgets what it held (an engine stopping). */
  dropMirror(): void {
    this.mirrored.clear();
    fs.rmSync(this.mirror, { recursive: true, force: true });
  }

  /** The gs:// URI a mirrored local file stands for, or undefined for a file outside the mirror. */
  uriOf(file: string): string | undefined {
    return isInside(file, this.mirror) && file !== this.mirror ? `gs://${path.relative(this.mirror, file).split(path.sep).join('/')}` : undefined;
  }
}
