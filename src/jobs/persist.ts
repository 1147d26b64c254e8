/**
 * JSON form of job records for `--data-dir` persistence: domain values (bigint, bytes) and errors
 * survive a restart.
 */
import { EncodedRows } from '../wire/encoded-rows.js';
import { BigQueryError } from '../errors/errors.js';
import type { JobRecord } from './jobs-model.js';

/** Serialises a job record (bigint → {$n}, bytes → {$b64}, error → {$err}). */
export function jobToJson(j: JobRecord): string {
  const plain = { ...j, error: j.error ? { $err: { reason: j.error.reason, message: j.error.message, location: j.error.location, httpStatus: j.error.httpStatus } } : undefined };
  return JSON.stringify(plain, (_k, v) => {
    if (typeof v === 'bigint') return { $n: v.toString() };
    if (v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
    if (v && typeof v === 'object' && v.type === 'Buffer' && Array.isArray(v.data)) return { $b64: Buffer.from(v.data).toString('base64') };
    return v;
  });
}

/** Inverse of {@link jobToJson}. */
export function jobFromJson(s: string): JobRecord {
  const j = JSON.parse(s, (_k, v) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (typeof v.$n === 'string' && Object.keys(v).length === 1) return BigInt(v.$n);
      if (typeof v.$b64 === 'string' && Object.keys(v).length === 1) return new Uint8Array(Buffer.from(v.$b64, 'base64'));
    }
    return v;
  });
  // Kept rows are persisted as one text per row (EncodedRows.toJSON).
  if (Array.isArray(j.encodedRows)) j.encodedRows = EncodedRows.fromRowTexts(j.encodedRows as string[]);
  if (j.error?.$err) {
    const e = j.error.$err;
    j.error = BigQueryError.revive(e);
  }
  return j as JobRecord;
}
