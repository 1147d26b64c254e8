/**
 * Range functions (GoogleSQL "Range functions"). RANGE<T> is stored as STRUCT("start" T, "end" T);
 * a NULL bound is unbounded. Ranges are half-open: [start, end).
 */
import type { BqType } from '../types/types.js';
import type { FnCall, FnTable } from './registry.js';
import { fail, q } from './util.js';
import { BigQueryError } from '../errors/errors.js';
import { MAX_GENERATED_ARRAY_ELEMENTS } from '../config/limits.js';

const S = (r: string) => `struct_extract(${r}, 'start')`;
const E = (r: string) => `struct_extract(${r}, 'end')`;
const pack = (s: string, e: string) => `struct_pack("start" := ${s}, "end" := ${e})`;

/** start < end with NULL bounds unbounded (NULL start = −∞, NULL end = +∞). */
const before = (a: string, b: string) => `(${a} IS NULL OR ${b} IS NULL OR ${a} < ${b})`;

function rangeCtor(c: FnCall): string {
  const [s, e] = c.args;
  const err = fail(c, `'Range start element must be smaller than range end element'`);
  return `CASE WHEN ${before(s, e)} THEN ${pack(s, e)} ELSE ${err} END`;
}

function contains(c: FnCall): string {
  const [r, x] = c.args;
  if (c.argTypes[1]?.kind === 'RANGE')
    return `CASE WHEN ${r} IS NULL OR ${x} IS NULL THEN NULL ELSE (${S(r)} IS NULL OR (${S(x)} IS NOT NULL AND ${S(r)} <= ${S(x)})) AND (${E(r)} IS NULL OR (${E(x)} IS NOT NULL AND ${E(x)} <= ${E(r)})) END`;
  return `CASE WHEN ${r} IS NULL OR ${x} IS NULL THEN NULL ELSE (${S(r)} IS NULL OR ${S(r)} <= ${x}) AND (${E(r)} IS NULL OR ${x} < ${E(r)}) END`;
}

const overlaps = (a: string, b: string) => `(${before(S(a), E(b))} AND ${before(S(b), E(a))})`;

/** The larger start / smaller end, NULL meaning unbounded. */
const maxStart = (a: string, b: string) => `CASE WHEN ${S(a)} IS NULL THEN ${S(b)} WHEN ${S(b)} IS NULL THEN ${S(a)} ELSE greatest(${S(a)}, ${S(b)}) END`;
const minEnd = (a: string, b: string) => `CASE WHEN ${E(a)} IS NULL THEN ${E(b)} WHEN ${E(b)} IS NULL THEN ${E(a)} ELSE least(${E(a)}, ${E(b)}) END`;

const boundText = (x: string) => `coalesce(CAST(${x} AS VARCHAR), 'UNBOUNDED')`;
const rangeText = (r: string) => `'[' || ${boundText(S(r))} || ', ' || ${boundText(E(r))} || ')'`;

function intersect(c: FnCall): string {
  const [a, b] = c.args;
  const err = fail(c, `'Provided RANGE inputs: ' || ${rangeText(a)} || ' and ' || ${rangeText(b)} || ' do not overlap. Please check RANGE_OVERLAPS before calling RANGE_INTERSECT'`);
  return `CASE WHEN ${a} IS NULL OR ${b} IS NULL THEN NULL WHEN ${overlaps(a, b)} THEN ${pack(maxStart(a, b), minEnd(a, b))} ELSE ${err} END`;
}

/** GENERATE_RANGE_ARRAY(range, step[, include_last_partial_range]). */
function generateRangeArray(c: FnCall): string {
  const [r, step] = c.args;
  const partial = c.args[2] ?? 'TRUE';
  const rt = c.argTypes[0];
  const el: BqType = rt?.kind === 'RANGE' ? rt.element : { kind: 'DATE' };
  const t = c.duckType(el);
  const series = el.kind === 'TIMESTAMP' ? 'TIMESTAMPTZ' : 'TIMESTAMP';
  const starts = `list_filter(generate_series(CAST(${S(r)} AS ${series}), CAST(${E(r)} AS ${series}), ${step}), x -> x < ${E(r)})`;
  const ranges = `list_transform(list_filter(${starts}, x -> ${partial} OR x + ${step} <= ${E(r)}), x -> ${pack(`CAST(x AS ${t})`, `CAST(least(x + ${step}, ${E(r)}) AS ${t})`)})`;
  const unbounded = fail(c, `'GENERATE_RANGE_ARRAY does not support unbounded ranges'`);
  // More subranges than GENERATE_*_ARRAY build is refused before the list is built (src/config/limits.ts);
  // months count as 30 days here, close enough for a bound.
  const count = `(epoch(CAST(${E(r)} AS ${series})) - epoch(CAST(${S(r)} AS ${series}))) / nullif(epoch(${step}), 0)`;
  const many = `WHEN ${count} > ${MAX_GENERATED_ARRAY_ELEMENTS} THEN ${fail(c, q(BigQueryError.tooManyArrayElements(MAX_GENERATED_ARRAY_ELEMENTS).message))}`;
  // A zero or negative step: ZetaSQL's `step cannot be 0` / `step cannot be negative`.
  const badStep = `WHEN ${step} = INTERVAL 0 SECOND THEN ${fail(c, `'step cannot be 0'`)} WHEN ${step} < INTERVAL 0 SECOND THEN ${fail(c, `'step cannot be negative'`)}`;
  return `CASE WHEN ${r} IS NULL OR ${step} IS NULL THEN NULL WHEN ${S(r)} IS NULL OR ${E(r)} IS NULL THEN ${unbounded} ${badStep} ${many} ELSE ${ranges} END`;
}

/** The range_functions page. */
export const RANGE_FUNCTIONS: FnTable = {
  range: rangeCtor,
  range_start: (c) => S(c.args[0]),
  range_end: (c) => E(c.args[0]),
  range_contains: contains,
  range_overlaps: (c) => `CASE WHEN ${c.args[0]} IS NULL OR ${c.args[1]} IS NULL THEN NULL ELSE ${overlaps(c.args[0], c.args[1])} END`,
  range_intersect: intersect,
  generate_range_array: generateRangeArray,
  range_is_start_unbounded: (c) => `CASE WHEN ${c.args[0]} IS NULL THEN NULL ELSE struct_extract(${c.args[0]}, 'start') IS NULL END`,
  range_is_end_unbounded: (c) => `CASE WHEN ${c.args[0]} IS NULL THEN NULL ELSE struct_extract(${c.args[0]}, 'end') IS NULL END`,
};
