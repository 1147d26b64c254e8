/**
 * Date and time functions (BigQuery "Date", "Datetime", "Time" and "Timestamp functions"),
 * formatting and parsing: FORMAT_DATE/DATETIME/TIME/TIMESTAMP, PARSE_*, and STRING(timestamp). Format strings must be constants: each format element is turned into SQL
 * here (FORMAT) or into a DuckDB strptime pattern (PARSE).
 */
import { BigQueryError } from '../errors/errors.js';
import type { FnCall, FnTable } from './registry.js';
import { fromLocal, toLocal } from './date-time.js';
import { fail, q, stringLiteral } from './util.js';
import { offsetShortText, zoneOffsetMinutes } from './datetime-text.js';
import { outOfRange } from './datetime-range.js';
import { parseEpochSeconds } from './parse-epoch-seconds.js';

const pad = (e: string, n = 2, ch = '0') => `lpad(CAST(${e} AS VARCHAR), ${n}, '${ch}')`;
const h12 = (x: string) => `(CASE WHEN hour(${x}) % 12 = 0 THEN 12 ELSE hour(${x}) % 12 END)`;

/** Offset of zone `tz` at instant `ts`, in minutes (SQL). */
const offsetMinutes = (ts: string, tz?: string) => zoneOffsetMinutes(ts, toLocal(ts, tz));
const offsetText = (mins: string, colon: boolean) =>
  `(CASE WHEN ${mins} < 0 THEN '-' ELSE '+' END || ${pad(`abs(${mins}) // 60`)} || '${colon ? ':' : ''}' || ${pad(`abs(${mins}) % 60`)})`;

/** Composite elements, expanded before formatting/parsing. */
const COMPOSITE: Record<string, string> = { '%c': '%a %b %e %H:%M:%S %Y', '%D': '%m/%d/%y', '%F': '%Y-%m-%d', '%R': '%H:%M', '%T': '%H:%M:%S', '%x': '%m/%d/%y', '%X': '%H:%M:%S' };
const ELEMENT = /%(E\d+S|E\*S|E4Y|Ez|O[a-zA-Z]|E[a-zA-Z]|[a-zA-Z%])/g;

/** SQL for one format element of civil TIMESTAMP `x` (`ts`/`tz`: the instant, for %z %Z %s). */
function element(el: string, x: string, ts?: string, tz?: string): string {
  const frac = `lpad(CAST(microsecond(${x}) % 1000000 AS VARCHAR), 6, '0')`;
  const m = /^E(\d+)S$/.exec(el);
  if (m) return Number(m[1]) === 0 ? pad(`second(${x})`) : `${pad(`second(${x})`)} || '.' || left(${frac}, ${m[1]})`;
  const map: Record<string, string> = {
    A: `dayname(${x})`, a: `left(dayname(${x}), 3)`, B: `monthname(${x})`, b: `left(monthname(${x}), 3)`,
    h: `left(monthname(${x}), 3)`, C: pad(`year(${x}) // 100`), d: pad(`day(${x})`), e: pad(`day(${x})`, 2, ' '),
    G: `CAST(isoyear(${x}) AS VARCHAR)`, g: pad(`isoyear(${x}) % 100`), H: pad(`hour(${x})`), I: pad(h12(x)),
    j: pad(`dayofyear(${x})`, 3), k: pad(`hour(${x})`, 2, ' '), l: pad(h12(x), 2, ' '), M: pad(`minute(${x})`),
    m: pad(`month(${x})`), n: 'chr(10)', t: 'chr(9)', p: `CASE WHEN hour(${x}) < 12 THEN 'AM' ELSE 'PM' END`,
    P: `CASE WHEN hour(${x}) < 12 THEN 'am' ELSE 'pm' END`, Q: `CAST(quarter(${x}) AS VARCHAR)`, S: pad(`second(${x})`),
    U: pad(`(dayofyear(${x}) + 6 - dayofweek(${x})) // 7`), u: `CAST(isodow(${x}) AS VARCHAR)`, V: pad(`week(${x})`),
    W: pad(`(dayofyear(${x}) + 6 - (dayofweek(${x}) + 6) % 7) // 7`), w: `CAST(dayofweek(${x}) AS VARCHAR)`,
    Y: `CAST(year(${x}) AS VARCHAR)`, y: pad(`year(${x}) % 100`), E4Y: pad(`year(${x})`, 4), '%': `'%'`,
    J: pad(`(CAST(${x} AS DATE) - CAST(date_trunc('isoyear', ${x}) AS DATE)) + 1`, 3),
    'E*S': `${pad(`second(${x})`)} || CASE WHEN microsecond(${x}) % 1000000 = 0 THEN '' ELSE '.' || regexp_replace(${frac}, '0+$', '') END`,
  };
  if (map[el]) return map[el];
  if (ts !== undefined) {
    if (el === 'z') return offsetText(offsetMinutes(ts, tz), false);
    if (el === 'Ez') return offsetText(offsetMinutes(ts, tz), true);
    if (el === 's') return `CAST(epoch_us(${ts}) // 1000000 AS VARCHAR)`;
    if (el === 'Z') {
      const mins = offsetMinutes(ts, tz);
      // `UTC`, `UTC-4` for whole hours, else `UTC+0530` (%z's digits), as the ZetaSQL reference evaluator.
      return `CASE WHEN ${mins} = 0 THEN 'UTC' WHEN ${mins} % 60 = 0 THEN 'UTC' || CASE WHEN ${mins} < 0 THEN '-' ELSE '+' END || CAST(abs(${mins}) // 60 AS VARCHAR) ELSE 'UTC' || ${offsetText(mins, false)} END`;
    }
  }
  throw BigQueryError.notSupported(`the format element %${el}`);
}

