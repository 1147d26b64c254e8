/**
 * String functions (BigQuery "String functions"), encodings and normalisation: TO_BASE64 /
 * FROM_BASE64, TO_BASE32 / FROM_BASE32, TO_HEX / FROM_HEX, SAFE_CONVERT_BYTES_TO_STRING,
 * NORMALIZE / NORMALIZE_AND_CASEFOLD and SOUNDEX (a phonetic encoding). Decoding errors carry
 * ZetaSQL's texts (`Failed to decode invalid base64 string`).
 */
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnLowering, FnTable } from './registry.js';
import { enumName, fail, NORMALIZE_MODES } from './util.js';

// ---------- encodings ----------

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/**
 * UPPER/LOWER of BYTES: only the ASCII letters change, byte by byte; other bytes (UTF-8 or not)
 * stay (https://cloud.google.com/bigquery/docs/reference/standard-sql/string_functions#upper).
 */
defineUdf('bq_bytes_case', ['BLOB', 'BOOLEAN'], 'BLOB', (b, upper) =>
  Uint8Array.from(b, (x) => (upper ? (x >= 0x61 && x <= 0x7a ? x - 32 : x) : x >= 0x41 && x <= 0x5a ? x + 32 : x)),
);

defineUdf('bq_to_base32', ['BLOB'], 'VARCHAR', (b) => {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const x of b) {
    acc = (acc << 8) | x;
    bits += 8;
    while (bits >= 5) {
      out += B32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += B32[(acc << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
});

defineUdf('bq_from_base32', ['VARCHAR'], 'BLOB', (s) => {
  const t = s.replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of t) {
    const v = B32.indexOf(ch);
    if (v < 0) return null;
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 255);
      bits -= 8;
      acc &= (1 << bits) - 1;
    }
  }
  return new Uint8Array(out);
});

/**
 * Base64 text → bytes under the rules of ZetaSQL's FROM_BASE64 (absl's `Base64Unescape`), which
 * CAST(… AS BYTES FORMAT 'BASE64'/'BASE64M') shares: white space anywhere is skipped; the
 * standard alphabet only (`+` and `/`); padding, `=` or `.`, is optional, but when present it must
 * complete the last group of 4 (2 characters after a 2-character tail, 1 after a 3-character tail);
 * a 1-character tail is invalid; nothing may follow the padding. Checked against the reference
 * evaluator (test/differential/families-text.ts): `YWJ` → "ab", `YW..` → "a", `YWJj=` and `YQ=`
 * are invalid.
 * @returns the bytes, or null when the text is not valid base64.
 */
export function decodeBase64(text: string): Uint8Array | null {
  const m = /^([A-Za-z0-9+/]*)([=.]*)$/.exec(text.replace(/\s+/g, ''));
  if (!m) return null;
  const tail = m[1]!.length % 4;
  const pad = m[2]!.length;
  if (tail === 1 || (pad > 0 && pad + tail !== 4)) return null;
  return new Uint8Array(Buffer.from(m[1]!, 'base64'));
}

defineUdf('bq_from_base64', ['VARCHAR'], 'BLOB', decodeBase64);

defineUdf('bq_utf8_lossy', ['BLOB'], 'VARCHAR', (b) => new TextDecoder('utf-8', { fatal: false }).decode(b));

// ---------- normalisation, SOUNDEX, INITCAP ----------

defineUdf('bq_normalize', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (s, mode) => s.normalize(mode as 'NFC'));
defineUdf('bq_normalize_casefold', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (s, mode) =>
  s.normalize(mode as 'NFC').toUpperCase().toLowerCase().normalize(mode as 'NFC'),
);

const SOUNDEX_CODE: Record<string, string> = {};
for (const [letters, code] of [['AEIOUY', '0'], ['HW', ''], ['BFPV', '1'], ['CGJKQSXZ', '2'], ['DT', '3'], ['L', '4'], ['MN', '5'], ['R', '6']])
  for (const ch of letters) SOUNDEX_CODE[ch] = code;

/** SOUNDEX: non-Latin characters are skipped; H and W do not separate equal codes; the first letter as written. */
defineUdf('bq_soundex', ['VARCHAR'], 'VARCHAR', (s) => {
  // The first letter keeps its case (ZetaSQL's reference evaluator: SOUNDEX('apple') = 'a140').
  const letters = [...s].filter((ch) => /^[A-Za-z]$/.test(ch));
  if (!letters.length) return '';
  let out = letters[0]!;
  let last = SOUNDEX_CODE[out.toUpperCase()];
  for (const ch of letters.slice(1).map((l) => l.toUpperCase())) {
    const code = SOUNDEX_CODE[ch];
    if (code === '') continue;
    if (code !== '0' && code !== last) out += code;
    last = code;
    if (out.length === 4) break;
  }
  return out.padEnd(4, '0');
});

function normalize(c: FnCall, fold: boolean): string {
  const mode = c.args[1] === undefined ? 'NFC' : enumName(c.args[1], NORMALIZE_MODES);
  return `${fold ? 'bq_normalize_casefold' : 'bq_normalize'}(${c.args[0]}, '${mode}')`;
}

/**
 * FROM_HEX; an odd number of digits reads as if led by 0. Error text as ZetaSQL's (the reference
 * evaluator): `Failed to decode invalid hexadecimal string due to character at offset 1: 0g` —
 * the offset of the first character that is not a hex digit (a byte offset in ZetaSQL; every
 * character before it is an ASCII digit, so the character offset is the same).
 */
function fromHex(c: FnCall): string {
  const s = c.args[0];
  const offset = `CAST(strpos(${s}, regexp_extract(${s}, '[^0-9a-fA-F]')) - 1 AS VARCHAR)`;
  const bad = fail(c, `'Failed to decode invalid hexadecimal string due to character at offset ' || ${offset} || ': ' || ${s}`);
  return `CASE WHEN NOT regexp_full_match(${s}, '[0-9a-fA-F]*') THEN ${bad} ELSE unhex(CASE WHEN length(${s}) % 2 = 1 THEN '0' || ${s} ELSE ${s} END) END`;
}

/** A decoding UDF that answers NULL for invalid text, with `message` (a SQL string expression over the text) raised instead. */
const decodeOrFail = (udf: string, message: (s: string) => string) => (c: FnCall) => {
  const s = c.args[0];
  return `CASE WHEN ${s} IS NOT NULL AND ${udf}(${s}) IS NULL THEN ${fail(c, message(s))} ELSE ${udf}(${s}) END`;
};

/**
 * FROM_BASE64(string) → BYTES (decodeBase64's rules); invalid text fails with ZetaSQL's text, which
 * carries no input (the reference evaluator: `Failed to decode invalid base64 string`).
 */
export const fromBase64: FnLowering = decodeOrFail('bq_from_base64', () => `'Failed to decode invalid base64 string'`);

/** The encoding and normalisation functions of the string_functions page. */
export const STRING_ENCODING_FUNCTIONS: FnTable = {
  to_base64: (c) => `to_base64(${c.args[0]})`,
  from_base64: fromBase64,
  to_base32: (c) => `bq_to_base32(${c.args[0]})`,
  from_base32: decodeOrFail('bq_from_base32', (s) => `'Failed to decode invalid base32 string: ' || ${s}`),
  to_hex: (c) => `lower(hex(${c.args[0]}))`,
  from_hex: fromHex,
  safe_convert_bytes_to_string: (c) => `bq_utf8_lossy(${c.args[0]})`,
  normalize: (c) => normalize(c, false),
  normalize_and_casefold: (c) => normalize(c, true),
  soundex: (c) => `bq_soundex(${c.args[0]})`,
};
