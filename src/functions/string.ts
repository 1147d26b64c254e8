/**
 * String and bytes functions (GoogleSQL "String functions"), : lengths, case (INITCAP
 * included), substrings, searching, padding, trimming, splitting, code points, EDIT_DISTANCE.
 * Regular expressions are in string-regexp.ts, encodings and normalisation in string-encoding.ts,
 * FORMAT in string-format.ts.
 *
 * STRING positions count Unicode code points (DuckDB's length/substring do too). BYTES arguments
 * are handled through their hex text (2 characters per byte) wherever a byte position can never
 * fall between two hex digits; the rest use small UDFs.
 */
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { fail, intLiteral, nullIfAnyNull, q, unsupportedForm } from './util.js';
import { BigQueryError } from '../errors/errors.js';
import { MAX_STRING_FUNCTION_OUTPUT_BYTES } from '../config/limits.js';

const isBytes = (c: FnCall, i = 0) => c.argTypes[i]?.kind === 'BYTES';
const hex = (b: string) => `hex(${b})`;

/** Length in units (code points for STRING, bytes for BYTES). */
const unitLen = (c: FnCall, x: string) => (isBytes(c) ? `octet_length(${x})` : `length(${x})`);

/** SUBSTR(value, position[, length]) with BigQuery's position rules. */
function substr(c: FnCall): string {
  const [s, pos, len] = c.args;
  const n = unitLen(c, s);
  // Literal arguments (SUBSTR(x, 1, 2)) settle the position's CASE and the length's check here.
  const litPos = intLiteral(pos);
  const p = litPos !== undefined && litPos > 0n ? pos! : `(CASE WHEN ${pos} > 0 THEN ${pos} WHEN ${pos} = 0 THEN 1 ELSE greatest(${n} + ${pos} + 1, 1) END)`;
  const litLen = intLiteral(len);
  const neg = fail(c, `'Third argument in SUBSTR() cannot be negative'`);
  if (!isBytes(c) && len !== undefined && litLen !== undefined && litLen >= 0n) return nullIfAnyNull(c.args, `substring(${s}, ${p}, least(${len}, ${n}))`);
  if (isBytes(c)) {
    const body = len === undefined ? `unhex(substring(${hex(s)}, 2 * ${p} - 1))` : `unhex(substring(${hex(s)}, 2 * ${p} - 1, 2 * least(${len}, ${n})))`;
    return nullIfAnyNull(c.args, len === undefined ? body : `CASE WHEN ${len} < 0 THEN ${neg} ELSE ${body} END`);
  }
  if (len === undefined) return `substring(${s}, ${p})`;
  return nullIfAnyNull(c.args, `CASE WHEN ${len} < 0 THEN ${neg} ELSE substring(${s}, ${p}, least(${len}, ${n})) END`);
}

/** LEFT / RIGHT. */
function leftRight(which: 'left' | 'right') {
  return (c: FnCall) => {
    const [s, k] = c.args;
    const neg = fail(c, `'Second argument in ${which.toUpperCase()}() cannot be negative'`);
    const body = isBytes(c) ? `unhex(${which}(${hex(s)}, 2 * least(${k}, octet_length(${s}))))` : `${which}(${s}, least(${k}, length(${s})))`;
    return nullIfAnyNull(c.args, `CASE WHEN ${k} < 0 THEN ${neg} ELSE ${body} END`);
  };
}

/**
 * 1-based start positions (in units) of every occurrence of `sub` in `s`, overlapping ones
 * included, as a DuckDB list.
 */
function occurrences(c: FnCall, s: string, sub: string): string {
  if (isBytes(c)) return `list_filter(range(1, octet_length(${s}) - octet_length(${sub}) + 2), i -> substring(hex(${s}), 2 * i - 1, 2 * octet_length(${sub})) = hex(${sub}))`;
  return `list_filter(range(1, length(${s}) - length(${sub}) + 2), i -> substring(${s}, i, length(${sub})) = ${sub})`;
}

