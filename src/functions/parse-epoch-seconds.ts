/**
 * The `%s` parse element (seconds since 1970-01-01 00:00:00 UTC) of PARSE_TIMESTAMP and
 * PARSE_DATETIME, which DuckDB's strptime lacks. Behaviour of the ZetaSQL reference evaluator:
 * - `%s` is an optional `-` and digits, at most 12 characters with the sign, never negative zero
 *   (`-0`, `-00`); otherwise 'Failed to parse input string "…"'. The input's leading and trailing
 *   whitespace is skipped, a run of format whitespace matches any whitespace, other text literally.
 * - The instant ignores the time zone argument (PARSE_TIMESTAMP('%s', '17', 'America/New_York') =
 *   1970-01-01 00:00:17 UTC); PARSE_DATETIME gives its UTC civil time; a repeated `%s` keeps the last.
 * - Outside 0001-01-01 .. 9999-12-31 23:59:59 UTC: 'Invalid result from parsing function'.
 * - PARSE_DATE / PARSE_TIME: 'Invalid format: %s is not allowed for the DATE type.' (TIME type), for
 *   a non-NULL input.
 * `%s` with other date or time elements (which the reference parses and then ignores) is refused.
 */
import { BigQueryError } from '../errors/errors.js';
import type { FnCall } from './registry.js';
import { fail, q } from './util.js';

const MIN_SECONDS = -62135596800n;
const MAX_SECONDS = 253402300799n;

/** Regex for format `fmt` whose only elements are %s, %%, %n, %t, and the number of %s groups. */
function formatRegex(fmt: string): { regex: string; groups: number } {
  let regex = '^\\s*';
  let groups = 0;
  for (const part of fmt.split(/(%.|\s+)/)) {
    if (part === '') continue;
    if (part === '%s') {
      regex += '(-?[0-9]+)';
      groups++;
    } else if (part === '%%') regex += '%';
    else if (part === '%n' || part === '%t' || /^\s+$/.test(part)) regex += '\\s*';
    else if (part.startsWith('%')) throw BigQueryError.notSupported(`the parse element %s with other format elements (${part})`);
    else regex += part.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  }
  return { regex: `${regex}\\s*$`, groups };
}

/**
 * SQL for PARSE_`kind`(fmt, s) when the constant format `fmt` has a `%s` element; undefined when it
 * has none. Throws not-supported when `%s` is combined with other elements.
 */
export function parseEpochSeconds(c: FnCall, kind: 'DATE' | 'DATETIME' | 'TIME' | 'TIMESTAMP', fmt: string): string | undefined {
  if (!/(^|[^%])(%%)*%s/.test(fmt)) return undefined;
  const [fmtSql, s] = c.args;
  const nullIn = `${s} IS NULL OR ${fmtSql} IS NULL`;
  if (kind === 'DATE' || kind === 'TIME') return `CASE WHEN ${nullIn} THEN NULL ELSE ${fail(c, q(`Invalid format: %s is not allowed for the ${kind} type.`))} END`;
  const { regex, groups } = formatRegex(fmt);
  const digits = `regexp_extract(${s}, ${q(regex)}, ${groups})`;
  const bad = `NOT regexp_full_match(${s}, ${q(regex)}) OR length(${digits}) > 12 OR regexp_full_match(${digits}, '-0+')`;
  const seconds = `TRY_CAST(${digits} AS BIGINT)`;
  const micros = `(${seconds} * 1000000)`;
  const value = kind === 'TIMESTAMP' ? `make_timestamptz(${micros})` : `make_timestamp(${micros})`;
  return (
    `CASE WHEN ${nullIn} THEN NULL WHEN ${bad} THEN ${fail(c, `'Failed to parse input string "' || ${s} || '"'`)} ` +
    `WHEN ${seconds} NOT BETWEEN ${MIN_SECONDS} AND ${MAX_SECONDS} THEN ${fail(c, `'Invalid result from parsing function'`)} ELSE ${value} END`
  );
}
