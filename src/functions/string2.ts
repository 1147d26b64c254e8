/**
 * String functions, part 2: encodings (base64/32/hex), regular expressions (RE2 in both
 * BigQuery and DuckDB), Unicode normalisation, SOUNDEX, INITCAP, SAFE_CONVERT_BYTES_TO_STRING.
 *
 * REGEXP_EXTRACT* return the first capturing group when the pattern has one (the pattern must be
 * a constant for that to be known; a non-constant pattern is treated as group-less), and NULL
 * when nothing matches. An optional group that did not participate gives '' here where BigQuery
 * gives NULL (DuckDB cannot tell the two apart).
 */
import { BigQueryError } from '../errors/errors.js';
import { defineUdf } from './prelude.js';
import { registerFunctions, type FnCall, type FnTable } from './registry.js';
import { enumName, fail, NORMALIZE_MODES, nullIfAnyNull, stringLiteral, unsupportedForm } from './util.js';

/** Number of capturing groups of an RE2 pattern. */
export function countGroups(re: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < re.length; i++) {
    const ch = re[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      if (re[i + 1] === '^') i++;
      if (re[i + 1] === ']') i++;
      continue;
    }
    if (ch === '(') {
      if (re[i + 1] !== '?') n++;
      else if (re.startsWith('(?P<', i) || (re.startsWith('(?<', i) && re[i + 3] !== '=' && re[i + 3] !== '!')) n++;
    }
  }
  return n;
}

/** The capture group to extract (0 or 1), raising BigQuery's error for more than one group. */
function groupOf(c: FnCall, i = 1): number {
  const re = stringLiteral(c.args[i]);
  if (re === undefined) return 0;
  const n = countGroups(re);
  if (n > 1) throw BigQueryError.regexpTooManyGroups();
  return n;
}

const noBytes = (c: FnCall) => {
  if (c.argTypes[0]?.kind === 'BYTES') unsupportedForm(c, 'of BYTES');
};

/**
 * TRUE when the first match of `re` in `s` leaves capture group 1 unset (`(z)?b` on 'ab'), FALSE
 * when it sets it, NULL when JavaScript cannot compile the RE2 pattern. DuckDB's regexp_extract
 * gives '' for an unset group, where BigQuery gives NULL (string_functions#regexp_extract:
 * `REGEXP_EXTRACT('ab', '(z)?b')` → NULL); both engines pick the leftmost-first match.
 */
defineUdf('bq_regexp_group_unset', ['VARCHAR', 'VARCHAR'], 'BOOLEAN', (s, re) => {
  let rx: RegExp;
  try {
    rx = new RegExp(re, 'u');
  } catch {
    return null;
  }
  const m = rx.exec(s);
  return m ? m[1] === undefined : null;
});

/** REGEXP_EXTRACT / REGEXP_SUBSTR(value, regexp[, position[, occurrence]]). */
function regexpExtract(c: FnCall): string {
  noBytes(c);
  const [s, re, pos, occ] = c.args;
  const g = groupOf(c);
  if (pos === undefined) {
    const r = `regexp_extract(${s}, ${re}, ${g})`;
    const value = g === 1 ? `CASE WHEN ${r} = '' AND bq_regexp_group_unset(${s}, ${re}) THEN NULL ELSE ${r} END` : r;
    return `CASE WHEN regexp_matches(${s}, ${re}) THEN ${value} END`;
  }
  const tail = `substring(${s}, ${pos})`;
  const all = `regexp_extract_all(${tail}, ${re}, ${g})`;
  const body = `CASE WHEN ${pos} > length(${s}) + 1 OR NOT regexp_matches(${tail}, ${re}) THEN NULL ELSE list_extract(${all}, ${occ ?? 1}) END`;
  const checks = `CASE WHEN ${pos} <= 0 THEN ${fail(c, `'Position parameter in REGEXP_EXTRACT must be positive'`)} ${occ ? `WHEN ${occ} <= 0 THEN ${fail(c, `'Occurrence parameter in REGEXP_EXTRACT must be positive'`)} ` : ''}ELSE ${body} END`;
  return nullIfAnyNull(c.args, checks);
}

function regexpExtractAll(c: FnCall): string {
  noBytes(c);
  const [s, re] = c.args;
  return `regexp_extract_all(${s}, ${re}, ${groupOf(c)})`;
}

/** REGEXP_INSTR(value, regexp[, position[, occurrence[, occurrence_position]]]). */
function regexpInstr(c: FnCall): string {
  noBytes(c);
  const [s, re] = c.args;
  const pos = c.args[2] ?? '1';
  const occ = c.args[3] ?? '1';
  const end = c.args[4] ?? '0';
  const tail = `substring(${s}, ${pos})`;
  const pieces = `regexp_split_to_array(${tail}, ${re})`;
  const matches = `regexp_extract_all(${tail}, ${re})`;
  // start of match k (1-based) within tail = sum of lengths of pieces[1..k] and matches[1..k-1] + 1
  const start = `(list_sum(list_transform(range(1, ${occ} + 1), i -> length(list_extract(${pieces}, i)))) + coalesce(list_sum(list_transform(range(1, ${occ}), i -> length(list_extract(${matches}, i)))), 0) + 1)`;
  const at = `${start} + ${pos} - 1 + CASE WHEN ${end} = 1 THEN length(list_extract(${matches}, ${occ})) ELSE 0 END`;
  const body = `CASE WHEN ${pos} > length(${s}) OR len(${matches}) < ${occ} THEN 0 ELSE ${at} END`;
  return nullIfAnyNull([s, re, pos, occ, end], `CASE WHEN ${pos} <= 0 THEN ${fail(c, `'Position parameter in REGEXP_INSTR must be positive'`)} WHEN ${occ} <= 0 THEN ${fail(c, `'Occurrence parameter in REGEXP_INSTR must be positive'`)} ELSE CAST(${body} AS BIGINT) END`);
}