function strpos(c: FnCall): string {
  const [s, sub] = c.args;
  if (!isBytes(c)) return `instr(${s}, ${sub})`;
  return nullIfAnyNull(c.args, `coalesce(list_min(${occurrences(c, s, sub)}), 0)`);
}

/** INSTR(value, subvalue[, position[, occurrence]]). */
function instr(c: FnCall): string {
  const [s, sub] = c.args;
  const pos = c.args[2] ?? '1';
  const occ = c.args[3] ?? '1';
  const all = occurrences(c, s, sub);
  const n = unitLen(c, s);
  const forward = `coalesce(list_extract(list_filter(${all}, i -> i >= ${pos}), ${occ}), 0)`;
  // Backward from position n + pos + 1; an empty subvalue also matches one past it (ZetaSQL:
  // INSTR('abcd', '', -1) = 5, found by the differential suite).
  const bound = `${n} + ${pos} + CASE WHEN ${unitLen(c, sub)} = 0 THEN 2 ELSE 1 END`;
  const backward = `coalesce(list_extract(list_reverse(list_filter(${all}, i -> i <= ${bound})), ${occ}), 0)`;
  return nullIfAnyNull(c.args, `CASE WHEN ${pos} = 0 THEN ${fail(c, `'The position argument of INSTR cannot be 0'`)} WHEN ${occ} <= 0 THEN ${fail(c, `'The occurrence argument of INSTR must be positive'`)} WHEN ${pos} > 0 THEN ${forward} ELSE ${backward} END`);
}

/**
 * LPAD / RPAD(value, length[, pattern]). A negative length or an empty pattern is an error even
 * when no padding is needed (BigQuery docs, LPAD; texts of ZetaSQL's string functions).
 */
function pad(which: 'lpad' | 'rpad') {
  return (c: FnCall) => {
    const [s, len] = c.args;
    const neg = fail(c, `'Second argument (output size) for LPAD/RPAD cannot be negative'`);
    const empty = fail(c, `'Third argument (pad pattern) for LPAD/RPAD cannot be empty'`);
    // BigQuery refuses outputs over 1 MB (src/config/limits.ts) instead of building them.
    const big = `WHEN ${len} > ${MAX_STRING_FUNCTION_OUTPUT_BYTES} THEN ${fail(c, q(BigQueryError.outputTooLarge('LPAD/RPAD').message))}`;
    if (isBytes(c)) {
      const p = c.args[2] ?? `'\\x20'::BLOB`;
      const body = `unhex(${which}(hex(${s}), CAST(2 * ${len} AS INTEGER), hex(${p})))`;
      return nullIfAnyNull([s, len, p], `CASE WHEN ${len} < 0 THEN ${neg} ${big} WHEN octet_length(${p}) = 0 THEN ${empty} ELSE ${body} END`);
    }
    const p = c.args[2] ?? `' '`;
    return nullIfAnyNull([s, len, p], `CASE WHEN ${len} < 0 THEN ${neg} ${big} WHEN ${p} = '' THEN ${empty} ELSE ${which}(${s}, CAST(${len} AS INTEGER), ${p}) END`);
  };
}

/** REPEAT(value, n): an output over 1 MB is BigQuery's error, checked before it is built. */
function repeat(c: FnCall): string {
  const [s, n] = c.args;
  const neg = fail(c, `'Second argument in REPEAT() cannot be negative'`);
  const body = isBytes(c) ? `unhex(repeat(hex(${s}), ${n}))` : `repeat(${s}, ${n})`;
  const big = fail(c, q(BigQueryError.outputTooLarge('REPEAT').message));
  const empty = isBytes(c) ? `''::BLOB` : `''`;
  const size = isBytes(c) ? `octet_length(${s})` : `strlen(${s})`;
  return nullIfAnyNull(
    c.args,
    `CASE WHEN ${n} < 0 THEN ${neg} WHEN ${size} = 0 OR ${n} = 0 THEN ${empty} WHEN ${n} > ${MAX_STRING_FUNCTION_OUTPUT_BYTES} // ${size} THEN ${big} ELSE ${body} END`,
  );
}

