/**
 * ZetaSQL's texts of civil times inside error messages (`9999-12-31 23:59:59.500`,
 * `10000-01-01 00:00:00.000000`), as DuckDB SQL over a TIMESTAMP or TIMESTAMPTZ value (sessions run
 * in UTC). Overflowed values print their year as is: `0000` for 1 BC, `10000`.
 */

/** The proleptic year (1 BC is 0) of a DuckDB TIMESTAMP/TIMESTAMPTZ, at least 4 digits. */
const yearText = (x: string) => `(CASE WHEN year(CAST(${x} AS TIMESTAMP)) BETWEEN 0 AND 999 THEN lpad(CAST(year(CAST(${x} AS TIMESTAMP)) AS VARCHAR), 4, '0') ELSE CAST(year(CAST(${x} AS TIMESTAMP)) AS VARCHAR) END)`;
const p2 = (x: string) => `lpad(CAST(${x} AS VARCHAR), 2, '0')`;

/** Microseconds within the second of a DuckDB TIMESTAMP/TIMESTAMPTZ (0 … 999999, also before 1970). */
export const microsOf = (x: string) => `((epoch_us(${x}) % 1000000 + 1000000) % 1000000)`;
/** `YYYY-MM-DD HH:MM:SS` of a DuckDB TIMESTAMP/TIMESTAMPTZ (UTC sessions), years 0 and 10000 included. */
export const secondsText = (x: string) =>
  `${yearText(x)} || '-' || ${p2(`month(${x})`)} || '-' || ${p2(`day(${x})`)} || ' ' || ${p2(`hour(${x})`)} || ':' || ${p2(`minute(${x})`)} || ':' || ${p2(`second(${x})`)}`;
/** ZetaSQL's civil text: the fraction in groups of three digits, none when zero (`23:59:59.500`). */
export const civilText = (x: string) => {
  const f = microsOf(x);
  return `${secondsText(x)} || CASE WHEN ${f} = 0 THEN '' WHEN ${f} % 1000 = 0 THEN '.' || lpad(CAST(${f} // 1000 AS VARCHAR), 3, '0') ELSE '.' || lpad(CAST(${f} AS VARCHAR), 6, '0') END`;
};
/** Six fraction digits always (`00:00:00.500000`). */
export const fullText = (x: string) => `${secondsText(x)} || '.' || lpad(CAST(${microsOf(x)} AS VARCHAR), 6, '0')`;


/** Minutes east of UTC (SQL, truncated toward zero) of the zone in which TIMESTAMPTZ `ts` reads as civil `local`. */
export const zoneOffsetMinutes = (ts: string, local: string) => `((epoch_us(${local}) - epoch_us(${ts})) // 60000000)`;

/** `±HH`, or `±HH:MM` when the minutes are not zero, of an offset in minutes (SQL). */
export const offsetShortText = (mins: string) =>
  `(CASE WHEN ${mins} < 0 THEN '-' ELSE '+' END || lpad(CAST(abs(${mins}) // 60 AS VARCHAR), 2, '0') || CASE WHEN abs(${mins}) % 60 = 0 THEN '' ELSE ':' || lpad(CAST(abs(${mins}) % 60 AS VARCHAR), 2, '0') END)`;

/**
 * ZetaSQL's text of TIMESTAMPTZ `ts` in a zone, `local` being its civil view there (toLocal):
 * the offset to the minute, truncated toward zero, and the civil time shifted by that offset —
 * `0000-12-31 16:08:00-07:52` for 0001-01-01 00:00:00 UTC in America/Los_Angeles (LMT −07:52:58),
 * `10000-01-01 04:00:00+05`, `… 04:30:00+05:30` (reference evaluator, DATE(timestamp, zone)).
 */
export function zonedText(ts: string, local: string): string {
  const m = zoneOffsetMinutes(ts, local);
  return `${civilText(`(${ts} + to_minutes(${m}))`)} || ${offsetShortText(m)}`;
}

/**
 * ZetaSQL's name of a zone (SQL over the zone argument): a fixed offset literal as
 * `Fixed/UTC+05:30:00` (`'+05:30'`, `'UTC+3'`), a named zone as written.
 */
export function zoneName(tz: string, offsetMinutes: number | undefined): string {
  if (offsetMinutes === undefined) return tz;
  const a = Math.abs(offsetMinutes);
  const p = (n: number) => String(n).padStart(2, '0');
  return `'Fixed/UTC${offsetMinutes < 0 ? '-' : '+'}${p(Math.floor(a / 60))}:${p(a % 60)}:00'`;
}
