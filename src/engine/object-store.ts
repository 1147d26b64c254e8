/**
 * The object store behind `gs://bucket/object` URIs: one small interface with two
 * implementations, chosen once from the configuration (src/engine/storage-uris.ts
 * `useObjectStore`):
 * - the local folder standing in for Cloud Storage (`--gcs-dir`, src/engine/cloud-storage.ts
 *   `LocalFolderStore`), the default;
 * - a Cloud Storage service reached through `@google-cloud/storage` when `STORAGE_EMULATOR_HOST`
 *   (or `--storage-emulator-host`) names one, typically a Cloud Storage emulator
 *   (src/engine/cloud-storage-client.ts `CloudStorageStore`).
 *
 * DuckDB and the file readers need local files: `read` gives a local file holding an object's
 * bytes (the folder's own file, or a download), and writers write a local file that `write` then
 * publishes as the object.
 */

/** One object: its name inside the bucket, size in bytes and generation (changes on every write). */
export interface StoredObject {
  name: string;
  size: number;
  generation: string;
}

/** Objects of buckets: list by prefix, stat, read (to a local file) and write (from one). */
export interface ObjectStore {
  /** `local-folder` (the stand-in folder) or `cloud-storage` (a Cloud Storage service). */
  readonly kind: 'local-folder' | 'cloud-storage';
  /**
   * The objects of `bucket` whose names start with `prefix`, sorted by name; [] when the bucket
   * does not exist. @throws BigQueryError accessDenied / backendError from the service.
   */
  list(bucket: string, prefix: string): Promise<StoredObject[]>;
  /** One object, or undefined when it (or its bucket) does not exist. */
  stat(bucket: string, name: string): Promise<StoredObject | undefined>;
  /** A local file holding the object's bytes (absolute path); the caller must not modify it. */
  read(bucket: string, object: StoredObject): Promise<string>;
  /** Publishes the local `file` as object `name` of `bucket`, replacing any object of that name. */
  write(file: string, bucket: string, name: string): Promise<void>;
}