function reverse(c: FnCall): string {
  const s = c.args[0];
  if (isBytes(c)) return `unhex(array_to_string(list_reverse(list_transform(range(0, octet_length(${s})), i -> substring(hex(${s}), 2 * i + 1, 2))), ''))`;
  return `array_to_string(list_reverse(string_split(${s}, '')), '')`;
}

/** Whitespace removed by TRIM/LTRIM/RTRIM without a character set. */
const WHITESPACE = `' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || chr(133) || chr(160) || chr(5760) || chr(8192) || chr(8193) || chr(8194) || chr(8195) || chr(8196) || chr(8197) || chr(8198) || chr(8199) || chr(8200) || chr(8201) || chr(8202) || chr(8232) || chr(8233) || chr(8239) || chr(8287) || chr(12288)`;

function trim(which: 'trim' | 'ltrim' | 'rtrim') {
  return (c: FnCall) => {
    const [s, set] = c.args;
    if (isBytes(c)) {
      if (set === undefined) unsupportedForm(c, 'of BYTES needs the bytes to remove');
      return `bq_bytes_trim(${s}, ${set}, ${which === 'trim' ? 3 : which === 'ltrim' ? 1 : 2})`;
    }
    return `${which}(${s}, ${set ?? `(${WHITESPACE})`})`;
  };
}

defineUdf('bq_bytes_trim', ['BLOB', 'BLOB', 'BIGINT'], 'BLOB', (b, set, mode) => {
  const drop = new Set(set);
  let i = 0;
  let j = b.length;
  if (mode & 1n) while (i < j && drop.has(b[i])) i++;
  if (mode & 2n) while (j > i && drop.has(b[j - 1])) j--;
  return b.slice(i, j);
});

defineUdf('bq_bytes_replace', ['BLOB', 'BLOB', 'BLOB'], 'BLOB', (b, from, to) => {
  if (from.length === 0) return b;
  const out: number[] = [];
  for (let i = 0; i < b.length; ) {
    if (i + from.length <= b.length && from.every((x, k) => b[i + k] === x)) {
      out.push(...to);
      i += from.length;
    } else out.push(b[i++]);
  }
  return new Uint8Array(out);
});

function replace(c: FnCall): string {
  const [s, from, to] = c.args;
  if (isBytes(c)) return `bq_bytes_replace(${s}, ${from}, ${to})`;
  return `CASE WHEN ${from} = '' THEN (CASE WHEN ${to} IS NULL THEN NULL ELSE ${s} END) ELSE replace(${s}, ${from}, ${to}) END`;
}

/**
 * SPLIT(value[, delimiter]): NULL when either is NULL (DuckDB's string_split keeps the whole text
 * for a NULL delimiter); an empty delimiter splits into characters (bytes). BYTES are split over
 * their hex digits with a space after each byte (`2C 61 `), so that a delimiter matches only at
 * byte boundaries, then decoded back. Checked against the ZetaSQL reference evaluator
 * (`SPLIT(b',a,,b,', b',')` = ['', 'a', '', 'b', '']).
 */
function split(c: FnCall): string {
  const [s, d = `','`] = c.args;
  if (!isBytes(c)) return `CASE WHEN ${d} IS NULL THEN NULL ELSE string_split(${s}, ${d}) END`;
  const spaced = (b: string) => `regexp_replace(hex(${b}), '(..)', '\\1 ', 'g')`;
  const eachByte = `list_transform(range(0, octet_length(${s})), i -> unhex(substring(hex(${s}), 2 * i + 1, 2)))`;
  return `CASE WHEN ${s} IS NULL OR ${d} IS NULL THEN NULL WHEN octet_length(${d}) = 0 AND octet_length(${s}) > 0 THEN ${eachByte} ELSE list_transform(string_split(${spaced(s)}, ${spaced(d)}), p -> unhex(replace(p, ' ', ''))) END`;
}

