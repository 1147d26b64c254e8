/**
 * AEAD encryption functions (BigQuery aead_encryption_functions): KEYS.NEW_KEYSET,
 * KEYS.ADD_KEY_FROM_RAW_BYTES, KEYS.ROTATE_KEYSET, KEYS.KEYSET_LENGTH, KEYS.KEYSET_TO_JSON,
 * KEYS.KEYSET_FROM_JSON, AEAD.ENCRYPT, AEAD.DECRYPT_BYTES, AEAD.DECRYPT_STRING,
 * DETERMINISTIC_ENCRYPT, DETERMINISTIC_DECRYPT_BYTES, DETERMINISTIC_DECRYPT_STRING.
 * Keysets are Tink keysets (tink-keyset.ts); ciphertexts are Tink's (tink-crypto.ts), so values
 * made by BigQuery or by Tink decrypt here and the other way round.
 *
 * Each function is a prelude UDF that raises BigQuery's error text (`AEAD.DECRYPT_STRING failed:
 * decryption failed`, ZetaSQL compliance aead.test / keys.test) and a `_safe` twin that gives NULL
 * (SAFE. calls). STRING arguments are passed as their UTF-8 bytes. Functions that draw random
 * keys or nonces are volatile: two calls never share a result.
 *
 * Not supported (they need Cloud KMS to wrap or unwrap keysets): KEYS.KEYSET_CHAIN,
 * KEYS.NEW_WRAPPED_KEYSET, KEYS.REWRAP_KEYSET, KEYS.ROTATE_WRAPPED_KEYSET, AEAD.ENVELOPE_*, and
 * keyset arguments given as a KEYS.KEYSET_CHAIN struct.
 */
import { BigQueryError } from '../errors/errors.js';
import { defineUdf, type UdfType } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { keysetDecrypt, keysetEncrypt, type Family } from './tink-crypto.js';
import {
  AES_CBC_URL,
  AES_GCM_URL,
  keysetFromJson,
  keysetToJson,
  KeysetError,
  makeKeyData,
  newKey,
  NEW_KEY_TYPES,
  parseKeyset,
  serializeKeyset,
  unusedKeyId,
} from './tink-keyset.js';

type Js<T extends UdfType> = T extends 'VARCHAR' ? string : T extends 'BLOB' ? Uint8Array : T extends 'BIGINT' ? bigint : never;

/** Declares `name` (raising `<fn> failed: …` style errors) and `name_safe` (NULL instead). */
function udf<P extends ('VARCHAR' | 'BLOB')[], R extends 'VARCHAR' | 'BLOB' | 'BIGINT'>(
  name: string,
  params: [...P],
  returns: R,
  fn: (...args: { [K in keyof P]: Js<P[K]> }) => Js<R>,
  volatile = false,
): void {
  defineUdf(name, params, returns, fn as never, { raises: true, volatile });
  defineUdf(`${name}_safe`, params, returns, fn as never, { volatile });
}

/** Runs `f`, prefixing a KeysetError's text with `<fn> failed: `. */
function failing<T>(fn: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof KeysetError) throw new Error(`${fn} failed: ${e.message}`);
    throw e;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decryptString(fn: string, family: Family, bytesFn: string) {
  return (k: Uint8Array, c: Uint8Array, a: Uint8Array): string => {
    const p = failing(fn, () => keysetDecrypt(k, family, c, a));
    try {
      return utf8.decode(p);
    } catch {
      throw new Error(`${fn} failed: Decrypted plaintext is not a valid UTF-8 string. To decrypt to BYTES, use ${bytesFn}`);
    }
  };
}

const RAW_KEY_TYPES: Record<string, { url: string; sizes: number[] }> = {
  AES_GCM: { url: AES_GCM_URL, sizes: [16, 32] },
  AES_CBC_PKCS: { url: AES_CBC_URL, sizes: [16, 24, 32] },
};

udf('bq_keys_new_keyset', ['VARCHAR'], 'BLOB', (type) => {
  if (!NEW_KEY_TYPES[type]) throw new Error(`Invalid key type provided to KEYS.NEW_KEYSET: ${type}`);
  const ks = { primaryKeyId: 0, key: [] as ReturnType<typeof parseKeyset>['key'] };
  const k = newKey(ks, type);
  return serializeKeyset({ primaryKeyId: k.keyId, key: [k] });
}, true);

udf('bq_keys_rotate_keyset', ['BLOB', 'VARCHAR'], 'BLOB', (keyset, type) => {
  if (!NEW_KEY_TYPES[type]) throw new Error(`Invalid key type provided to KEYS.ROTATE_KEYSET: ${type}`);
  const ks = failing('KEYS.ROTATE_KEYSET', () => parseKeyset(keyset));
  const k = newKey(ks, type);
  return serializeKeyset({ primaryKeyId: k.keyId, key: [...ks.key, k] });
}, true);

