/**
 * Tink keysets as BigQuery stores them (AEAD encryption concepts): a serialized
 * `google.crypto.tink.Keyset` protocol buffer in BYTES, and its JSON form (KEYS.KEYSET_TO_JSON /
 * KEYS.KEYSET_FROM_JSON).
 *
 * Protos (Tink proto/tink.proto, aes_gcm.proto, aes_siv.proto):
 * `Keyset { uint32 primary_key_id = 1; repeated Key key = 2; }`,
 * `Key { KeyData key_data = 1; KeyStatusType status = 2; uint32 key_id = 3; OutputPrefixType output_prefix_type = 4; }`,
 * `KeyData { string type_url = 1; bytes value = 2; KeyMaterialType key_material_type = 3; }`,
 * `AesGcmKey { uint32 version = 1; bytes key_value = 3; }`, `AesSivKey { uint32 version = 1; bytes key_value = 2; }`.
 * `AesCbcPkcs7Key` (BigQuery's decrypt-only key of KEYS.ADD_KEY_FROM_RAW_BYTES 'AES_CBC_PKCS') is
 * not a public Tink proto; it is written here as `{ uint32 version = 1; bytes key_value = 2; }`.
 *
 * The JSON form is proto3 JSON with camelCase names, enum names, base64 bytes, default values
 * left out and members in alphabetical order, compact (ZetaSQL compliance keys.test json_keyset_1:
 * `{"key":[{"keyData":{"keyMaterialType":"SYMMETRIC","typeUrl":"…","value":"GiD…"},"keyId":2427045401,"outputPrefixType":"TINK","status":"ENABLED"}],"primaryKeyId":2427045401}`).
 * Serialization writes fields in field-number order and leaves proto3 defaults out
 * (json_keyset_3: `{"key":[{"keyId":1234,"outputPrefixType":"TINK","status":"DESTROYED"}],"primaryKeyId":4321}` → `08e1211207100318d2092001`).
 */
import { randomBytes, randomInt } from 'node:crypto';
import protobuf from 'protobufjs';

const TYPE_PREFIX = 'type.googleapis.com/google.crypto.tink.';
export const AES_GCM_URL = `${TYPE_PREFIX}AesGcmKey`;
export const AES_SIV_URL = `${TYPE_PREFIX}AesSivKey`;
export const AES_CBC_URL = `${TYPE_PREFIX}AesCbcPkcs7Key`;

export const STATUS = ['UNKNOWN_STATUS', 'ENABLED', 'DISABLED', 'DESTROYED'] as const;
export const PREFIX = ['UNKNOWN_PREFIX', 'TINK', 'LEGACY', 'RAW', 'CRUNCHY'] as const;
export const MATERIAL = ['UNKNOWN_KEYMATERIAL', 'SYMMETRIC', 'ASYMMETRIC_PRIVATE', 'ASYMMETRIC_PUBLIC', 'REMOTE'] as const;

export interface KeyData {
  typeUrl: string;
  value: Uint8Array;
  keyMaterialType: number;
}
export interface Key {
  keyData?: KeyData;
  status: number;
  keyId: number;
  outputPrefixType: number;
}
export interface Keyset {
  primaryKeyId: number;
  key: Key[];
}

/** A keyset error; `message` is the text after BigQuery's `<FUNCTION> failed: ` lead. */
export class KeysetError extends Error {}

const root = protobuf.Root.fromJSON({
  nested: {
    KeyData: { fields: { typeUrl: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 }, keyMaterialType: { type: 'uint32', id: 3 } } },
    Key: {
      fields: { keyData: { type: 'KeyData', id: 1 }, status: { type: 'uint32', id: 2 }, keyId: { type: 'uint32', id: 3 }, outputPrefixType: { type: 'uint32', id: 4 } },
    },
    Keyset: { fields: { primaryKeyId: { type: 'uint32', id: 1 }, key: { rule: 'repeated', type: 'Key', id: 2 } } },
    AesGcmKey: { fields: { version: { type: 'uint32', id: 1 }, keyValue: { type: 'bytes', id: 3 } } },
    AesSivKey: { fields: { version: { type: 'uint32', id: 1 }, keyValue: { type: 'bytes', id: 2 } } },
    AesCbcPkcs7Key: { fields: { version: { type: 'uint32', id: 1 }, keyValue: { type: 'bytes', id: 2 } } },
  },
});
const KeysetType = root.lookupType('Keyset');
const KEY_TYPES: Record<string, protobuf.Type> = {
  [AES_GCM_URL]: root.lookupType('AesGcmKey'),
  [AES_SIV_URL]: root.lookupType('AesSivKey'),
  [AES_CBC_URL]: root.lookupType('AesCbcPkcs7Key'),
};

