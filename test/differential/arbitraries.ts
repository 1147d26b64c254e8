/**
 * fast-check generators of GoogleSQL literals and typed scalar expressions for the differential
 * suite. Every generator yields SQL text; negative numbers are parenthesised so that `1 - -2` can
 * never become a `--` comment. Expressions stay within functions documented for BigQuery.
 */
import fc from 'fast-check';

/** SQL text generator. */
export type Sql = fc.Arbitrary<string>;

/** Joins argument generators into `NAME(a, b, …)`. */
export function call(name: string, ...args: Sql[]): Sql {
  return fc.tuple(...args).map((xs) => `${name}(${xs.join(', ')})`);
}

/** Joins generators with a template: `tmpl(['IF(', ', ', ')'], a, b)`. */
export function tmpl(parts: readonly string[], ...args: Sql[]): Sql {
  return fc.tuple(...args).map((xs) => parts.reduce((acc, p, i) => acc + p + (i < xs.length ? xs[i] : ''), ''));
}

/** A binary operator application, parenthesised. */
export function binop(ops: readonly string[], a: Sql, b: Sql): Sql {
  return fc.tuple(a, fc.constantFrom(...ops), b).map(([x, op, y]) => `(${x} ${op} ${y})`);
}

const paren = (s: string) => (s.startsWith('-') ? `(${s})` : s);

/** A typed NULL. */
export const nullOf = (type: string): Sql => fc.constant(`CAST(NULL AS ${type})`);

// ---------------------------------------------------------------- numbers

const INT64_EDGES = ['9223372036854775807', '-9223372036854775808', '9223372036854775806', '-9223372036854775807', '4611686018427387904', '3037000500', '-3037000500', '4294967296'];

/** INT64 literals: small values, mid-size values, the INT64 edges, NULL. */
export const int64Lit: Sql = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -12, max: 12 }).map((n) => paren(String(n))) },
  { weight: 3, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => paren(String(n))) },
  { weight: 1, arbitrary: fc.constantFrom(...INT64_EDGES).map(paren) },
  { weight: 1, arbitrary: nullOf('INT64') },
);

/** Small non-negative INT64 literals (positions, lengths, counts). */
export const smallInt: Sql = fc.integer({ min: -3, max: 8 }).map((n) => paren(String(n)));

/** FLOAT64 text for a JS double (always with a `.` or exponent so it is a FLOAT64 literal). */
export function floatText(x: number): string {
  if (Object.is(x, -0)) return '(-0.0)';
  let s = String(x);
  if (!/[.e]/.test(s)) s += '.0';
  return paren(s);
}

/** Doubles whose sums and halves are exact: multiples of 0.25 in [-64, 64]. */
export const niceDouble: fc.Arbitrary<number> = fc.integer({ min: -256, max: 256 }).map((n) => n / 4);

/** FLOAT64 literals: exact halves, arbitrary finite doubles, ±0, ±inf, NaN, NULL. */
export const float64Lit: Sql = fc.oneof(
  { weight: 5, arbitrary: niceDouble.map(floatText) },
  { weight: 3, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(floatText) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(floatText) },
  { weight: 1, arbitrary: fc.constantFrom("CAST('inf' AS FLOAT64)", "CAST('-inf' AS FLOAT64)", "CAST('NaN' AS FLOAT64)", '(-0.0)', '0.0', '1.5', '2.5', '-2.5', '0.5') },
  { weight: 1, arbitrary: nullOf('FLOAT64') },
);

/** NUMERIC literals: up to 29 integer digits and 9 fraction digits (BigQuery NUMERIC), NULL. */
export const numericLit: Sql = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom('', '-'), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 })).map(([s, i, f]) => `NUMERIC '${s}${i}.${String(f).padStart(3, '0')}'`) },
  { weight: 2, arbitrary: fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 999_999_999 })).map(([i, f]) => `NUMERIC '${i}.${String(f).padStart(9, '0')}'`) },
  { weight: 1, arbitrary: fc.constantFrom("NUMERIC '99999999999999999999999999999.999999999'", "NUMERIC '-99999999999999999999999999999.999999999'", "NUMERIC '0.000000001'", "NUMERIC '2.5'", "NUMERIC '-2.5'", "NUMERIC '0'") },
  { weight: 1, arbitrary: nullOf('NUMERIC') },
);