/** TO_CODE_POINTS: code points of a STRING, byte values of BYTES. */
function toCodePoints(c: FnCall): string {
  const s = c.args[0];
  if (isBytes(c)) return `list_transform(range(0, octet_length(${s})), i -> CAST(('0x' || substring(hex(${s}), 2 * i + 1, 2)) AS BIGINT))`;
  return `list_transform(range(1, length(${s}) + 1), i -> CAST(unicode(substring(${s}, i, 1)) AS BIGINT))`;
}

function codePointsToString(c: FnCall): string {
  const a = c.args[0];
  const bad = fail(c, `'Invalid code point: ' || CAST(list_filter(${a}, x -> x < 0 OR x > 1114111 OR (x BETWEEN 55296 AND 57343))[1] AS VARCHAR)`);
  return `CASE WHEN ${a} IS NULL OR list_contains(list_transform(${a}, x -> x IS NULL), true) THEN NULL WHEN len(list_filter(${a}, x -> x < 0 OR x > 1114111 OR (x BETWEEN 55296 AND 57343))) > 0 THEN ${bad} ELSE array_to_string(list_transform(${a}, x -> CASE WHEN x = 0 THEN chr(0) ELSE chr(CAST(x AS INTEGER)) END), '') END`;
}

function codePointsToBytes(c: FnCall): string {
  const a = c.args[0];
  const bad = fail(c, `'Invalid ASCII value: ' || CAST(list_filter(${a}, x -> x < 0 OR x > 255)[1] AS VARCHAR)`);
  return `CASE WHEN ${a} IS NULL OR list_contains(list_transform(${a}, x -> x IS NULL), true) THEN NULL WHEN len(list_filter(${a}, x -> x < 0 OR x > 255)) > 0 THEN ${bad} ELSE unhex(array_to_string(list_transform(${a}, x -> printf('%02x', x)), '')) END`;
}

/** UPPER/LOWER. UPPER uses full case mapping like ZetaSQL (ICU): `ß` → `SS` (DuckDB gives `ẞ`). */
const caseFn = (fn: 'upper' | 'lower') => (c: FnCall) =>
  isBytes(c) ? `bq_bytes_case(${c.args[0]}, ${fn === 'upper'})` : fn === 'upper' ? `upper(replace(${c.args[0]}, 'ß', 'SS'))` : `${fn}(${c.args[0]})`;

/**
 * ASCII(STRING): the first character's code; a non-ASCII first character is an error
 * (ZetaSQL string functions: `Argument to ASCII is not a structurally valid ASCII string: '…'`).
 */
function asciiFn(c: FnCall): string {
  const s = c.args[0];
  if (isBytes(c)) return `CASE WHEN octet_length(${s}) = 0 THEN 0 ELSE CAST(('0x' || left(hex(${s}), 2)) AS BIGINT) END`;
  const err = fail(c, `'Argument to ASCII is not a structurally valid ASCII string: ''' || ${s} || ''''`);
  return `CASE WHEN ascii(${s}) > 127 THEN ${err} ELSE CAST(ascii(${s}) AS BIGINT) END`;
}

/** Levenshtein distance of two sequences (code points or bytes). */
function levenshtein<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
defineUdf('bq_edit_distance', ['VARCHAR', 'VARCHAR'], 'BIGINT', (a, b) => BigInt(levenshtein([...a], [...b])));
defineUdf('bq_edit_distance_bytes', ['BLOB', 'BLOB'], 'BIGINT', (a, b) => BigInt(levenshtein(a, b)));

/**
 * EDIT_DISTANCE(a, b[, max_distance => n]): Levenshtein distance over Unicode characters (STRING)
 * or bytes (BYTES), capped at max_distance (string_functions#edit_distance).
 */
