/**
 * Tink's AEAD and deterministic AEAD over a keyset (src/functions/tink-keyset.ts), as BigQuery's
 * AEAD.ENCRYPT / AEAD.DECRYPT_* and DETERMINISTIC_ENCRYPT / DETERMINISTIC_DECRYPT_* use them.
 *
 * - Ciphertext = output prefix ‖ payload. Prefix: TINK `0x01 ‖ key id (4 bytes, big-endian)`,
 *   LEGACY/CRUNCHY `0x00 ‖ key id`, RAW empty. Encryption uses the primary key; decryption tries
 *   the ENABLED keys whose prefix matches the first 5 bytes, then the RAW keys on the whole value.
 * - AesGcmKey (AEAD, 16- or 32-byte key): payload = 12-byte random IV ‖ AES-GCM ciphertext ‖ 16-byte
 *   tag, additional data authenticated.
 * - AesSivKey (deterministic AEAD, 64-byte key): payload = RFC 5297 AES-SIV(K1 = first half for
 *   S2V/CMAC, K2 = second half for CTR) with the additional data as the single header:
 *   SIV (16 bytes) ‖ CTR ciphertext.
 * - AesCbcPkcs7Key (BigQuery, decrypt only): payload = 16-byte IV ‖ AES-CBC with PKCS#7 padding.
 *
 * Errors are KeysetError with the text that follows BigQuery's `<FUNCTION> failed: ` (ZetaSQL
 * compliance aead.test: `decryption failed`; an empty keyset gives `Creation of AEAD primitive
 * failed: A valid keyset must contain at least one key.`).
 */
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import { AES_CBC_URL, AES_GCM_URL, AES_SIV_URL, keyBytes, KeysetError, parseKeyset, type Key, type Keyset } from './tink-keyset.js';

// ---------- AES primitives ----------

const aes = (bits: number, mode: string) => `aes-${bits}-${mode}`;
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

function ecbBlock(key: Uint8Array, block: Uint8Array): Uint8Array {
  const c = createCipheriv(aes(key.length * 8, 'ecb'), key, null).setAutoPadding(false);
  return concat(c.update(block), c.final());
}

/** Doubling in GF(2^128) (RFC 5297 `dbl`). */
function dbl(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = ((b[i] << 1) | (i < 15 ? b[i + 1] >>> 7 : 0)) & 0xff;
  if (b[0] & 0x80) out[15] ^= 0x87;
  return out;
}

const xor = (a: Uint8Array, b: Uint8Array) => a.map((x, i) => x ^ b[i]);

/** AES-CMAC (RFC 4493). */
export function cmac(key: Uint8Array, msg: Uint8Array): Uint8Array {
  const k1 = dbl(ecbBlock(key, new Uint8Array(16)));
  const k2 = dbl(k1);
  const n = Math.max(1, Math.ceil(msg.length / 16));
  const complete = msg.length > 0 && msg.length % 16 === 0;
  const last = new Uint8Array(16);
  last.set(msg.subarray((n - 1) * 16));
  if (!complete) last[msg.length - (n - 1) * 16] = 0x80;
  const padded = concat(msg.subarray(0, (n - 1) * 16), xor(last, complete ? k1 : k2));
  const c = createCipheriv(aes(key.length * 8, 'cbc'), key, new Uint8Array(16)).setAutoPadding(false);
  const out = concat(c.update(padded), c.final());
  return out.subarray(out.length - 16);
}

/** S2V (RFC 5297 §2.4) over the header strings and the plaintext. */
function s2v(key: Uint8Array, headers: Uint8Array[], plaintext: Uint8Array): Uint8Array {
  let d = cmac(key, new Uint8Array(16));
  for (const h of headers) d = xor(dbl(d), cmac(key, h));
  let t: Uint8Array;
  if (plaintext.length >= 16) {
    t = plaintext.slice();
    const off = t.length - 16;
    for (let i = 0; i < 16; i++) t[off + i] ^= d[i];
  } else {
    const pad = new Uint8Array(16);
    pad.set(plaintext);
    pad[plaintext.length] = 0x80;
    t = xor(dbl(d), pad);
  }
  return cmac(key, t);
}

function sivCtr(key: Uint8Array, v: Uint8Array, data: Uint8Array): Uint8Array {
  const q = v.slice();
  q[8] &= 0x7f;
  q[12] &= 0x7f;
  const c = createCipheriv(aes(key.length * 8, 'ctr'), key, q);
  return concat(c.update(data), c.final());
}

/** AES-SIV encryption (RFC 5297): SIV ‖ ciphertext. `key` is K1 ‖ K2. */
export function sivEncrypt(key: Uint8Array, headers: Uint8Array[], plaintext: Uint8Array): Uint8Array {
  const half = key.length / 2;
  const v = s2v(key.subarray(0, half), headers, plaintext);
  return concat(v, sivCtr(key.subarray(half), v, plaintext));
}

/** AES-SIV decryption; undefined when the SIV does not verify. */
export function sivDecrypt(key: Uint8Array, headers: Uint8Array[], ct: Uint8Array): Uint8Array | undefined {
  if (ct.length < 16) return undefined;
  const half = key.length / 2;
  const v = ct.subarray(0, 16);
  const p = sivCtr(key.subarray(half), v, ct.subarray(16));
  const t = s2v(key.subarray(0, half), headers, p);
  return Buffer.from(t).equals(Buffer.from(v)) ? p : undefined;
}

function gcmEncrypt(key: Uint8Array, pt: Uint8Array, aad: Uint8Array): Uint8Array {
  const iv = randomBytes(12);
  const c = createCipheriv(aes(key.length * 8, 'gcm') as CipherGCMTypes, key, iv);
  c.setAAD(aad);
  return concat(iv, c.update(pt), c.final(), c.getAuthTag());
}

