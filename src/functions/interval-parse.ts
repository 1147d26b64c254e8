/**
 * CAST(STRING AS INTERVAL) (BigQuery conversion_functions "CAST AS INTERVAL"; interval literal
 * formats of the data types page). Accepted text:
 *
 * - the canonical `[Y-M] [D] [H:M:S[.F]]` with at least one part, the year-month part signed as a
 *   whole (`-1-2`), the day and the time part each with their own sign:
 *   `'1-2 3 10:20:30.456'` → `1-2 3 10:20:30.456`, `'1-2'` → `1-2 0 0:0:0`, `'10:20:30'` →
 *   `0-0 0 10:20:30`;
 * - ISO 8601 durations `P[nY][nM][nW][nD][T[nH][nM][n[.,f]S]]`, each number optionally signed
 *   (`'P1Y2M3D'` → `1-2 3 0:0:0`, `'PT10H20M30,456S'` → `0-0 0 10:20:30.456`).
 *
 * Anything else raises `Invalid INTERVAL value: '<text>'` (NULL under SAFE_CAST).
 */
import { defineUdf } from './builtin-udfs.js';
import type { FnCall } from './registry.js';
import { fail } from './util.js';
import { checkedInterval } from './interval.js';

/** Microseconds of a `.F` fraction (up to 9 digits, truncated to microseconds). */
const fracMicros = (f: string | undefined): bigint => (f ? BigInt((f + '000000000').slice(0, 6)) : 0n);

/** [months, days, micros] of an interval text, or undefined when it is not one. */
export function parseIntervalText(text: string): [bigint, bigint, bigint] | undefined {
  const s = text.trim();
  const iso = /^([+-])?P(?:([+-]?\d+)Y)?(?:([+-]?\d+)M)?(?:([+-]?\d+)W)?(?:([+-]?\d+)D)?(?:T(?:([+-]?\d+)H)?(?:([+-]?\d+)M)?(?:([+-]?\d+)(?:[.,](\d{1,9}))?S)?)?$/i.exec(s);
  if (iso) {
    if (!/\d/.test(s) || /T$/i.test(s)) return undefined;
    const n = (x: string | undefined) => BigInt(x ?? '0');
    const sign = iso[1] === '-' ? -1n : 1n;
    const secs = n(iso[8]);
    const frac = fracMicros(iso[9]) * (iso[8]?.startsWith('-') ? -1n : 1n);
    const months = n(iso[2]) * 12n + n(iso[3]);
    const days = n(iso[4]) * 7n + n(iso[5]);
    const micros = n(iso[6]) * 3_600_000_000n + n(iso[7]) * 60_000_000n + secs * 1_000_000n + frac;
    return [sign * months, sign * days, sign * micros];
  }
  // Canonical: whitespace-separated parts in the order Y-M, D, H:M:S[.F], each at most once.
  let ym = 0n;
  let days = 0n;
  let micros = 0n;
  let next = 0; // the first part kind still allowed: 0 Y-M, 1 D, 2 time, 3 none
  const tokens = s.split(/\s+/).filter(Boolean);
  if (!tokens.length) return undefined;
  for (const t of tokens) {
    let m: RegExpExecArray | null;
    if (next <= 0 && (m = /^([+-]?)(\d+)-(\d+)$/.exec(t))) {
      if (BigInt(m[3]!) > 11n) return undefined;
      ym = (BigInt(m[2]!) * 12n + BigInt(m[3]!)) * (m[1] === '-' ? -1n : 1n);
      next = 1;
    } else if (next <= 1 && /^[+-]?\d+$/.test(t)) {
      days = BigInt(t);
      next = 2;
    } else if (next <= 2 && (m = /^([+-]?)(\d+):(\d+):(\d+)(?:\.(\d{1,9}))?$/.exec(t))) {
      if (BigInt(m[3]!) > 59n || BigInt(m[4]!) > 59n) return undefined;
      micros = BigInt(m[2]!) * 3_600_000_000n + BigInt(m[3]!) * 60_000_000n + BigInt(m[4]!) * 1_000_000n + fracMicros(m[5]);
      if (m[1] === '-') micros = -micros;
      next = 3;
    } else return undefined;
  }
  return [ym, days, micros];
}

defineUdf('bq_interval_parts', ['VARCHAR'], 'VARCHAR', (s) => {
  const p = parseIntervalText(s);
  return p ? p.join(' ') : null;
});

/** CAST(x AS INTERVAL) for a STRING x. */
export function intervalFromString(c: FnCall, x: string): string {
  const parts = `bq_interval_parts(${x})`;
  const part = (i: number) => `CAST(split_part(${parts}, ' ', ${i}) AS HUGEINT)`;
  // A text past BigQuery's INTERVAL ranges raises `Interval field … is out of range …` (interval.ts).
  const v = checkedInterval(c, part(1), part(2), part(3));
  return `CASE WHEN ${x} IS NULL THEN NULL WHEN ${parts} IS NULL THEN ${fail(c, `'Invalid INTERVAL value: ''' || ${x} || ''''`)} ELSE ${v} END`;
}
