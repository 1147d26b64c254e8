/**
 * Array functions (GoogleSQL "Array functions"), GENERATE_DATE_ARRAY and GENERATE_TIMESTAMP_ARRAY
 * included. GoogleSQL arrays are DuckDB lists; a NULL array
 * argument gives NULL unless noted. ARRAY_CONCAT is NULL when any argument is NULL (DuckDB's
 * list_concat treats NULL as empty). Lambda forms (ARRAY_FILTER, ARRAY_TRANSFORM…) need the
 * lambda lowered by the expression lowering into a DuckDB lambda (`x -> …`) passed as the last
 * argument.
 */
import { BigQueryError } from '../errors/errors.js';
import type { FnCall, FnTable } from './registry.js';
import { MICROS } from './date-time.js';
import { datePart, fail, nullIfAnyNull, q } from './util.js';
import { MAX_GENERATED_ARRAY_ELEMENTS } from '../config/limits.js';
import { bigNumericFromKey, bigNumericSeries, bigNumericSortKey } from './bignumeric-exact.js';
import { bigNumericArrayTotal } from './bignumeric-aggregates.js';

const isBytesArray = (c: FnCall, i = 0) => {
  const t = c.argTypes[i];
  return t?.kind === 'ARRAY' && t.element.kind === 'BYTES';
};

function arrayToString(c: FnCall): string {
  const [a, d, nt] = c.args;
  if (isBytesArray(c)) {
    const items = nt === undefined ? `list_filter(${a}, x -> x IS NOT NULL)` : `list_transform(${a}, x -> coalesce(x, ${nt}))`;
    return nullIfAnyNull([a, d], `unhex(array_to_string(list_transform(${items}, x -> hex(x)), hex(${d})))`);
  }
  // Without null_text NULL elements are skipped: [NULL] gives '' (BigQuery docs, ARRAY_TO_STRING).
  const items = nt === undefined ? `list_filter(${a}, x -> x IS NOT NULL)` : `list_transform(${a}, x -> coalesce(x, ${nt}))`;
  return nullIfAnyNull(nt === undefined ? [a, d] : [a, d, nt], `array_to_string(${items}, ${d})`);
}

function arrayConcat(c: FnCall): string {
  return nullIfAnyNull(c.args, c.args.reduce((x, y) => `list_concat(${x}, ${y})`));
}

const firstLast = (which: 'first' | 'last') => (c: FnCall) => {
  const a = c.args[0];
  const err = fail(c, `'ARRAY_${which.toUpperCase()} cannot get the ${which} element of an empty array'`);
  return `CASE WHEN ${a} IS NULL THEN NULL WHEN len(${a}) = 0 THEN ${err} ELSE list_extract(${a}, ${which === 'first' ? 1 : -1}) END`;
};

/** ARRAY_SLICE(array, start_offset, end_offset): 0-based inclusive offsets, negative from the end. */
function arraySlice(c: FnCall): string {
  const [a, s, e] = c.args;
  const n = `len(${a})`;
  const from = `(CASE WHEN ${s} < 0 THEN greatest(${n} + ${s}, 0) ELSE ${s} END)`;
  const to = `(CASE WHEN ${e} < 0 THEN ${n} + ${e} ELSE least(${e}, ${n} - 1) END)`;
  return nullIfAnyNull(c.args, `CASE WHEN ${from} > ${to} THEN list_slice(${a}, 1, 0) ELSE list_slice(${a}, ${from} + 1, ${to} + 1) END`);
}

/** ARRAY_FIRST_N / ARRAY_LAST_N / ARRAY_REMOVE_FIRST_N / ARRAY_REMOVE_LAST_N. */
function firstN(kind: 'first' | 'last' | 'remove_first' | 'remove_last') {
  return (c: FnCall) => {
    const [a, k] = c.args;
    const neg = fail(c, `'The n argument to ARRAY_${kind.toUpperCase()}_N must not be negative'`);
    const body = {
      first: `list_slice(${a}, 1, ${k})`,
      last: `list_slice(${a}, greatest(len(${a}) - ${k} + 1, 1), len(${a}))`,
      remove_first: `list_slice(${a}, ${k} + 1, len(${a}))`,
      remove_last: `list_slice(${a}, 1, greatest(len(${a}) - ${k}, 0))`,
    }[kind];
    return nullIfAnyNull(c.args, `CASE WHEN ${k} < 0 THEN ${neg} ELSE ${body} END`);
  };
}

