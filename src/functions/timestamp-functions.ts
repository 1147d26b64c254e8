/**
 * The TIMESTAMP constructors of GoogleSQL's "Timestamp functions" page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/timestamp_functions):
 * TIMESTAMP(string | date | datetime [, zone]), TIMESTAMP_SECONDS / _MILLIS / _MICROS (and their
 * TIMESTAMP_FROM_UNIX_* aliases), and the STRING → TIMESTAMP text reading CAST shares.
 *
 * Every result is held to BigQuery's range (datetime-range.ts), with the errors of the ZetaSQL
 * reference evaluator (NULL under SAFE): a zone can carry 9999-12-31 or 0001-01-01 past it.
 */
import type { FnCall, FnTable } from './registry.js';
import { fixedOffset, fromLocal } from './date-time.js';
import { outOfRange, rangeOr } from './datetime-range.js';
import { civilText, zoneName } from './datetime-text.js';
import { fail, stringLiteral } from './util.js';

/**
 * TIMESTAMP_SECONDS / _MILLIS / _MICROS: `n` units since the epoch. Outside the range (checked in
 * units, so no multiplication overflows): `Input value 253402300800 cannot be converted into a
 * TIMESTAMP, because it would be out of the allowed range between -62135596800000000 to
 * 253402300799999999 (microseconds)` (reference evaluator).
 */
function fromUnix(u: number) {
  return (c: FnCall) => {
    const n = c.args[0];
    const max = 253402300799999999n / BigInt(u);
    const min = -62135596800000000n / BigInt(u);
    const err = fail(c, `'Input value ' || CAST(${n} AS VARCHAR) || ' cannot be converted into a TIMESTAMP, because it would be out of the allowed range between -62135596800000000 to 253402300799999999 (microseconds)'`);
    return `CASE WHEN ${n} > ${max} OR ${n} < ${min} THEN ${err} ELSE make_timestamptz(CAST(${n} AS BIGINT) * ${u}) END`;
  };
}

/**
 * TIMESTAMP(string[, zone]) and CAST(string AS TIMESTAMP): the string's own zone/offset wins over
 * `zone`. Text that is no timestamp: `Invalid timestamp: '…'`; one whose instant lies outside the
 * range (`'9999-12-31 23:59:59-08'`): `Invalid timestamp string "…"` followed by `castSuffix` —
 * the reference evaluator adds ` (scale TIMESTAMP_NANOSECOND)` for CAST.
 */
export function parseTimestampText(c: FnCall, s: string, tz?: string, castSuffix = ''): string {
  const hasZone = `regexp_matches(trim(${s}), '(Z|[+-][0-9]{1,2}(:?[0-9]{2})?|[ ][A-Za-z_]+(/[A-Za-z_]+)*)$')`;
  const err = fail(c, `'Invalid timestamp: ''' || ${s} || ''''`);
  const text = `regexp_replace(trim(${s}), '^([0-9]+-[0-9]+-[0-9]+)[Tt]', '\\1 ')`;
  const withZone = `TRY_CAST(${text} AS TIMESTAMPTZ)`;
  const local = `TRY_CAST(${text} AS TIMESTAMP)`;
  const v = `CASE WHEN ${hasZone} THEN ${withZone} ELSE ${fromLocal(local, tz)} END`;
  const outside = fail(c, `'Invalid timestamp string "' || ${s} || '"${castSuffix}'`);
  // No surrounding whitespace (ZetaSQL reference: ' 2020-01-02' is not a timestamp).
  return `CASE WHEN ${s} IS NULL THEN NULL WHEN ${s} <> trim(${s}) OR (${v}) IS NULL THEN ${err} WHEN ${outOfRange(`(${v})`, 'timestamp')} THEN ${outside} ELSE ${v} END`;
}

/**
 * TIMESTAMP(date | datetime, zone) placed outside the range by the zone (reference evaluator):
 * `Cannot convert date 0001-01-01 to timestamp`, `Cannot convert Datetime 9999-12-31 23:59:59 at
 * timezone America/Los_Angeles to a Timestamp` (a fixed offset named `Fixed/UTC-08:00:00`).
 */
function timestampCtor(c: FnCall): string {
  const [x, tz] = c.args;
  const lit = tz === undefined ? undefined : stringLiteral(tz);
  const zone = tz === undefined ? '' : zoneName(tz, lit === undefined ? undefined : fixedOffset(lit));
  switch (c.argTypes[0]?.kind) {
    case 'STRING':
      return parseTimestampText(c, x, tz);
    case 'DATE': {
      const v = fromLocal(`CAST(${x} AS TIMESTAMP)`, tz);
      return tz === undefined ? v : rangeOr(v, 'timestamp', fail(c, `'Cannot convert date ' || CAST(${x} AS VARCHAR) || ' to timestamp'`));
    }
    case 'DATETIME': {
      const v = fromLocal(x, tz);
      return tz === undefined ? v : rangeOr(v, 'timestamp', fail(c, `'Cannot convert Datetime ' || ${civilText(x)} || ' at timezone ' || ${zone} || ' to a Timestamp'`));
    }
    default:
      return x;
  }
}

/** The TIMESTAMP constructors of the timestamp functions page. */
export const TIMESTAMP_CONSTRUCTOR_FUNCTIONS: FnTable = {
  timestamp: timestampCtor,
  timestamp_seconds: fromUnix(1e6),
  timestamp_millis: fromUnix(1e3),
  timestamp_micros: fromUnix(1),
  timestamp_from_unix_seconds: fromUnix(1e6),
  timestamp_from_unix_millis: fromUnix(1e3),
  timestamp_from_unix_micros: fromUnix(1),
};