/** FORMAT_* of a civil TIMESTAMP x. */
function formatCivil(c: FnCall, fmtSql: string, x: string, ts?: string, tz?: string): string {
  const fmt = stringLiteral(fmtSql);
  if (fmt === undefined) throw BigQueryError.notSupported(`${c.name.toUpperCase()} with a non-constant format string`);
  const expanded = fmt.replace(/%[cDFRTxX]/g, (e) => COMPOSITE[e]);
  const parts: string[] = [];
  let last = 0;
  for (const m of expanded.matchAll(ELEMENT)) {
    if (m.index! > last) parts.push(q(expanded.slice(last, m.index)));
    parts.push(element(m[1], x, ts, tz));
    last = m.index! + m[0].length;
  }
  if (last < expanded.length) parts.push(q(expanded.slice(last)));
  const body = parts.length ? parts.join(' || ') : `''`;
  return `CASE WHEN ${fmtSql} IS NULL OR ${x} IS NULL THEN NULL ELSE (${body}) END`;
}

const civilOf: Record<string, (x: string) => string> = {
  DATE: (x) => `CAST(${x} AS TIMESTAMP)`,
  TIME: (x) => `(DATE '1970-01-01' + ${x})`,
  DATETIME: (x) => x,
};

function formatFn(c: FnCall): string {
  const [fmt, x, tz] = c.args;
  const k = c.argTypes[1]?.kind ?? 'DATETIME';
  if (k === 'TIMESTAMP') return formatCivil(c, fmt, toLocal(x, tz), x, tz);
  return formatCivil(c, fmt, civilOf[k](x));
}

// ---------- PARSE_* ----------

const STRPTIME: Record<string, string> = {
  Y: '%Y', y: '%y', m: '%m', d: '%d', e: '%d', H: '%H', k: '%H', I: '%I', l: '%I', M: '%M', S: '%S', p: '%p',
  A: '%A', a: '%a', B: '%B', b: '%b', h: '%b', j: '%j', z: '%z', Ez: '%z', Z: '%Z', '%': '%%', n: ' ', t: ' ',
  E4Y: '%Y', w: '%w', U: '%U', W: '%W',
};