/** ARRAY_IS_DISTINCT: NULL counts as a value (two NULLs are duplicates). */
function arrayIsDistinct(c: FnCall): string {
  const a = c.args[0];
  const nulls = `len(list_filter(${a}, x -> x IS NULL))`;
  return `CASE WHEN ${a} IS NULL THEN NULL ELSE len(list_distinct(${a})) + least(${nulls}, 1) = len(${a}) END`;
}

/** GENERATE_ARRAY(start, end[, step]). */
function generateArray(c: FnCall): string {
  const [a, b] = c.args;
  const step = c.args[2] ?? '1';
  const zero = fail(c, `'Sequence step cannot be 0.'`);
  const el = c.returnType.kind === 'ARRAY' ? c.returnType.element : c.returnType;
  // BIGNUMERIC is text: its series is built exactly in BigInt (bignumeric-exact.ts).
  if (el.kind === 'BIGNUMERIC') return bigNumericSeries(c, MAX_GENERATED_ARRAY_ELEMENTS, zero, fail(c, q(BigQueryError.tooManyArrayElements(MAX_GENERATED_ARRAY_ELEMENTS).message)));
  const body =
    el.kind === 'INT64'
      ? `generate_series(${a}, ${b}, ${step})`
      : `list_transform(range(0, CAST(floor((${b} - ${a}) / ${step}) AS BIGINT) + 1), i -> CAST(${a} + i * ${step} AS ${c.duckType(el)}))`;
  const empty = `(${step} > 0 AND ${a} > ${b}) OR (${step} < 0 AND ${a} < ${b})`;
  // More elements than BigQuery generates is its error, checked before the list is built
  // (src/config/limits.ts); INT64 counts exactly in HUGEINT, the others in DOUBLE.
  const steps = el.kind === 'INT64' ? `((CAST(${b} AS HUGEINT) - ${a}) // ${step})` : `floor((CAST(${b} AS DOUBLE) - CAST(${a} AS DOUBLE)) / CAST(${step} AS DOUBLE))`;
  const many = `WHEN ${steps} >= ${MAX_GENERATED_ARRAY_ELEMENTS} THEN ${fail(c, q(BigQueryError.tooManyArrayElements(MAX_GENERATED_ARRAY_ELEMENTS).message))}`;
  return nullIfAnyNull([a, b, step], `CASE WHEN ${step} = 0 THEN ${zero} WHEN ${empty} THEN []::${c.duckType(c.returnType)} ${many} ELSE ${body} END`);
}

/** A lambda-taking function: the lambda is the last argument, already a DuckDB lambda. */
const withLambda = (duck: (c: FnCall) => string) => (c: FnCall) => {
  if (c.args.length < 2 || !/->|lambda/.test(c.args[c.args.length - 1])) throw BigQueryError.notSupported(`Function ${c.name.toUpperCase()} with a lambda argument`);
  return duck(c);
};

function arraySum(c: FnCall): string {
  const a = c.args[0];
  if (c.returnType.kind === 'INT64')
    return `CASE WHEN list_sum(${a}) NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${fail(c, `'int64 overflow'`)} ELSE CAST(list_sum(${a}) AS BIGINT) END`;
  return `CAST(list_sum(${a}) AS ${c.duckType(c.returnType)})`;
}

/** `WHEN <count> >= max THEN error` for GENERATE_DATE_ARRAY / GENERATE_TIMESTAMP_ARRAY (src/config/limits.ts). */
const tooMany = (c: FnCall, steps: string) =>
  `WHEN ${steps} >= ${MAX_GENERATED_ARRAY_ELEMENTS} THEN ${fail(c, q(BigQueryError.tooManyArrayElements(MAX_GENERATED_ARRAY_ELEMENTS).message))}`;