function gcmDecrypt(key: Uint8Array, ct: Uint8Array, aad: Uint8Array): Uint8Array | undefined {
  if (ct.length < 28) return undefined;
  try {
    const d = createDecipheriv(aes(key.length * 8, 'gcm') as CipherGCMTypes, key, ct.subarray(0, 12));
    d.setAAD(aad);
    d.setAuthTag(ct.subarray(ct.length - 16));
    return concat(d.update(ct.subarray(12, ct.length - 16)), d.final());
  } catch {
    return undefined;
  }
}

function cbcDecrypt(key: Uint8Array, ct: Uint8Array): Uint8Array | undefined {
  if (ct.length < 32 || ct.length % 16 !== 0) return undefined;
  try {
    const d = createDecipheriv(aes(key.length * 8, 'cbc'), key, ct.subarray(0, 16));
    return concat(d.update(ct.subarray(16)), d.final());
  } catch {
    return undefined;
  }
}

// ---------- keysets ----------

/** The primitive family a function needs. */
export type Family = 'AEAD' | 'Deterministic AEAD';
const FAMILY_URLS: Record<Family, string[]> = { AEAD: [AES_GCM_URL, AES_CBC_URL], 'Deterministic AEAD': [AES_SIV_URL] };

function prefixOf(k: Key): Uint8Array {
  if (k.outputPrefixType === 3) return new Uint8Array(0);
  const p = new Uint8Array(5);
  p[0] = k.outputPrefixType === 1 ? 1 : 0;
  new DataView(p.buffer).setUint32(1, k.keyId);
  return p;
}

/** Parses and validates a keyset for `family` (Tink's keyset validation); the usable keys. */
function primitiveKeys(bytes: Uint8Array, family: Family): { ks: Keyset; primary: Key } {
  const fail = (m: string): never => {
    throw new KeysetError(`Creation of ${family} primitive failed: ${m}`);
  };
  let ks: Keyset;
  try {
    ks = parseKeyset(bytes);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (!ks.key.length) fail('A valid keyset must contain at least one key.');
  let primary: Key | undefined;
  for (const k of ks.key) {
    if (k.status !== 1) continue;
    if (!k.keyData) fail(`key ${k.keyId} has no key data`);
    if (!FAMILY_URLS[family].includes(k.keyData!.typeUrl)) fail(`key ${k.keyId} of type ${k.keyData!.typeUrl} cannot be used for ${family}`);
    if (!k.outputPrefixType) fail(`key ${k.keyId} has unknown prefix`);
    if (k.keyId === ks.primaryKeyId) {
      if (primary) fail('keyset contains multiple primary keys');
      primary = k;
    }
  }
  if (!primary) fail("keyset doesn't contain a valid primary key");
  return { ks, primary: primary! };
}

/** Encrypts with the keyset's primary key (AEAD.ENCRYPT / DETERMINISTIC_ENCRYPT). */
export function keysetEncrypt(keyset: Uint8Array, family: Family, pt: Uint8Array, aad: Uint8Array): Uint8Array {
  const { primary } = primitiveKeys(keyset, family);
  const kd = primary.keyData!;
  if (kd.typeUrl === AES_CBC_URL) throw new KeysetError('AES-CBC keys can only decrypt; the primary key must be an AES-GCM key');
  const key = keyBytes(kd);
  const payload = kd.typeUrl === AES_SIV_URL ? sivEncrypt(checkSiv(key), [aad], pt) : gcmEncrypt(checkGcm(key), pt, aad);
  return concat(prefixOf(primary), payload);
}

function checkGcm(key: Uint8Array): Uint8Array {
  if (key.length !== 16 && key.length !== 32) throw new KeysetError(`Invalid AES-GCM key size: ${key.length} bytes`);
  return key;
}
function checkSiv(key: Uint8Array): Uint8Array {
  if (key.length !== 64) throw new KeysetError(`Invalid AES-SIV key size: ${key.length} bytes; expected 64 bytes`);
  return key;
}

function decryptWith(k: Key, payload: Uint8Array, aad: Uint8Array): Uint8Array | undefined {
  const kd = k.keyData!;
  let key: Uint8Array;
  try {
    key = keyBytes(kd);
  } catch {
    return undefined;
  }
  if (kd.typeUrl === AES_SIV_URL) return key.length === 64 ? sivDecrypt(key, [aad], payload) : undefined;
  if (kd.typeUrl === AES_CBC_URL) return [16, 24, 32].includes(key.length) ? cbcDecrypt(key, payload) : undefined;
  return key.length === 16 || key.length === 32 ? gcmDecrypt(key, payload, aad) : undefined;
}

/** Decrypts with the matching ENABLED key (AEAD.DECRYPT_* / DETERMINISTIC_DECRYPT_*). */
export function keysetDecrypt(keyset: Uint8Array, family: Family, ct: Uint8Array, aad: Uint8Array): Uint8Array {
  const { ks } = primitiveKeys(keyset, family);
  const enabled = ks.key.filter((k) => k.status === 1);
  if (ct.length > 5) {
    const head = Buffer.from(ct.subarray(0, 5));
    for (const k of enabled) {
      if (k.outputPrefixType === 3 || !head.equals(Buffer.from(prefixOf(k)))) continue;
      const p = decryptWith(k, ct.subarray(5), aad);
      if (p) return p;
    }
  }
  for (const k of enabled) {
    if (k.outputPrefixType !== 3) continue;
    const p = decryptWith(k, ct, aad);
    if (p) return p;
  }
  throw new KeysetError('decryption failed');
}
