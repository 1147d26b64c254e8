/**
 * ORC timestamps (Apache ORC specification v1, "Column Encodings", timestamp,
 * https://orc.apache.org/specification/ORCv1/): the DATA stream holds signed seconds since
 * 2015-01-01 00:00:00 and the SECONDARY stream the nanoseconds, written as `nanos << 3 | z`
 * where z ≠ 0 means the value had z + 1 trailing decimal zeros removed.
 * - `timestamp` ("a date and time without a time zone"): the seconds count from 2015-01-01
 *   00:00:00 in the stripe's writer time zone (StripeFooter.writerTimezone; none: UTC), and
 *   the value is that zone's wall clock; BigQuery holds it as that wall clock in UTC.
 * - `timestamp with local time zone` (TIMESTAMP_INSTANT): an instant, seconds from
 *   2015-01-01 00:00:00 UTC.
 * Writers that truncated negative milliseconds toward zero stored one second too many for
 * instants before 1970 with a fraction of at least a millisecond; readers take that second
 * back (what the ORC project's readers do for the files its expected outputs describe).
 */

/** 2015-01-01 00:00:00 UTC in seconds since the Unix epoch. */
const ORC_EPOCH = 1_420_070_400;

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

/** The UTC offset in seconds of time zone `tz` at `epochSeconds` (cached per 15-minute slot). */
function offsetAt(tz: string, epochSeconds: number): number {
  const slot = Math.floor(epochSeconds / 900);
  const key = `${tz}|${slot}`;
  const hit = offsets.get(key);
  if (hit !== undefined) return hit;
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    formatters.set(tz, f);
  }
  const at = slot * 900;
  const p = Object.fromEntries(f.formatToParts(new Date(at * 1000)).map((x) => [x.type, x.value]));
  const year = p.era === 'BC' || p.era === 'B' ? 1 - Number(p.year) : Number(p.year);
  const local = Date.UTC(2000, Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) / 1000;
  // Date.UTC maps years 0..99 to 1900..1999: set the year separately.
  const d = new Date(local * 1000);
  d.setUTCFullYear(year);
  const off = d.getTime() / 1000 - at;
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, off);
  return off;
}

/** Whether `tz` names a zone this runtime knows (an unknown or empty writer zone reads as UTC). */
function knownZone(tz: string): boolean {
  if (!tz || tz === 'UTC' || tz === 'GMT') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * A converter of ORC (seconds, encoded nanos) pairs to BigQuery TIMESTAMP microseconds.
 * @param instant TIMESTAMP_INSTANT (UTC base) rather than TIMESTAMP (writer zone's wall clock)
 * @param writerTimezone StripeFooter.writerTimezone
 */
export function timestampConverter(instant: boolean, writerTimezone: string): (seconds: number, encodedNanos: number) => bigint {
  const tz = !instant && knownZone(writerTimezone) ? writerTimezone : undefined;
  const base = tz ? ORC_EPOCH - offsetAt(tz, ORC_EPOCH) : ORC_EPOCH;
  return (seconds, encodedNanos) => {
    const z = encodedNanos & 7;
    let nanos = Math.floor(encodedNanos / 8);
    if (z !== 0) nanos *= 10 ** (z + 1);
    let s = base + seconds;
    if (tz) s += offsetAt(tz, s);
    if (s < 0 && nanos > 999_999) s -= 1;
    return BigInt(s) * 1_000_000n + BigInt(Math.floor(nanos / 1000));
  };
}