// ---------- arrays of dates and timestamps ----------

/**
 * The dates of `a` stepped by `m` months per element, `count` of them (SQL list), each element being
 * the previous one plus the step, so a month-end clamp carries forward (ZetaSQL reference evaluator:
 * GENERATE_DATE_ARRAY('2020-01-31', '2020-05-31', INTERVAL 1 MONTH) = [01-31, 02-29, 03-29, 04-29,
 * 05-29]). Element k's day is day(a) capped by the shortest month among elements 1..k: for each cap
 * v in 28, 29, 30 the first k whose month has at most v days is found once, outside the per-element
 * lambda (inside it DuckDB would rescan per element). A month step spans at most 119,988 elements.
 */
function monthSteps(a: string, m: string, count: string): string {
  const monthOf = (k: string) => `(${a} + to_months(${k} * ${m}))`;
  const firstAtMost = (v: number) => `c${v} := list_position(list_transform(range(0, ${count}), j -> day(last_day(${monthOf('j')})) <= ${v}), true) - 1`;
  const cap = `CASE WHEN k >= caps.c28 THEN 28 WHEN k >= caps.c29 THEN 29 WHEN k >= caps.c30 THEN 30 ELSE 31 END`;
  const day = `CAST(least(day(${a}), ${cap}) - 1 AS INTEGER)`;
  const capped = `list_transform([struct_pack(${[28, 29, 30].map(firstAtMost).join(', ')})], caps -> list_transform(range(0, ${count}), k -> CAST(date_trunc('month', ${monthOf('k')}) AS DATE) + ${day}))[1]`;
  // Days 1–28 exist in every month: no clamp, so no caps to find.
  return `CASE WHEN day(${a}) <= 28 THEN list_transform(range(0, ${count}), k -> CAST(${monthOf('k')} AS DATE)) ELSE ${capped} END`;
}

/**
 * GENERATE_DATE_ARRAY(start, end[, INTERVAL n DAY|WEEK|MONTH|QUARTER|YEAR]): dates from start towards
 * end (inclusive) by the step; [] when the step points away from end; NULL if any argument is NULL;
 * 'Sequence step cannot be 0.' for a zero step and BigQuery's element limit (src/config/limits.ts).
 * Month steps accumulate month-end clamps (monthSteps).
 */
function generateDateArray(c: FnCall): string {
  const [a, b] = c.args;
  const n = c.args[2] ?? '1';
  const part = c.args[3] ? datePart(c, 3) : 'DAY';
  const months: Record<string, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };
  const days: Record<string, number> = { DAY: 1, WEEK: 7 };
  let dates: string;
  // Elements up to end's month (day): no element past it is built, so a huge step cannot overflow.
  let count: string;
  if (months[part]) {
    // Month boundaries crossed (DuckDB's date_diff; year * 12 + month arithmetic plans ~10 ms slower).
    count = `abs(date_diff('month', ${a}, ${b})) // abs(${n} * ${months[part]}) + 1`;
    dates = monthSteps(a, `${n} * ${months[part]}`, count);
  } else if (days[part]) {
    count = `abs(${b} - ${a}) // abs(${n} * ${days[part]}) + 1`;
    dates = `list_transform(range(0, ${count}), k -> CAST(${a} + to_days(k * ${n} * ${days[part]}) AS DATE))`;
  } else throw BigQueryError.datePartNotSupported('GENERATE_DATE_ARRAY', part);
  const seq = `list_filter(${dates}, d -> CASE WHEN ${n} > 0 THEN d <= ${b} ELSE d >= ${b} END)`;
  return `CASE WHEN ${a} IS NULL OR ${b} IS NULL OR ${n} IS NULL THEN NULL WHEN ${n} = 0 THEN ${fail(c, `'Sequence step cannot be 0.'`)} WHEN (${n} > 0 AND ${a} > ${b}) OR (${n} < 0 AND ${a} < ${b}) THEN []::DATE[] ${tooMany(c, `(${count}) - 1`)} ELSE ${seq} END`;
}