/** DuckDB strptime patterns for a BigQuery format (several when %E*S makes the fraction optional). */
function strptimePatterns(fmt: string): { patterns: string[]; zoned: boolean; hasYear: boolean } {
  const expanded = fmt.replace(/%[cDFRTxX]/g, (e) => COMPOSITE[e]);
  let zoned = false;
  let hasYear = false;
  let optionalFraction = false;
  const out = expanded.replace(ELEMENT, (_all, el: string) => {
    if (el === 'z' || el === 'Ez' || el === 'Z') zoned = true;
    if (['Y', 'y', 'E4Y', 'C', 'G', 'g'].includes(el)) hasYear = true;
    if (el === 'E*S') {
      optionalFraction = true;
      return '%S\u0000';
    }
    if (/^E\d+S$/.test(el)) return el === 'E0S' ? '%S' : '%S.%f';
    const p = STRPTIME[el];
    if (!p) throw BigQueryError.notSupported(`the parse element %${el}`);
    return p;
  });
  const patterns = optionalFraction ? [out.replace('\u0000', '.%f'), out.replace('\u0000', '')] : [out];
  return { patterns, zoned, hasYear };
}

/** PARSE_DATE / PARSE_DATETIME / PARSE_TIME / PARSE_TIMESTAMP; a result outside the range is `Invalid result from parsing function`. */
function parseFn(kind: 'DATE' | 'DATETIME' | 'TIME' | 'TIMESTAMP') {
  return (c: FnCall) => {
    const [fmtSql, s, tz] = c.args;
    const fmt = stringLiteral(fmtSql);
    if (fmt === undefined) throw BigQueryError.notSupported(`${c.name.toUpperCase()} with a non-constant format string`);
    const epoch = parseEpochSeconds(c, kind, fmt);
    if (epoch !== undefined) return epoch;
    const { patterns, zoned, hasYear } = strptimePatterns(fmt);
    const input = hasYear || kind === 'TIME' ? s : `'1970 ' || ${s}`;
    const pats = (hasYear || kind === 'TIME' ? patterns : patterns.map((p) => `%Y ${p}`)).map(q);
    const list = pats.length === 1 ? pats[0] : `[${pats.join(', ')}]`;
    const parsed = `try_strptime(${input}, ${list})`;
    let v: string;
    if (kind === 'TIMESTAMP') v = zoned ? parsed : fromLocal(parsed, tz);
    else if (kind === 'DATETIME') v = zoned ? `CAST(timezone('UTC', ${parsed}) AS TIMESTAMP)` : parsed;
    else v = `CAST(${parsed} AS ${kind})`;
    const err = fail(c, `'Failed to parse input string "' || ${s} || '"'`);
    // A result outside BigQuery's range (a zone past 9999-12-31, year 0): the reference evaluator's text.
    const range = kind === 'TIME' ? '' : `WHEN ${outOfRange(v, kind === 'TIMESTAMP' ? 'timestamp' : kind === 'DATE' ? 'date' : 'datetime')} THEN ${fail(c, `'Invalid result from parsing function'`)} `;
    return `CASE WHEN ${s} IS NULL OR ${fmtSql} IS NULL THEN NULL WHEN ${parsed} IS NULL THEN ${err} ${range}ELSE ${v} END`;
  };
}

/** STRING(timestamp[, zone]): `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]` in the zone. */
export function timestampString(ts: string, tz?: string): string {
  const mins = offsetMinutes(ts, tz);
  return `CAST(${toLocal(ts, tz)} AS VARCHAR) || ${offsetShortText(mins)}`;
}

/** FORMAT_* and PARSE_* of the date, datetime, time and timestamp functions pages. */
export const DATE_TIME_FORMAT_FUNCTIONS: FnTable = {
  format_date: formatFn,
  format_datetime: formatFn,
  format_time: formatFn,
  format_timestamp: formatFn,
  parse_date: parseFn('DATE'),
  parse_datetime: parseFn('DATETIME'),
  parse_time: parseFn('TIME'),
  parse_timestamp: parseFn('TIMESTAMP'),
};