udf('bq_keys_add_key_from_raw_bytes', ['BLOB', 'VARCHAR', 'BLOB'], 'BLOB', (keyset, type, raw) => {
  const t = RAW_KEY_TYPES[type];
  if (!t) throw new Error(`Invalid key type provided to KEYS.ADD_KEY_FROM_RAW_BYTES: ${type}`);
  const fail = (m: string): never => {
    throw new Error(`Failed to add a key from raw bytes: ${m}`);
  };
  if (!t.sizes.includes(raw.length))
    fail(`Unsupported key size: ${raw.length} bytes; expected ${t.sizes.length === 2 ? '16 or 32' : '16, 24, or 32'} bytes.`);
  let ks;
  try {
    ks = parseKeyset(keyset);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (!ks.key.length) fail('A valid keyset must contain at least one key.');
  const key = { keyData: makeKeyData(t.url, raw), status: 1, keyId: unusedKeyId(ks), outputPrefixType: 3 };
  return serializeKeyset({ primaryKeyId: ks.primaryKeyId, key: [...ks.key, key] });
}, true);

udf('bq_keys_keyset_length', ['BLOB'], 'BIGINT', (keyset) => BigInt(failing('KEYS.KEYSET_LENGTH', () => parseKeyset(keyset)).key.length));
udf('bq_keys_keyset_to_json', ['BLOB'], 'VARCHAR', (keyset) => failing('KEYS.KEYSET_TO_JSON', () => keysetToJson(parseKeyset(keyset))));
udf('bq_keys_keyset_from_json', ['VARCHAR'], 'BLOB', (json) => failing('KEYS.KEYSET_FROM_JSON', () => serializeKeyset(keysetFromJson(json))));

udf('bq_aead_encrypt', ['BLOB', 'BLOB', 'BLOB'], 'BLOB', (k, p, a) => failing('AEAD.ENCRYPT', () => keysetEncrypt(k, 'AEAD', p, a)), true);
udf('bq_aead_decrypt_bytes', ['BLOB', 'BLOB', 'BLOB'], 'BLOB', (k, c, a) => failing('AEAD.DECRYPT_BYTES', () => keysetDecrypt(k, 'AEAD', c, a)));
udf('bq_aead_decrypt_string', ['BLOB', 'BLOB', 'BLOB'], 'VARCHAR', decryptString('AEAD.DECRYPT_STRING', 'AEAD', 'AEAD.DECRYPT_BYTES'));
udf('bq_deterministic_encrypt', ['BLOB', 'BLOB', 'BLOB'], 'BLOB', (k, p, a) =>
  failing('DETERMINISTIC_ENCRYPT', () => keysetEncrypt(k, 'Deterministic AEAD', p, a)),
);
udf('bq_deterministic_decrypt_bytes', ['BLOB', 'BLOB', 'BLOB'], 'BLOB', (k, c, a) =>
  failing('DETERMINISTIC_DECRYPT_BYTES', () => keysetDecrypt(k, 'Deterministic AEAD', c, a)),
);
udf('bq_deterministic_decrypt_string', ['BLOB', 'BLOB', 'BLOB'], 'VARCHAR', decryptString('DETERMINISTIC_DECRYPT_STRING', 'Deterministic AEAD', 'DETERMINISTIC_DECRYPT_BYTES'));

const KMS = 'Cloud KMS (the emulator has no KMS to wrap or unwrap keysets)';

/** A call of UDF `udfName` (its `_safe` twin under SAFE.); STRING arguments as UTF-8 BYTES. */
const call = (udfName: string) => (c: FnCall) => {
  if (c.argTypes[0]?.kind === 'STRUCT') throw BigQueryError.notSupported(`Function ${c.name.toUpperCase()} with a KEYS.KEYSET_CHAIN keyset, which needs ${KMS},`);
  const args = c.args.map((a, i) => (c.argTypes[i]?.kind === 'STRING' && !udfName.startsWith('bq_keys') ? `encode(${a})` : a));
  return `${udfName}${c.safe ? '_safe' : ''}(${args.join(', ')})`;
};

const needsKms = (what: string) => ({ unsupported: `${what} needs ${KMS}` });

/** The aead_encryption_functions page. */
export const AEAD_ENCRYPTION_FUNCTIONS: FnTable = {
  'keys.new_keyset': call('bq_keys_new_keyset'),
  'keys.rotate_keyset': call('bq_keys_rotate_keyset'),
  'keys.add_key_from_raw_bytes': call('bq_keys_add_key_from_raw_bytes'),
  'keys.keyset_length': call('bq_keys_keyset_length'),
  'keys.keyset_to_json': call('bq_keys_keyset_to_json'),
  'keys.keyset_from_json': call('bq_keys_keyset_from_json'),
  'aead.encrypt': call('bq_aead_encrypt'),
  'aead.decrypt_bytes': call('bq_aead_decrypt_bytes'),
  'aead.decrypt_string': call('bq_aead_decrypt_string'),
  deterministic_encrypt: call('bq_deterministic_encrypt'),
  deterministic_decrypt_bytes: call('bq_deterministic_decrypt_bytes'),
  deterministic_decrypt_string: call('bq_deterministic_decrypt_string'),
  'keys.keyset_chain': needsKms('KEYS.KEYSET_CHAIN (a keyset wrapped by a Cloud KMS key)'),
  'keys.new_wrapped_keyset': needsKms('KEYS.NEW_WRAPPED_KEYSET'),
  'keys.rewrap_keyset': needsKms('KEYS.REWRAP_KEYSET'),
  'keys.rotate_wrapped_keyset': needsKms('KEYS.ROTATE_WRAPPED_KEYSET'),
  'aead.envelope_encrypt': needsKms('AEAD.ENVELOPE_ENCRYPT'),
  'aead.envelope_decrypt_bytes': needsKms('AEAD.ENVELOPE_DECRYPT_BYTES'),
  'aead.envelope_decrypt_string': needsKms('AEAD.ENVELOPE_DECRYPT_STRING'),
};
