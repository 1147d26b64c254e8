/**
 * The format clause of CAST for date and time values (BigQuery "Format clause for CAST": format
 * date and time as string, format string as date and time). Semantics follow ZetaSQL's
 * cast_date_time.cc, whose error texts are used:
 *
 * - A format model is split into elements by longest match, case-insensitively: `YYYY` `YYY` `YY`
 *   `Y` `RRRR` `RR` `Y,YYY` `MM` `MON` `MONTH` `DD` `DDD` `D` `DAY` `DY` `HH` `HH12` `HH24` `MI`
 *   `SS` `SSSSS` `FF1`…`FF9` `AM` `PM` `A.M.` `P.M.` `TZH` `TZM` (and the elements ZetaSQL knows
 *   but does not format: `IYYY` `CC` `Q` `WW` `AD`…), literals `- . / , ' ; :`, runs of spaces,
 *   and `"quoted text"` (escapes `\"` `\\`). Anything else: `Cannot find matched format element at N`.
 * - Formatting: month and day names take the element's case (`MON` JAN, `Mon` Jan, `mon` jan);
 *   `YYYY` prints the whole year (4 digits at least), `YYY`/`YY`/`Y` its last digits; `HH` is the
 *   12-hour clock; `FFn` truncates; `TZH`/`TZM` give the zone offset. DATE allows only year,
 *   month and day elements (`DATE does not support 'HH24'`), TIME only time elements.
 * - Parsing: leading/trailing whitespace is skipped, a space run matches one or more spaces,
 *   literals match exactly; a numeric element followed by another numeric element matches
 *   exactly its width, otherwise 1 to width digits (`YYYY` 1–5). Missing parts default to the
 *   current year and month, day 1, midnight. `AM`/`PM` without dots cannot be parsed.
 */
export type DtKind = 'DATE' | 'DATETIME' | 'TIME' | 'TIMESTAMP';

type Category = 'LITERAL' | 'YEAR' | 'MONTH' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND' | 'MERIDIAN_INDICATOR' | 'TIME_ZONE' | 'OTHER';
interface Element {
  type: string;
  category: Category;
  /** 'upper' | 'lower' | 'title' output casing; literals keep their text. */
  casing: 'upper' | 'lower' | 'title';
  len: number;
  literal?: string;
  digits?: number;
}

const CATEGORY: Record<string, Category> = {
  YYYY: 'YEAR', YYY: 'YEAR', YY: 'YEAR', Y: 'YEAR', RRRR: 'YEAR', RR: 'YEAR', 'Y,YYY': 'YEAR', IYYY: 'YEAR', IYY: 'YEAR', IY: 'YEAR', I: 'YEAR',
  SYYYY: 'YEAR', YEAR: 'YEAR', SYEAR: 'YEAR', MM: 'MONTH', MON: 'MONTH', MONTH: 'MONTH', RM: 'MONTH', DDD: 'DAY', DD: 'DAY', D: 'DAY', DAY: 'DAY',
  DY: 'DAY', J: 'DAY', HH: 'HOUR', HH12: 'HOUR', HH24: 'HOUR', MI: 'MINUTE', SS: 'SECOND', SSSSS: 'SECOND', FFN: 'SECOND', AM: 'MERIDIAN_INDICATOR',
  PM: 'MERIDIAN_INDICATOR', 'A.M.': 'MERIDIAN_INDICATOR', 'P.M.': 'MERIDIAN_INDICATOR', TZH: 'TIME_ZONE', TZM: 'TIME_ZONE', CC: 'OTHER', SCC: 'OTHER',
  Q: 'OTHER', IW: 'OTHER', WW: 'OTHER', W: 'OTHER', AD: 'OTHER', BC: 'OTHER', 'A.D.': 'OTHER', 'B.C.': 'OTHER', SP: 'OTHER', TH: 'OTHER', SPTH: 'OTHER',
  THSP: 'OTHER', FM: 'OTHER',
};
const KEYS = [...Object.keys(CATEGORY).filter((k) => k !== 'FFN'), ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `FF${n}`)].sort((a, b) => b.length - a.length);
const SIMPLE_LITERALS = new Set(['-', '.', '/', ',', "'", ';', ':']);

/** A format error (its message is BigQuery's text). */
export class FormatError extends Error {}
const err = (m: string): never => {
  throw new FormatError(m);
};

const show = (e: Element) => (e.type === 'FFN' ? `'FF${e.digits}'` : e.type === 'WHITESPACE' ? `'${' '.repeat(e.len)}'` : e.type === 'LITERAL' ? `'${e.literal}'` : `'${e.type}'`);

