/**
 * String functions (BigQuery "String functions"), regular expressions: REGEXP_CONTAINS,
 * REGEXP_EXTRACT / REGEXP_SUBSTR, REGEXP_EXTRACT_ALL, REGEXP_REPLACE, REGEXP_INSTR (RE2 in both
 * BigQuery and DuckDB).
 *
 * REGEXP_EXTRACT* return the first capturing group when the pattern has one (the pattern must be
 * a constant for that to be known; a non-constant pattern is treated as group-less), and NULL
 * when nothing matches. An optional group that did not participate gives '' here where BigQuery
 * gives NULL (DuckDB cannot tell the two apart).
 */
import { BigQueryError } from '../errors/errors.js';
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { fail, nullIfAnyNull, stringLiteral, unsupportedForm } from './util.js';

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

/** The regular-expression functions of the string_functions page. */
export const STRING_REGEXP_FUNCTIONS: FnTable = {
  regexp_contains: (c) => (noBytes(c), `regexp_matches(${c.args[0]}, ${c.args[1]})`),
  regexp_extract: regexpExtract,
  regexp_substr: regexpExtract,
  regexp_extract_all: regexpExtractAll,
  regexp_replace: (c) => (noBytes(c), `regexp_replace(${c.args[0]}, ${c.args[1]}, ${c.args[2]}, 'g')`),
  regexp_instr: regexpInstr,
};
