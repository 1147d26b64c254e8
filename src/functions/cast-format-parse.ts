/**
 * CAST(string AS DATE/DATETIME/TIME/TIMESTAMP FORMAT fmt): parsing with the format elements of
 * cast-format-datetime.ts, after ZetaSQL's cast_date_time.cc (format model checks and error
 * texts: `Failed to parse input timestamp string at N with format element 'MM'`, `Illegal
 * non-space trailing data '…' in timestamp string`, `Format element 'HH24' appears more than
 * once in the format string`, `Format element in category HOUR ('HH24') is not allowed for output
 * type DATE`, …).
 */
import { FormatError, tokenize, type Civil, type DtKind } from './cast-format-datetime.js';

const err = (m: string): never => {
  throw new FormatError(m);
};

type Element = ReturnType<typeof tokenize>[number];
const show = (e: Element) => (e.type === 'FFN' ? `'FF${e.digits}'` : e.type === 'WHITESPACE' ? `'${' '.repeat(e.len)}'` : e.type === 'LITERAL' ? `'${e.literal}'` : `'${e.type}'`);

const PARSABLE = new Set(['LITERAL', 'WHITESPACE', 'YYYY', 'YYY', 'YY', 'Y', 'RRRR', 'RR', 'Y,YYY', 'MM', 'MON', 'MONTH', 'DD', 'HH', 'HH12', 'HH24', 'MI', 'SS', 'SSSSS', 'FFN', 'A.M.', 'P.M.', 'TZH', 'TZM']);
const NOT_ALLOWED: Record<DtKind, string[]> = {
  TIMESTAMP: [],
  DATE: ['HOUR', 'MINUTE', 'SECOND', 'MERIDIAN_INDICATOR', 'TIME_ZONE'],
  TIME: ['YEAR', 'MONTH', 'DAY', 'TIME_ZONE', 'OTHER'],
  DATETIME: ['TIME_ZONE'],
};

/** The format model rules (format clause for CAST, "Format model rules"). */
function validate(els: Element[], kind: DtKind): void {
  const byCat = new Map<string, Element[]>();
  const byType = new Map<string, Element>();
  for (const e of els) {
    if (!PARSABLE.has(e.type)) err(`Format element ${show(e)} is not supported for parsing`);
    byCat.set(e.category, [...(byCat.get(e.category) ?? []), e]);
    if (byType.has(e.type) && e.category !== 'LITERAL') err(`Format element ${show(e)} appears more than once in the format string`);
    byType.set(e.type, e);
  }
  for (const c of NOT_ALLOWED[kind]) {
    const e = byCat.get(c)?.[0];
    if (e) err(`Format element in category ${c} (${show(e)}) is not allowed for output type ${kind}`);
  }
  for (const c of ['MERIDIAN_INDICATOR', 'YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE']) {
    const l = byCat.get(c) ?? [];
    if (l.length > 1) err(`More than one format element in category ${c} exist: ${show(l[0])} and ${show(l[1])}`);
  }
  const mer = byCat.get('MERIDIAN_INDICATOR')?.[0];
  const h24 = byType.get('HH24');
  if (h24 && mer) err(`Format element in category MERIDIAN_INDICATOR (${show(mer)}) and format element ${show(h24)} cannot exist simultaneously`);
  const h12 = byType.get('HH') ?? byType.get('HH12');
  if (h12 && !mer) err(`Format element in category MERIDIAN_INDICATOR is required when format element ${show(h12)} exists`);
  if (mer && !h12) err(`Format element of type HH/HH12 is required when format element in category MERIDIAN_INDICATOR (${show(mer)}) exists`);
  const s5 = byType.get('SSSSS');
  if (s5) {
    for (const c of ['HOUR', 'MINUTE']) {
      const e = byCat.get(c)?.[0];
      if (e) err(`Format element in category ${c} (${show(e)}) and format element ${show(s5)} cannot exist simultaneously`);
    }
    if (byType.has('SS')) err(`Format elements ${show(s5)} and ${show(byType.get('SS')!)} cannot exist simultaneously`);
  }
}

