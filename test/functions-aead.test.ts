/**
 * AEAD encryption functions through the real client. Expected values: a ciphertext made by Tink
 * (Java) with a documented keyset, which BigQuery decrypts to "Encryption works" (public sample
 * next to a Tink encrypter); ZetaSQL's compliance tests aead.test / keys.test (keysets made by
 * BigQuery's KEYS functions, their KEYSET_TO_JSON text, KEYSET_FROM_JSON bytes, error texts);
 * AES-CBC ciphertexts made with node:crypto (an independent implementation); and round-trip
 * properties (decrypt(encrypt(x)) = x, deterministic encryption repeats, AEAD encryption does not).
 */
import { createCipheriv } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const one = async (query: string) => (await q(query))[0];
const err = async (query: string) => (await errorOf(q(query))).message;

/** keys.test KeysetTable row 1 (AEAD_AES_GCM_256, made by KEYS.NEW_KEYSET). */
const GCM = `FROM_BASE64('CJmMp4UJEmQKWAowdHlwZS5nb29nbGVhcGlzLmNvbS9nb29nbGUuY3J5cHRvLnRpbmsuQWVzR2NtS2V5EiIaIP7Xj33VJoXuk9KMRwXsjkuDmo5P40WUSaVtJAzyve80GAEQARiZjKeFCSAB')`;
/** keys.test KeysetTable row 3: a TINK key plus a RAW AES_GCM key from KEYS.ADD_KEY_FROM_RAW_BYTES. */
const GCM_RAW = `FROM_BASE64('CKGMgekFEmQKWAowdHlwZS5nb29nbGVhcGlzLmNvbS9nb29nbGUuY3J5cHRvLnRpbmsuQWVzR2NtS2V5EiIaIE4Tia+cXn5OC3blTmI6KkPOAeE9zg0LxpD96L92bWG2GAEQARihjIHpBSABEmQKWAowdHlwZS5nb29nbGVhcGlzLmNvbS9nb29nbGUuY3J5cHRvLnRpbmsuQWVzR2NtS2V5EiIaIDEyMzQxMjM0MTIzNDEyMzQxMjM0MTIzNDEyMzQxMjM0GAEQARirptH5DSAD')`;
/** aead.test DeterministicKeysetTable row 1 (DETERMINISTIC_AEAD_AES_SIV_CMAC_256). */
const SIV = `FROM_BASE64('CIGYpMkDEoQBCngKMHR5cGUuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLmNyeXB0by50aW5rLkFlc1NpdktleRJCEkBKAovGAOp+siYkuWvTYKXRW6V/3Z5en87KNgswc+8TKZUzumbh/qVtCYQ8qHo7li/fYDx43MoBYwbfUPhv3//xGAEQARiBmKTJAyAB')`;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('keysets', () => {
  it('KEYS.KEYSET_TO_JSON gives Tink JSON (keys.test json_keyset_1 rows 1 and 3)', async () => {
    expect((await one(`SELECT KEYS.KEYSET_TO_JSON(${GCM}) AS j`)).j).toBe(
      '{"key":[{"keyData":{"keyMaterialType":"SYMMETRIC","typeUrl":"type.googleapis.com/google.crypto.tink.AesGcmKey","value":"GiD+14991SaF7pPSjEcF7I5Lg5qOT+NFlEmlbSQM8r3vNA=="},"keyId":2427045401,"outputPrefixType":"TINK","status":"ENABLED"}],"primaryKeyId":2427045401}',
    );
    expect((await one(`SELECT KEYS.KEYSET_TO_JSON(${GCM_RAW}) AS j`)).j).toBe(
      '{"key":[{"keyData":{"keyMaterialType":"SYMMETRIC","typeUrl":"type.googleapis.com/google.crypto.tink.AesGcmKey","value":"GiBOE4mvnF5+Tgt25U5iOipDzgHhPc4NC8aQ/ei/dm1htg=="},"keyId":1562396193,"outputPrefixType":"TINK","status":"ENABLED"},{"keyData":{"keyMaterialType":"SYMMETRIC","typeUrl":"type.googleapis.com/google.crypto.tink.AesGcmKey","value":"GiAxMjM0MTIzNDEyMzQxMjM0MTIzNDEyMzQxMjM0MTIzNA=="},"keyId":3744748331,"outputPrefixType":"RAW","status":"ENABLED"}],"primaryKeyId":1562396193}',
    );
  });

  it('KEYS.KEYSET_FROM_JSON serializes and round-trips (keys.test json_keyset_2, json_keyset_3)', async () => {
    const r = await one(`SELECT TO_HEX(KEYS.KEYSET_FROM_JSON('{"key":[{"keyId":1234,"outputPrefixType":"TINK","status":"DESTROYED"}],"primaryKeyId":4321}')) AS h,
      KEYS.KEYSET_FROM_JSON(KEYS.KEYSET_TO_JSON(${GCM_RAW})) = ${GCM_RAW} AS same,
      KEYS.KEYSET_TO_JSON(KEYS.KEYSET_FROM_JSON('{\\n  "primaryKeyId": 4321, "key": [ {"keyId": 1234, "outputPrefixType": "TINK", "status": "DESTROYED"} ]\\n}')) AS j`);
    expect(r).toEqual({ h: '08e1211207100318d2092001', same: true, j: '{"key":[{"keyId":1234,"outputPrefixType":"TINK","status":"DESTROYED"}],"primaryKeyId":4321}' });
  });

  it('NEW_KEYSET, ROTATE_KEYSET, ADD_KEY_FROM_RAW_BYTES, KEYSET_LENGTH (keys.test keys_*, rotate_keyset_*)', async () => {
    const r = await one(`SELECT
      KEYS.KEYSET_LENGTH(KEYS.NEW_KEYSET('AEAD_AES_GCM_256')) AS a,
      KEYS.KEYSET_LENGTH(KEYS.ROTATE_KEYSET(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), 'AEAD_AES_GCM_256')) AS b,
      KEYS.KEYSET_LENGTH(KEYS.ROTATE_KEYSET(b'', 'AEAD_AES_GCM_256')) AS c,
      KEYS.NEW_KEYSET('AEAD_AES_GCM_256') != KEYS.NEW_KEYSET('AEAD_AES_GCM_256') AS d,
      KEYS.KEYSET_TO_JSON(KEYS.ADD_KEY_FROM_RAW_BYTES(KEYS.ADD_KEY_FROM_RAW_BYTES(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), 'AES_CBC_PKCS', b'0123456789abcdef'), 'AES_GCM', b'0123456789abcdef')) LIKE '%AesGcmKey%AesCbcPkcs7Key%AesGcmKey%' AS e,
      KEYS.KEYSET_LENGTH(NULL) AS f`);
    expect(r).toEqual({ a: 1, b: 2, c: 1, d: true, e: true, f: null });
    const [n] = await q(`SELECT COUNT(DISTINCT KEYS.NEW_KEYSET('AEAD_AES_GCM_256')) AS n FROM UNNEST(GENERATE_ARRAY(1, 100))`);
    expect(n).toEqual({ n: 100 });
  });

  it('reports bad raw keys and key types with BigQuery text (keys.test keys_bad_key_length_*)', async () => {
    expect(await err(`SELECT KEYS.ADD_KEY_FROM_RAW_BYTES(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), 'AES_GCM', b'12345678901234567')`)).toBe(
      'Failed to add a key from raw bytes: Unsupported key size: 17 bytes; expected 16 or 32 bytes.',
    );
    expect(await err(`SELECT KEYS.ADD_KEY_FROM_RAW_BYTES(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), 'AES_CBC_PKCS', b'12345')`)).toBe(
      'Failed to add a key from raw bytes: Unsupported key size: 5 bytes; expected 16, 24, or 32 bytes.',
    );
    // A key type given as a query parameter is checked at run time (keys_raw_bytes_invalid_key_type_as_query_parameter).
    const bad = t.bq.query({ query: `SELECT KEYS.ADD_KEY_FROM_RAW_BYTES(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), @key_type, b'0123456789abcdef')`, params: { key_type: 'AEAD_AES_GCM_256' } });
    expect((await errorOf(bad)).message).toBe('Invalid key type provided to KEYS.ADD_KEY_FROM_RAW_BYTES: AEAD_AES_GCM_256');
    const safe = await one(`SELECT SAFE.KEYS.KEYSET_TO_JSON(b'123') AS a, SAFE.KEYS.KEYSET_FROM_JSON('{"key":123}') AS b,
      SAFE.KEYS.KEYSET_LENGTH(b'123') AS c, SAFE.KEYS.ADD_KEY_FROM_RAW_BYTES(b'', 'AES_GCM', b'0123456789abcdef') AS d`);
    expect(safe).toEqual({ a: null, b: null, c: null, d: null });
  });
});