function generateTimestampArray(c: FnCall): string {
  const [a, b, n] = c.args;
  const part = datePart(c, 3);
  const u = MICROS[part];
  if (!u) throw BigQueryError.datePartNotSupported('GENERATE_TIMESTAMP_ARRAY', part);
  return `CASE WHEN ${a} IS NULL OR ${b} IS NULL OR ${n} IS NULL THEN NULL WHEN ${n} = 0 THEN ${fail(c, `'Sequence step cannot be 0.'`)} WHEN (${n} > 0 AND ${a} > ${b}) OR (${n} < 0 AND ${a} < ${b}) THEN []::TIMESTAMPTZ[] ${tooMany(c, `(CAST(epoch_us(${b}) AS HUGEINT) - epoch_us(${a})) // (CAST(${n} AS HUGEINT) * ${u})`)} ELSE generate_series(${a}, ${b}, to_microseconds(${n} * ${u})) END`;
}

/** The array_functions page. */
export const ARRAY_FUNCTIONS: FnTable = {
  array_length: (c) => `CAST(len(${c.args[0]}) AS BIGINT)`,
  array_to_string: arrayToString,
  array_reverse: (c) => `list_reverse(${c.args[0]})`,
  array_concat: arrayConcat,
  array_first: firstLast('first'),
  array_last: firstLast('last'),
  array_slice: arraySlice,
  array_first_n: firstN('first'),
  array_last_n: firstN('last'),
  array_remove_first_n: firstN('remove_first'),
  array_remove_last_n: firstN('remove_last'),
  array_is_distinct: arrayIsDistinct,
  array_includes: (c) =>
    c.args.length === 2 && !/->/.test(c.args[1])
      ? nullIfAnyNull(c.args, `list_contains(${c.args[0]}, ${c.args[1]})`)
      : withLambda((d) => `len(list_filter(${d.args[0]}, ${d.args[1]})) > 0`)(c),
  array_includes_any: (c) => nullIfAnyNull(c.args, `list_has_any(${c.args[0]}, ${c.args[1]})`),
  array_includes_all: (c) => nullIfAnyNull(c.args, `list_has_all(${c.args[0]}, ${c.args[1]})`),
  array_min: (c) => (c.returnType.kind === 'BIGNUMERIC' ? bigNumericFromKey(`list_min(list_transform(${c.args[0]}, x -> ${bigNumericSortKey('x')}))`) : `list_min(${c.args[0]})`),
  array_max: (c) => (c.returnType.kind === 'BIGNUMERIC' ? bigNumericFromKey(`list_max(list_transform(${c.args[0]}, x -> ${bigNumericSortKey('x')}))`) : `list_max(${c.args[0]})`),
  array_sum: (c) => (c.returnType.kind === 'BIGNUMERIC' ? bigNumericArrayTotal(c, false) : arraySum(c)),
  array_avg: (c) => (c.returnType.kind === 'BIGNUMERIC' ? bigNumericArrayTotal(c, true) : `CAST(list_avg(${c.args[0]}) AS ${c.duckType(c.returnType)})`),
  array_filter: withLambda((c) => `list_filter(${c.args[0]}, ${c.args[1]})`),
  array_transform: withLambda((c) => `list_transform(${c.args[0]}, ${c.args[1]})`),
  generate_array: generateArray,
  array_offsets: (c) => nullIfAnyNull(c.args, `list_transform(list_filter(list_transform(${c.args[0]}, (e, i) -> {'e': e, 'i': i}), s -> s.e = ${c.args[1]}), s -> CAST(s.i - 1 AS BIGINT))`),
  array_find_all: { unsupported: 'ARRAY_FIND_ALL is not a BigQuery function' },
  // FLATTEN(path): ZetaSQL's FLATTEN rewriter turns it into array subqueries before lowering, so
  // the function never reaches this table (answered end to end: test/functions-flatten.test.ts,
  // docs array_functions flatten-1/-2/-3). Reaching it means the rewrite did not run.
  flatten: () => {
    throw BigQueryError.notSupported('FLATTEN outside the analyzer rewrite');
  },
  generate_date_array: generateDateArray,
  generate_timestamp_array: generateTimestampArray,
};