function editDistance(c: FnCall): string {
  const d = `bq_edit_distance${c.argTypes[0]?.kind === 'BYTES' ? '_bytes' : ''}(${c.args[0]}, ${c.args[1]})`;
  const max = c.args[2];
  if (max === undefined) return d;
  return `CASE WHEN ${max} < 0 THEN ${fail(c, `'max_distance must be non-negative, but is ' || CAST(${max} AS VARCHAR)`)} ELSE least(${d}, ${max}) END`;
}

const INITCAP_DELIMS = ' \t\n\r\f\v[](){}/|\\<>!?@"^#$&~_,.:;*%+-';
defineUdf('bq_initcap', ['VARCHAR', 'VARCHAR'], 'VARCHAR', (s, delims) => {
  const d = new Set([...delims]);
  let out = '';
  let start = true;
  for (const ch of s) {
    // A delimiter is kept as written (ZetaSQL's reference evaluator: INITCAP('aEb', 'E') = 'AEB').
    // Simple (one-to-one) case mapping, as ZetaSQL's ICU title-casing: `ß` stays `ß`, not `SS`.
    const up = ch.toUpperCase();
    const delimiter = d.has(ch);
    out += delimiter ? ch : start ? ([...up].length === 1 ? up : ch) : ch.toLowerCase();
    start = delimiter;
  }
  return out;
});

/** The string_functions page: lengths, case, substrings, searching, padding, trimming, splitting, code points, EDIT_DISTANCE. */
export const STRING_FUNCTIONS: FnTable = {
  length: (c) => (isBytes(c) ? `octet_length(${c.args[0]})` : `length(${c.args[0]})`),
  char_length: (c) => `length(${c.args[0]})`,
  character_length: (c) => `length(${c.args[0]})`,
  byte_length: (c) => (isBytes(c) ? `octet_length(${c.args[0]})` : `strlen(${c.args[0]})`),
  octet_length: (c) => (isBytes(c) ? `octet_length(${c.args[0]})` : `strlen(${c.args[0]})`),
  upper: caseFn('upper'),
  lower: caseFn('lower'),
  substr,
  substring: substr,
  left: leftRight('left'),
  right: leftRight('right'),
  strpos,
  instr,
  lpad: pad('lpad'),
  rpad: pad('rpad'),
  repeat,
  reverse,
  trim: trim('trim'),
  ltrim: trim('ltrim'),
  rtrim: trim('rtrim'),
  replace,
  starts_with: (c) => (isBytes(c) ? `starts_with(hex(${c.args[0]}), hex(${c.args[1]}))` : `starts_with(${c.args[0]}, ${c.args[1]})`),
  ends_with: (c) => (isBytes(c) ? `ends_with(hex(${c.args[0]}), hex(${c.args[1]}))` : `ends_with(${c.args[0]}, ${c.args[1]})`),
  split,
  to_code_points: toCodePoints,
  code_points_to_string: codePointsToString,
  code_points_to_bytes: codePointsToBytes,
  ascii: asciiFn,
  unicode: (c) => `CASE WHEN ${c.args[0]} = '' THEN 0 ELSE CAST(unicode(${c.args[0]}) AS BIGINT) END`,
  chr: (c) => {
    const n = c.args[0];
    const bad = fail(c, `'Invalid code point: ' || CAST(${n} AS VARCHAR)`);
    return `CASE WHEN ${n} = 0 THEN '' WHEN ${n} < 0 OR ${n} > 1114111 OR ${n} BETWEEN 55296 AND 57343 THEN ${bad} ELSE chr(CAST(${n} AS INTEGER)) END`;
  },
  translate: (c) => `translate(${c.args.join(', ')})`,
  collate: (c) => c.args[0],
  edit_distance: editDistance,
  initcap: (c) => `bq_initcap(${c.args[0]}, ${c.args[1] ?? `'${INITCAP_DELIMS.replace(/'/g, "''")}'`})`,
};