// ---------- encodings ----------

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
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

defineUdf('bq_from_base64', ['VARCHAR'], 'BLOB', (s) => {
  const t = s.replace(/[\s]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.replace(/=+$/, '').length % 4 === 1) return null;
  return new Uint8Array(Buffer.from(t, 'base64'));
});

defineUdf('bq_utf8_lossy', ['BLOB'], 'VARCHAR', (b) => new TextDecoder('utf-8', { fatal: false }).decode(b));

// ---------- normalisation, SOUNDEX, INITCAP ----------

defineUdf('bq_normalize', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (s, mode) => s.normalize(mode as 'NFC'));
defineUdf('bq_normalize_casefold', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (s, mode) =>
  s.normalize(mode as 'NFC').toUpperCase().toLowerCase().normalize(mode as 'NFC'),
);

const SOUNDEX_CODE: Record<string, string> = {};
for (const [letters, code] of [['AEIOUY', '0'], ['HW', ''], ['BFPV', '1'], ['CGJKQSXZ', '2'], ['DT', '3'], ['L', '4'], ['MN', '5'], ['R', '6']])
  for (const ch of letters) SOUNDEX_CODE[ch] = code;

/** SOUNDEX: non-Latin characters are skipped; H and W do not separate equal codes. */
defineUdf('bq_soundex', ['VARCHAR'], 'VARCHAR', (s) => {
  const letters = [...s.toUpperCase()].filter((ch) => ch >= 'A' && ch <= 'Z');
  if (!letters.length) return '';
  let out = letters[0];
  let last = SOUNDEX_CODE[letters[0]];
  for (const ch of letters.slice(1)) {
    const code = SOUNDEX_CODE[ch];
    if (code === '') continue;
    if (code !== '0' && code !== last) out += code;
    last = code;
    if (out.length === 4) break;
  }
  return out.padEnd(4, '0');
});

const INITCAP_DELIMS = ' \t\n\r\f\v[](){}/|\\<>!?@"^#$&~_,.:;*%+-';
defineUdf('bq_initcap', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (s, delims) => {
  const d = new Set([...delims]);
  let out = '';
  let start = true;
  for (const ch of s) {
    // Simple (one-to-one) case mapping, as ZetaSQL's ICU title-casing: `ß` stays `ß`, not `SS`.
    const up = ch.toUpperCase();
    out += start ? ([...up].length === 1 ? up : ch) : ch.toLowerCase();
    start = d.has(ch);
  }
  return out;
});

function normalize(c: FnCall, fold: boolean): string {
  const mode = c.args[1] === undefined ? 'NFC' : enumName(c.args[1], NORMALIZE_MODES);
  return `${fold ? 'bq_normalize_casefold' : 'bq_normalize'}(${c.args[0]}, '${mode}')`;
}

function fromHex(c: FnCall): string {
  const s = c.args[0];
  const bad = fail(c, `'Failed to decode invalid hexadecimal string: ' || ${s}`);
  return `CASE WHEN NOT regexp_full_match(${s}, '[0-9a-fA-F]*') THEN ${bad} ELSE unhex(CASE WHEN length(${s}) % 2 = 1 THEN '0' || ${s} ELSE ${s} END) END`;
}

const decodeOrFail = (udf: string, what: string) => (c: FnCall) => {
  const s = c.args[0];
  return `CASE WHEN ${s} IS NOT NULL AND ${udf}(${s}) IS NULL THEN ${fail(c, `'Failed to decode invalid ${what} string: ' || ${s}`)} ELSE ${udf}(${s}) END`;
};

const TABLE: FnTable = {
  regexp_contains: (c) => (noBytes(c), `regexp_matches(${c.args[0]}, ${c.args[1]})`),
  regexp_extract: regexpExtract,
  regexp_substr: regexpExtract,
  regexp_extract_all: regexpExtractAll,
  regexp_replace: (c) => (noBytes(c), `regexp_replace(${c.args[0]}, ${c.args[1]}, ${c.args[2]}, 'g')`),
  regexp_instr: regexpInstr,
  to_base64: (c) => `to_base64(${c.args[0]})`,
  from_base64: decodeOrFail('bq_from_base64', 'base64'),
  to_base32: (c) => `bq_to_base32(${c.args[0]})`,
  from_base32: decodeOrFail('bq_from_base32', 'base32'),
  to_hex: (c) => `lower(hex(${c.args[0]}))`,
  from_hex: fromHex,
  safe_convert_bytes_to_string: (c) => `bq_utf8_lossy(${c.args[0]})`,
  normalize: (c) => normalize(c, false),
  normalize_and_casefold: (c) => normalize(c, true),
  soundex: (c) => `bq_soundex(${c.args[0]})`,
  initcap: (c) => `bq_initcap(${c.args[0]}, ${c.args[1] ?? `'${INITCAP_DELIMS.replace(/'/g, "''")}'`})`,
};

registerFunctions(TABLE);