const DIGIT_NEXT = new Set(['YYYY', 'YYY', 'YY', 'Y', 'RRRR', 'RR', 'Y,YYY', 'MM', 'DD', 'HH', 'HH12', 'HH24', 'MI', 'SS', 'SSSSS', 'FFN', 'TZM']);

/** [min, max] digits each element reads (exact width when a digit must follow it). */
function digitRanges(els: Element[]): [number, number][] {
  const precedesDigit: boolean[] = els.map(() => false);
  for (let i = els.length - 2; i >= 0; i--) {
    const n = els[i + 1];
    // A quoted literal (len > 1) is followed like its text: empty text looks through it.
    if (n.type === 'LITERAL' && n.len > 1) precedesDigit[i] = n.literal === '' ? precedesDigit[i + 1] : /^[0-9]/.test(n.literal!);
    else precedesDigit[i] = DIGIT_NEXT.has(n.type);
  }
  return els.map((e, i) => {
    const exact = precedesDigit[i];
    if (e.type === 'YYYY' || e.type === 'RRRR') return exact ? [4, 4] : [1, 5];
    if (['HH12', 'HH24', 'TZH', 'TZM'].includes(e.type)) return exact ? [2, 2] : [1, 2];
    // FFn not followed by a digit reads every digit (rounded to n below).
    if (e.type === 'FFN') return exact ? [e.digits!, e.digits!] : [1, 99];
    return exact ? [e.len, e.len] : [1, e.len];
  });
}

const WS = /^\s+/u;
const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

/** Parsed civil parts plus the zone offset in minutes when TZH/TZM appeared. */
export interface Parsed extends Civil {
  offsetMinutes?: number;
}

