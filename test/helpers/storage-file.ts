/**
 * Minimal stand-ins for @google-cloud/storage's Storage → Bucket → File, enough for
 * @google-cloud/bigquery's `table.extract(file)` / `table.createLoadJob(file)` (the client checks the
 * constructor names and reads `bucket.name` and `name` to build the `gs://` URI). The emulator reads
 * and writes those URIs under `BQEMU_GCS_DIR`.
 */
class Storage {}

class Bucket {
  parent = new Storage();
  constructor(readonly name: string) {}
}

class File {
  parent: Bucket;
  constructor(
    readonly bucket: Bucket,
    readonly name: string,
  ) {
    this.parent = bucket;
  }
}

/** A stand-in for `storage.bucket(bucket).file(name)`, typed loosely for the client's File parameters. */
export const gcsFile = (bucket: string, name: string): never => new File(new Bucket(bucket), name) as never;