// ---------------------------------------------------------------- strings

const CHARS = ['a', 'b', 'c', 'A', 'Z', 'x', ' ', ' ', '-', '_', '.', '0', '7', 'é', 'ß', 'Ö', '日', '本', '😀', "'", '%'];

/** Raw string values over a small alphabet with accents, CJK, an emoji and a quote. */
export const rawString: fc.Arbitrary<string> = fc.array(fc.constantFrom(...CHARS), { maxLength: 7 }).map((cs) => cs.join(''));

/** A GoogleSQL string literal for `s`. */
export const quote = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** STRING literals, NULL included. */
export const stringLit: Sql = fc.oneof({ weight: 8, arbitrary: rawString.map(quote) }, { weight: 1, arbitrary: nullOf('STRING') });

/** BOOL literals, NULL included. */
export const boolLit: Sql = fc.constantFrom('TRUE', 'FALSE', 'CAST(NULL AS BOOL)');

// ---------------------------------------------------------------- dates and times

const p2 = (n: number) => String(n).padStart(2, '0');

/** A valid civil date `YYYY-MM-DD` (mostly 1900–2100, sometimes years 1 or 9999; month ends included). */
export const civilDate: fc.Arbitrary<string> = fc
  .tuple(fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1900, max: 2100 }) }, { weight: 1, arbitrary: fc.constantFrom(1, 9999, 2000, 1970, 1600) }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return `${String(y).padStart(4, '0')}-${p2(m)}-${p2(Math.min(d, last))}`;
  });

/** A time of day `HH:MM:SS[.ffffff]`. */
export const civilTime: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999 })))
  .map(([h, m, s, us]) => `${p2(h)}:${p2(m)}:${p2(s)}${us ? '.' + String(us).padStart(6, '0') : ''}`);

/** DATE literals, NULL included. */
export const dateLit: Sql = fc.oneof({ weight: 8, arbitrary: civilDate.map((d) => `DATE '${d}'`) }, { weight: 1, arbitrary: nullOf('DATE') });

/** DATETIME literals, NULL included. */
export const datetimeLit: Sql = fc.oneof({ weight: 8, arbitrary: fc.tuple(civilDate, civilTime).map(([d, t]) => `DATETIME '${d} ${t}'`) }, { weight: 1, arbitrary: nullOf('DATETIME') });

/** TIMESTAMP literals (UTC, or with an offset), NULL included. */
export const timestampLit: Sql = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(civilDate, civilTime).map(([d, t]) => `TIMESTAMP '${d} ${t}+00'`) },
  { weight: 2, arbitrary: fc.tuple(civilDate, civilTime, fc.constantFrom('+05:30', '-08', '+01', '-03:30')).map(([d, t, z]) => `TIMESTAMP '${d} ${t}${z}'`) },
  { weight: 1, arbitrary: nullOf('TIMESTAMP') },
);

/** Date parts valid for DATE_ADD/DATE_SUB. */
export const DATE_ADD_PARTS = ['DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'] as const;
/** Date parts valid for DATE_DIFF/DATE_TRUNC/EXTRACT on DATE. */
export const DATE_PARTS = ['DAY', 'WEEK', 'WEEK(MONDAY)', 'WEEK(WEDNESDAY)', 'WEEK(SATURDAY)', 'ISOWEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOYEAR'] as const;
/** Time parts (DATETIME/TIMESTAMP arithmetic). */
export const TIME_PARTS = ['MICROSECOND', 'MILLISECOND', 'SECOND', 'MINUTE', 'HOUR'] as const;