/** Parses `input` with format model `fmt` for a value of `kind`; `today` is 'YYYY-MM-DD'. */
export function parseDateTime(fmt: string, kind: DtKind, input: string, today: string): Parsed {
  const els = tokenize(fmt);
  validate(els, kind);
  const ranges = digitRanges(els);
  const [cy, cm] = kind === 'TIME' ? [1970, 1] : today.split('-').map(Number);
  let year = cy;
  let month = cm;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  let h12 = 0;
  let pm = false;
  let tz: { sign: number; h: number; m: number } | undefined;
  let pos = input.match(WS)?.[0].length ?? 0;
  let k = 0;
  /** Reads min..max digits as a number within [lo, hi]; the count read, or -1. */
  const int = (min: number, max: number, lo: number, hi: number, set: (v: number) => void): number => {
    const m = /^[0-9]+/.exec(input.slice(pos, pos + max));
    if (!m || m[0].length < min) return -1;
    const v = Number(m[0]);
    if (v < lo || v > hi) return -1;
    set(v);
    return m[0].length;
  };
  for (; k < els.length && pos < input.length; k++) {
    const e = els[k];
    const [min, max] = ranges[k];
    const rest = input.slice(pos);
    let n = -1;
    switch (e.type) {
      case 'LITERAL':
        n = rest.startsWith(e.literal!) ? e.literal!.length : -1;
        break;
      case 'WHITESPACE':
        n = rest.match(WS)?.[0].length ?? -1;
        break;
      case 'YYYY':
      case 'RRRR':
        n = int(min, max, 0, 10000, (v) => (year = v));
        break;
      case 'YYY':
      case 'YY':
      case 'Y': {
        const p = 10 ** e.len;
        n = int(min, max, 0, p - 1, (v) => (year = year - (year % p) + v));
        break;
      }
      case 'RR':
        n = int(min, max, 0, 99, (v) => {
          let century = Math.floor(year / 100);
          if (v < 50 && year % 100 >= 50) century++;
          else if (v >= 50 && year % 100 < 50) century--;
          year = century * 100 + v;
        });
        break;
      case 'Y,YYY': {
        const m = /^([0-9]{1,2}),([0-9]{3})/.exec(rest);
        if (m && Number(m[1]) <= 10) {
          year = Number(m[1]) * 1000 + Number(m[2]);
          n = m[0].length;
        }
        break;
      }
      case 'MM':
        n = int(min, max, 1, 12, (v) => (month = v));
        break;
      case 'MON':
      case 'MONTH': {
        const names = e.type === 'MON' ? MONTHS.map((x) => x.slice(0, 3)) : MONTHS;
        const i = names.findIndex((x) => rest.toUpperCase().startsWith(x));
        if (i >= 0) {
          month = i + 1;
          n = names[i].length;
        }
        break;
      }
      case 'DD':
        n = int(min, max, 1, 31, (v) => (day = v));
        break;
      case 'HH':
      case 'HH12':
        n = int(min, max, 1, 12, (v) => (h12 = v));
        break;
      case 'A.M.':
      case 'P.M.': {
        const u = rest.slice(0, 4).toUpperCase();
        if (u === 'A.M.' || u === 'P.M.') {
          pm = u === 'P.M.';
          n = 4;
        }
        break;
      }
      case 'HH24':
        n = int(min, max, 0, 23, (v) => (hour = v));
        break;
      case 'MI':
        n = int(min, max, 0, 59, (v) => (minute = v));
        break;
      case 'SS':
        n = int(min, max, 0, 59, (v) => (second = v));
        break;
      case 'SSSSS':
        n = int(min, max, 0, 86399, (v) => ((hour = Math.floor(v / 3600)), (minute = Math.floor((v % 3600) / 60)), (second = v % 60)));
        break;
      case 'FFN': {
        // Followed by a digit: exactly n digits; else every digit, rounded to n digits (docs:
        // '01:05:07.16' with FF1 is 01:05:07.2).
        const m = /^[0-9]+/.exec(rest.slice(0, max));
        if (m && m[0].length >= min) {
          const digits = e.digits!;
          const scaled = Math.round(Number(`0.${m[0]}`) * 10 ** digits);
          micros = Math.round((scaled / 10 ** digits) * 1e6);
          n = m[0].length;
        }
        break;
      }
      case 'TZH': {
        const sign = rest[0] === '-' ? -1 : rest[0] === '+' || rest[0] === ' ' ? 1 : 0;
        if (sign) {
          pos++;
          const r = int(min, max, 0, 14, (v) => (tz = { sign, h: v, m: tz?.m ?? 0 }));
          if (r < 0) pos--;
          n = r < 0 ? -1 : r;
        }
        break;
      }
      case 'TZM':
        n = int(min, max, 0, 59, (v) => (tz = { sign: tz?.sign ?? 1, h: tz?.h ?? 0, m: v }));
        break;
    }
    if (n < 0) err(`Failed to parse input timestamp string at ${pos} with format element ${show(els[k])}`);
    pos += n;
  }
  pos += input.slice(pos).match(WS)?.[0].length ?? 0;
  while (k < els.length && els[k].type === 'LITERAL' && els[k].literal === '' && els[k].len > 1) k++;
  if (pos < input.length) err(`Illegal non-space trailing data '${input.slice(pos)}' in timestamp string`);
  if (k < els.length) err(`Entire timestamp string has been parsed before dealing with format element ${show(els[k])}`);
  if (h12) hour = (h12 % 12) + (pm ? 12 : 0);
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    err('Invalid result from year, month, day values after parsing');
  if (year < 1 || year > 9999) err('The parsing result is out of valid time range');
  const out: Parsed = { y: year, mo: month, d: day, h: hour, mi: minute, s: second, micros };
  if (tz) out.offsetMinutes = tz.sign * (tz.h * 60 + tz.m);
  return out;
}
