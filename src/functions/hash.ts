/**
 * Hash functions (GoogleSQL "Hash functions"): MD5, SHA1, SHA256, SHA512 return BYTES;
 * FARM_FINGERPRINT returns INT64 (FarmHash Fingerprint64, bit-exact, see farmhash.ts).
 * STRING inputs hash their UTF-8 bytes.
 */
import { createHash } from 'node:crypto';
import { farmFingerprint } from './farmhash.js';
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';

defineUdf('bq_farm_fingerprint', ['BLOB'], 'BIGINT', (b) => farmFingerprint(b));
defineUdf('bq_sha512', ['BLOB'], 'BLOB', (b) => new Uint8Array(createHash('sha512').update(b).digest()));

/** The argument as BLOB (STRING → its UTF-8 bytes). */
const asBlob = (c: FnCall): string => (c.argTypes[0]?.kind === 'STRING' ? `encode(${c.args[0]})` : c.args[0]);

/** DuckDB's hex-digest hash functions, returned as BYTES. */
const hexDigest = (fn: string) => (c: FnCall) => `unhex(${fn}(${asBlob(c)}))`;

/** The hash_functions page. */
export const HASH_FUNCTIONS: FnTable = {
  md5: hexDigest('md5'),
  sha1: hexDigest('sha1'),
  sha256: hexDigest('sha256'),
  sha512: (c) => `bq_sha512(${asBlob(c)})`,
  farm_fingerprint: (c) => `bq_farm_fingerprint(${asBlob(c)})`,
};