describe('AEAD and deterministic encryption', () => {
  it('decrypts a ciphertext made by Tink with a known keyset', async () => {
    const r = await one(`SELECT AEAD.DECRYPT_STRING(KEYS.KEYSET_FROM_JSON('{"primaryKeyId": 41726583, "key": [{"keyData": {"typeUrl": "type.googleapis.com/google.crypto.tink.AesGcmKey", "keyMaterialType": "SYMMETRIC", "value": "GiAE3ro9wRJSZEUDxslVgWsIcbD/PS3N42I+ZOZm+Jx5XQ=="}, "outputPrefixType": "TINK", "keyId": 41726583, "status": "ENABLED"}]}'),
      FROM_HEX('01027cb277c87df6f3534741db572e9d79ee090d3ab3848e6d7fc52f4c3b20177f1768ca8b807b384fe45c709d9d2407be'), 'ghijk') AS p`);
    expect(r.p).toBe('Encryption works');
  });

  it('round-trips STRING and BYTES; ciphertexts carry the TINK prefix and never repeat (aead.test encrypt_*)', async () => {
    const r = await one(`SELECT
      AEAD.DECRYPT_STRING(${GCM}, AEAD.ENCRYPT(${GCM}, 'жэчыщчыщя', 'abc'), 'abc') AS s,
      TO_HEX(AEAD.DECRYPT_BYTES(${GCM}, AEAD.ENCRYPT(${GCM}, b'\\x00\\x01\\xff', b'\\x00'), b'\\x00')) AS b,
      AEAD.DECRYPT_BYTES(${GCM}, AEAD.ENCRYPT(${GCM}, CAST('plaintext' AS BYTES), b''), b'') = b'plaintext' AS sb,
      TO_HEX(SUBSTR(AEAD.ENCRYPT(${GCM}, 'x', ''), 1, 5)) AS prefix,
      LENGTH(AEAD.ENCRYPT(${GCM}, 'x', '')) AS len,
      AEAD.ENCRYPT(${GCM}, 'x', '') = AEAD.ENCRYPT(${GCM}, 'x', '') AS same,
      AEAD.DECRYPT_STRING(${GCM_RAW}, AEAD.ENCRYPT(${GCM_RAW}, '', ''), '') AS empty,
      AEAD.DECRYPT_STRING(NULL, b'', '') AS n`);
    // keyId 2427045401 = 0x90a9c619; payload = 12-byte IV + 1 byte + 16-byte tag.
    expect(r).toEqual({ s: 'жэчыщчыщя', b: '0001ff', sb: true, prefix: '0190a9c619', len: 34, same: false, empty: '', n: null });
  });

  it('decrypts with a RAW key added from raw bytes (AES-GCM: IV ‖ ciphertext ‖ tag, no prefix)', async () => {
    const key = Buffer.from('12341234123412341234123412341234');
    const iv = Buffer.alloc(12, 7);
    const c = createCipheriv('aes-256-gcm', key, iv);
    c.setAAD(Buffer.from('aad'));
    const ct = Buffer.concat([iv, c.update('raw gcm'), c.final(), c.getAuthTag()]).toString('hex');
    expect((await one(`SELECT AEAD.DECRYPT_STRING(${GCM_RAW}, FROM_HEX('${ct}'), 'aad') AS p`)).p).toBe('raw gcm');
  });

  it('decrypts AES_CBC_PKCS keys (IV ‖ CBC ciphertext with PKCS#7 padding)', async () => {
    const key = Buffer.from('0123456789abcdef');
    const iv = Buffer.alloc(16, 3);
    const c = createCipheriv('aes-128-cbc', key, iv);
    const ct = Buffer.concat([iv, c.update('cbc plaintext'), c.final()]).toString('hex');
    const ks = `KEYS.ADD_KEY_FROM_RAW_BYTES(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), 'AES_CBC_PKCS', b'0123456789abcdef')`;
    expect((await one(`SELECT AEAD.DECRYPT_STRING(${ks}, FROM_HEX('${ct}'), '') AS p`)).p).toBe('cbc plaintext');
  });

  it('raises BigQuery errors for a wrong key, wrong additional data, bad keysets and bad UTF-8 (aead.test decrypt_*)', async () => {
    expect(await err(`SELECT AEAD.DECRYPT_STRING(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), AEAD.ENCRYPT(${GCM}, 'p', 'a'), 'a')`)).toBe(
      'AEAD.DECRYPT_STRING failed: decryption failed',
    );
    expect(await err(`SELECT AEAD.DECRYPT_BYTES(${GCM}, AEAD.ENCRYPT(${GCM}, b'p', b'a'), b'different aad')`)).toBe('AEAD.DECRYPT_BYTES failed: decryption failed');
    expect(await err(`SELECT AEAD.DECRYPT_STRING(${GCM}, b'123', 'abc')`)).toBe('AEAD.DECRYPT_STRING failed: decryption failed');
    expect(await err(`SELECT AEAD.DECRYPT_STRING(b'', AEAD.ENCRYPT(${GCM}, 'p', 'a'), 'a')`)).toBe(
      'AEAD.DECRYPT_STRING failed: Creation of AEAD primitive failed: A valid keyset must contain at least one key.',
    );
    expect(await err(`SELECT AEAD.DECRYPT_STRING(${GCM}, AEAD.ENCRYPT(${GCM}, b'\\xFF\\xFE', b'abc'), 'abc')`)).toBe(
      'AEAD.DECRYPT_STRING failed: Decrypted plaintext is not a valid UTF-8 string. To decrypt to BYTES, use AEAD.DECRYPT_BYTES',
    );
    const safe = await one(`SELECT SAFE.AEAD.ENCRYPT(b'', b'', b'') AS a, SAFE.AEAD.DECRYPT_BYTES(b'', b'', b'') AS b,
      SAFE.AEAD.DECRYPT_BYTES(KEYS.NEW_KEYSET('AEAD_AES_GCM_256'), b'', b'') AS c`);
    expect(safe).toEqual({ a: null, b: null, c: null });
  });

  it('deterministic encryption repeats, round-trips, and checks the additional data (aead.test deterministic_*)', async () => {
    const r = await one(`SELECT
      DETERMINISTIC_ENCRYPT(${SIV}, 'plaintext', 'abc') = DETERMINISTIC_ENCRYPT(${SIV}, 'plaintext', 'abc') AS same,
      DETERMINISTIC_ENCRYPT(${SIV}, 'plaintext', 'abc') = DETERMINISTIC_ENCRYPT(${SIV}, 'plaintext', 'abd') AS other_aad,
      DETERMINISTIC_DECRYPT_STRING(${SIV}, DETERMINISTIC_ENCRYPT(${SIV}, 'жэчыщчыщя', 'abc'), 'abc') AS s,
      TO_HEX(DETERMINISTIC_DECRYPT_BYTES(${SIV}, DETERMINISTIC_ENCRYPT(${SIV}, b'\\x00\\x01', b''), b'')) AS b,
      LENGTH(DETERMINISTIC_ENCRYPT(${SIV}, 'x', '')) AS len`);
    // 5-byte prefix + 16-byte SIV + 1 byte.
    expect(r).toEqual({ same: true, other_aad: false, s: 'жэчыщчыщя', b: '0001', len: 22 });
    expect(await err(`SELECT DETERMINISTIC_DECRYPT_STRING(${SIV}, DETERMINISTIC_ENCRYPT(${SIV}, 'plaintext', 'abc'), 'different aad')`)).toBe(
      'DETERMINISTIC_DECRYPT_STRING failed: decryption failed',
    );
    expect(await err(`SELECT DETERMINISTIC_DECRYPT_STRING(b'', b'123', 'abc')`)).toBe(
      'DETERMINISTIC_DECRYPT_STRING failed: Creation of Deterministic AEAD primitive failed: A valid keyset must contain at least one key.',
    );
    const k = `KEYS.NEW_KEYSET('DETERMINISTIC_AEAD_AES_SIV_CMAC_256')`;
    const [safe] = await q(`SELECT SAFE.DETERMINISTIC_ENCRYPT(b'', b'', b'') AS a, SAFE.DETERMINISTIC_DECRYPT_BYTES(${k}, b'', b'') AS b`);
    expect(safe).toEqual({ a: null, b: null });
  });

  it('rejects the Cloud KMS functions with a clear "not supported" error', async () => {
    expect(await err(`SELECT KEYS.NEW_WRAPPED_KEYSET('gcp-kms://projects/p/locations/us/keyRings/r/cryptoKeys/k', 'AEAD_AES_GCM_256')`)).toMatch(
      /KEYS\.NEW_WRAPPED_KEYSET needs Cloud KMS.*is not supported by bqemu/,
    );
  });
});