/** Splits a format model into elements. */
export function tokenize(fmt: string): Element[] {
  const out: Element[] = [];
  const upper = fmt.toUpperCase();
  let i = 0;
  while (i < fmt.length) {
    const ch = fmt[i];
    if (SIMPLE_LITERALS.has(ch) && !upper.startsWith('Y,YYY', i)) {
      out.push({ type: 'LITERAL', category: 'LITERAL', casing: 'upper', len: 1, literal: ch });
      i++;
      continue;
    }
    if (ch === ' ') {
      let j = i;
      while (fmt[j] === ' ') j++;
      out.push({ type: 'WHITESPACE', category: 'LITERAL', casing: 'upper', len: j - i, literal: ' '.repeat(j - i) });
      i = j;
      continue;
    }
    if (ch === '"') {
      let text = '';
      let j = i + 1;
      let closed = false;
      while (j < fmt.length) {
        const c = fmt[j++];
        if (c === '\\') {
          const n = fmt[j++];
          if (n !== '\\' && n !== '"') err(`Unsupported escape sequence \\${n ?? ''} in text at ${i}`);
          text += n;
        } else if (c === '"') {
          closed = true;
          break;
        } else text += c;
      }
      if (!closed) err(`Cannot find matching " for quoted literal at ${i}`);
      out.push({ type: 'LITERAL', category: 'LITERAL', casing: 'upper', len: j - i, literal: text });
      i = j;
      continue;
    }
    const key = KEYS.find((k) => upper.startsWith(k, i));
    if (!key) err(`Cannot find matched format element at ${i}`);
    const text = fmt.slice(i, i + key!.length);
    const ff = /^FF\d$/.test(key!);
    const type = ff ? 'FFN' : key!;
    const category = CATEGORY[type];
    const casing =
      text[0] === text[0].toLowerCase() && /[a-z]/.test(text[0])
        ? 'lower'
        : category === 'MERIDIAN_INDICATOR' || text.length === 1 || key === 'Y,YYY'
          ? 'upper'
          : /[a-z]/.test(text[1])
            ? 'title'
            : 'upper';
    out.push({ type, category, casing, len: key!.length, digits: ff ? Number(key![2]) : undefined });
    i += key!.length;
  }
  return out;
}

/** Civil parts of a value (TIMESTAMP: in the zone of `offsetMinutes`). */
export interface Civil {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  micros: number;
}

const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];
const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const cased = (s: string, c: Element['casing']) => (c === 'upper' ? s : c === 'lower' ? s.toLowerCase() : s[0] + s.slice(1).toLowerCase());

/** Civil parts from microseconds since the epoch of a civil value read as UTC. */
export function civilOf(micros: bigint): Civil {
  const ms = Number(micros / 1000n - (micros % 1000n < 0n ? 1n : 0n));
  const d = new Date(ms);
  const us = Number(((micros % 1000000n) + 1000000n) % 1000000n);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds(), micros: us };
}

const ALLOWED: Record<DtKind, Category[] | undefined> = {
  DATE: ['LITERAL', 'YEAR', 'MONTH', 'DAY'],
  TIME: ['LITERAL', 'HOUR', 'MINUTE', 'SECOND', 'MERIDIAN_INDICATOR'],
  DATETIME: ['LITERAL', 'YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MERIDIAN_INDICATOR'],
  TIMESTAMP: undefined,
};

/** CAST(value AS STRING FORMAT fmt). `offsetMinutes`: the zone offset (TIMESTAMP; else 0). */
export function formatDateTime(fmt: string, kind: DtKind, c: Civil, offsetMinutes: number): string {
  const els = tokenize(fmt);
  const allowed = ALLOWED[kind];
  if (allowed) for (const e of els) if (!allowed.includes(e.category)) err(`${kind} does not support ${show(e)}`);
  const weekday = (() => {
    const t = new Date(0);
    t.setUTCFullYear(c.y, c.mo - 1, c.d);
    return t.getUTCDay();
  })();
  const dayOfYear = (() => {
    const a = new Date(0);
    a.setUTCFullYear(c.y, c.mo - 1, c.d);
    const b = new Date(0);
    b.setUTCFullYear(c.y, 0, 1);
    return Math.round((a.getTime() - b.getTime()) / 86400000) + 1;
  })();
  const h12 = c.h % 12 === 0 ? 12 : c.h % 12;
  return els
    .map((e) => {
      switch (e.type) {
        case 'LITERAL':
        case 'WHITESPACE':
          return e.literal!;
        case 'YYYY':
        case 'RRRR':
          return pad(c.y, 4);
        case 'YYY':
        case 'YY':
        case 'Y':
        case 'RR':
          return pad(c.y % 10 ** e.len, e.len);
        case 'MM':
          return pad(c.mo, 2);
        case 'MON':
          return cased(MONTHS[c.mo - 1].slice(0, 3), e.casing);
        case 'MONTH':
          return cased(MONTHS[c.mo - 1], e.casing);
        case 'D':
          return String(weekday + 1);
        case 'DD':
          return pad(c.d, 2);
        case 'DDD':
          return pad(dayOfYear, 3);
        case 'DAY':
          return cased(DAYS[weekday], e.casing);
        case 'DY':
          return cased(DAYS[weekday].slice(0, 3), e.casing);
        case 'HH':
        case 'HH12':
          return pad(h12, 2);
        case 'HH24':
          return pad(c.h, 2);
        case 'MI':
          return pad(c.mi, 2);
        case 'SS':
          return pad(c.s, 2);
        case 'SSSSS':
          return pad(c.h * 3600 + c.mi * 60 + c.s, 5);
        case 'FFN':
          return pad(c.micros, 6).padEnd(9, '0').slice(0, e.digits);
        case 'AM':
        case 'PM':
          return cased(c.h >= 12 ? 'PM' : 'AM', e.casing);
        case 'A.M.':
        case 'P.M.':
          return cased(c.h >= 12 ? 'P.M.' : 'A.M.', e.casing);
        case 'TZH':
          return `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(offsetMinutes) / 60), 2)}`;
        case 'TZM':
          return pad(Math.abs(offsetMinutes) % 60, 2);
        default:
          return err(`Unsupported format element ${show(e)}`);
      }
    })
    .join('');
}