/** Drops proto3 default values so that they are not serialized. */
function sparse<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== 0 && v !== '' && !(v instanceof Uint8Array && v.length === 0))) as Partial<T>;
}

/** Parses a serialized keyset (an empty value is a keyset with no keys). */
export function parseKeyset(bytes: Uint8Array): Keyset {
  let m: Record<string, any>;
  try {
    m = KeysetType.toObject(KeysetType.decode(bytes), { defaults: true, arrays: true });
  } catch {
    throw new KeysetError('Could not parse keyset');
  }
  return {
    primaryKeyId: m.primaryKeyId >>> 0,
    key: (m.key as Record<string, any>[]).map((k) => ({
      keyData: k.keyData ? { typeUrl: k.keyData.typeUrl, value: new Uint8Array(k.keyData.value), keyMaterialType: k.keyData.keyMaterialType } : undefined,
      status: k.status,
      keyId: k.keyId >>> 0,
      outputPrefixType: k.outputPrefixType,
    })),
  };
}

/** Serializes a keyset. */
export function serializeKeyset(ks: Keyset): Uint8Array {
  const msg = sparse({
    primaryKeyId: ks.primaryKeyId,
    key: ks.key.length
      ? ks.key.map((k) => sparse({ keyData: k.keyData ? sparse(k.keyData) : undefined, status: k.status, keyId: k.keyId, outputPrefixType: k.outputPrefixType }))
      : undefined,
  });
  return KeysetType.encode(KeysetType.fromObject(msg)).finish();
}

/** The raw key bytes of a key's KeyData (AesGcmKey / AesSivKey / AesCbcPkcs7Key). */
export function keyBytes(kd: KeyData): Uint8Array {
  const t = KEY_TYPES[kd.typeUrl];
  if (!t) throw new KeysetError(`No manager for key type '${kd.typeUrl}' has been registered.`);
  try {
    return new Uint8Array((t.toObject(t.decode(kd.value), { defaults: true }) as { keyValue: Uint8Array }).keyValue);
  } catch {
    throw new KeysetError(`Could not parse key_data.value as key type '${kd.typeUrl}'.`);
  }
}

/** A symmetric KeyData holding `raw` as a key of type `typeUrl`. */
export function makeKeyData(typeUrl: string, raw: Uint8Array): KeyData {
  const t = KEY_TYPES[typeUrl];
  return { typeUrl, value: t.encode(t.fromObject({ keyValue: raw })).finish(), keyMaterialType: 1 };
}

/** A key id not used in `ks` (Tink: a random uint32). */
export function unusedKeyId(ks: Keyset): number {
  for (;;) {
    const id = randomInt(1, 2 ** 32 - 1);
    if (!ks.key.some((k) => k.keyId === id)) return id;
  }
}

/** KEYS.NEW_KEYSET / ROTATE_KEYSET key types → (type URL, key length). */
export const NEW_KEY_TYPES: Record<string, { url: string; size: number }> = {
  AEAD_AES_GCM_256: { url: AES_GCM_URL, size: 32 },
  DETERMINISTIC_AEAD_AES_SIV_CMAC_256: { url: AES_SIV_URL, size: 64 },
};

/** A new ENABLED, TINK-prefixed key of `keyType` for `ks` (not added). */
export function newKey(ks: Keyset, keyType: string): Key {
  const t = NEW_KEY_TYPES[keyType];
  if (!t) throw new KeysetError(`Unsupported key type: ${keyType}`);
  return { keyData: makeKeyData(t.url, new Uint8Array(randomBytes(t.size))), status: 1, keyId: unusedKeyId(ks), outputPrefixType: 1 };
}

// ---------- JSON ----------

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** KEYS.KEYSET_TO_JSON: compact proto3 JSON, members sorted, defaults left out. */
export function keysetToJson(ks: Keyset): string {
  const keys = ks.key.map((k) => {
    const o: Record<string, unknown> = {};
    if (k.keyData) {
      const d: Record<string, unknown> = {};
      if (k.keyData.keyMaterialType) d.keyMaterialType = MATERIAL[k.keyData.keyMaterialType] ?? k.keyData.keyMaterialType;
      if (k.keyData.typeUrl) d.typeUrl = k.keyData.typeUrl;
      if (k.keyData.value.length) d.value = b64(k.keyData.value);
      o.keyData = d;
    }
    if (k.keyId) o.keyId = k.keyId;
    if (k.outputPrefixType) o.outputPrefixType = PREFIX[k.outputPrefixType] ?? k.outputPrefixType;
    if (k.status) o.status = STATUS[k.status] ?? k.status;
    return o;
  });
  const out: Record<string, unknown> = {};
  if (keys.length) out.key = keys;
  if (ks.primaryKeyId) out.primaryKeyId = ks.primaryKeyId;
  return JSON.stringify(out);
}

const bad = (what: string): never => {
  throw new KeysetError(`Invalid JSON keyset: ${what}`);
};

/** A JSON member by its camelCase or snake_case proto name. */
function member(o: Record<string, unknown>, camel: string): unknown {
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return o[camel] ?? o[snake];
}

function checkMembers(o: Record<string, unknown>, names: string[], where: string): void {
  const allowed = new Set(names.flatMap((n) => [n, n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]));
  for (const k of Object.keys(o)) if (!allowed.has(k)) bad(`unknown field '${k}' in ${where}`);
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) bad(`${where} must be an object`);
  return v as Record<string, unknown>;
}

function uint32(v: unknown, where: string): number {
  if (v === undefined || v === null) return 0;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) bad(`${where} must be a uint32`);
  return n as number;
}

function enumOf(v: unknown, names: readonly string[], where: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  const i = typeof v === 'string' ? names.indexOf(v) : -1;
  if (i < 0) bad(`invalid value for ${where}`);
  return i;
}

/** KEYS.KEYSET_FROM_JSON: proto3 JSON (camelCase or snake_case names, enum names or numbers). */
export function keysetFromJson(text: string): Keyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    bad('not valid JSON');
  }
  const o = obj(parsed, 'the keyset');
  checkMembers(o, ['primaryKeyId', 'key'], 'Keyset');
  const keys = member(o, 'key') ?? [];
  if (!Array.isArray(keys)) bad('key must be an array');
  return {
    primaryKeyId: uint32(member(o, 'primaryKeyId'), 'primaryKeyId'),
    key: (keys as unknown[]).map((kv) => {
      const k = obj(kv, 'a key');
      checkMembers(k, ['keyData', 'status', 'keyId', 'outputPrefixType'], 'Key');
      const kd = member(k, 'keyData');
      let keyData: KeyData | undefined;
      if (kd !== undefined && kd !== null) {
        const d = obj(kd, 'keyData');
        checkMembers(d, ['typeUrl', 'value', 'keyMaterialType'], 'KeyData');
        const value = member(d, 'value') ?? '';
        if (typeof value !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) bad('keyData.value must be base64');
        const typeUrl = member(d, 'typeUrl') ?? '';
        if (typeof typeUrl !== 'string') bad('keyData.typeUrl must be a string');
        keyData = { typeUrl: typeUrl as string, value: new Uint8Array(Buffer.from(value as string, 'base64')), keyMaterialType: enumOf(member(d, 'keyMaterialType'), MATERIAL, 'keyMaterialType') };
      }
      return {
        keyData,
        status: enumOf(member(k, 'status'), STATUS, 'status'),
        keyId: uint32(member(k, 'keyId'), 'keyId'),
        outputPrefixType: enumOf(member(k, 'outputPrefixType'), PREFIX, 'outputPrefixType'),
      };
    }),
  };
}
