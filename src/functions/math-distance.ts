/**
 * Vector distance functions (BigQuery "Mathematical functions": COSINE_DISTANCE,
 * EUCLIDEAN_DISTANCE). A vector is either dense, ARRAY<FLOAT64>, or sparse,
 * ARRAY<STRUCT<dimension INT64|STRING, magnitude FLOAT64>> (dimensions absent from one vector have
 * magnitude 0). The analyzer signatures are in src/analyzer/catalog-functions.ts.
 *
 * - a NULL vector gives NULL; a NULL element is an error;
 * - dense vectors of different lengths are an error (docs example
 *   `COSINE_DISTANCE([9.0, 7.0], [8.0, 4.0, 5.0])` → error);
 * - a sparse vector repeating a dimension is an error (`[(1, 9.0), (2, 7.0), (2, 8.0)]` → error);
 * - COSINE_DISTANCE against a zero vector is an error (`COSINE_DISTANCE([0.0, 0.0], [3.0, 4.0])`);
 * - COSINE_DISTANCE = 1 - a·b / (|a| |b|); EUCLIDEAN_DISTANCE = sqrt(Σ (aᵢ - bᵢ)²)
 *   (docs: `COSINE_DISTANCE([1.0, 2.0], [3.0, 4.0])` ≈ 0.016130, `EUCLIDEAN_DISTANCE` of the same ≈ 2.828).
 */
import { duckFieldName } from '../types/duckdb-types.js';
import type { BqType } from '../types/types.js';
import type { FnCall, FnTable } from './registry.js';
import { fail, q } from './util.js';

/** Field accessors of a sparse vector's element struct, or undefined for a dense vector. */
function sparseFields(t: BqType | undefined): { dim: (x: string) => string; mag: (x: string) => string } | undefined {
  if (t?.kind !== 'ARRAY' || t.element.kind !== 'STRUCT') return undefined;
  const el = t.element;
  const f = (i: number) => (x: string) => `struct_extract(${x}, ${q(duckFieldName(el, i))})`;
  return { dim: f(0), mag: f(1) };
}

const sum = (list: string) => `coalesce(list_sum(${list}), 0)::DOUBLE`;

/** Checks shared by both functions, then `body`; NULL when either vector is NULL. */
function guarded(c: FnCall, body: string): string {
  const [a, b] = c.args;
  const sp = sparseFields(c.argTypes[0]);
  const checks: string[] = [];
  if (sp) {
    for (const v of [a, b]) {
      checks.push(`WHEN list_bool_or(list_transform(${v}, x -> x IS NULL OR ${sp.dim('x')} IS NULL OR ${sp.mag('x')} IS NULL)) THEN ${fail(c, `'Cannot compute the distance of a vector with a NULL element'`)}`);
      checks.push(`WHEN len(list_distinct(list_transform(${v}, x -> ${sp.dim('x')}))) <> len(${v}) THEN ${fail(c, `'Duplicate dimension found in a sparse vector'`)}`);
    }
  } else {
    checks.push(`WHEN list_bool_or(list_transform(${a}, x -> x IS NULL)) OR list_bool_or(list_transform(${b}, x -> x IS NULL)) THEN ${fail(c, `'Cannot compute the distance of a vector with a NULL element'`)}`);
    checks.push(`WHEN len(${a}) <> len(${b}) THEN ${fail(c, `'Array length mismatch: ' || len(${a}) || ' and ' || len(${b})`)}`);
  }
  return `(CASE WHEN ${a} IS NULL OR ${b} IS NULL THEN NULL ${checks.join(' ')} ELSE ${body} END)`;
}

/** Σ aᵢ·bᵢ */
function dot(c: FnCall): string {
  const [a, b] = c.args;
  const sp = sparseFields(c.argTypes[0]);
  if (!sp) return sum(`list_transform(range(1, len(${a}) + 1), i -> list_extract(${a}, i) * list_extract(${b}, i))`);
  const other = (x: string) => `coalesce(list_extract(list_transform(list_filter(${b}, y -> ${sp.dim('y')} = ${sp.dim(x)}), y -> ${sp.mag('y')}), 1), 0)`;
  return sum(`list_transform(${a}, x -> ${sp.mag('x')} * ${other('x')})`);
}

/** Σ vᵢ² */
function squares(c: FnCall, v: string): string {
  const sp = sparseFields(c.argTypes[0]);
  return sum(sp ? `list_transform(${v}, x -> ${sp.mag('x')} * ${sp.mag('x')})` : `list_transform(${v}, x -> x * x)`);
}

function cosineDistance(c: FnCall): string {
  const [a, b] = c.args;
  const na = `sqrt(${squares(c, a)})`;
  const nb = `sqrt(${squares(c, b)})`;
  const zero = `WHEN ${na} = 0 OR ${nb} = 0 THEN ${fail(c, `'Cannot compute cosine distance against zero vector'`)}`;
  return guarded(c, `(CASE ${zero} ELSE 1 - ${dot(c)} / (${na} * ${nb}) END)`);
}

function euclideanDistance(c: FnCall): string {
  const [a, b] = c.args;
  const sp = sparseFields(c.argTypes[0]);
  if (!sp) return guarded(c, `sqrt(${sum(`list_transform(range(1, len(${a}) + 1), i -> (list_extract(${a}, i) - list_extract(${b}, i)) ** 2)`)})`);
  const inB = (x: string) => `list_filter(${b}, y -> ${sp.dim('y')} = ${sp.dim(x)})`;
  const fromA = sum(`list_transform(${a}, x -> (${sp.mag('x')} - coalesce(list_extract(list_transform(${inB('x')}, y -> ${sp.mag('y')}), 1), 0)) ** 2)`);
  const onlyB = sum(`list_transform(list_filter(${b}, y -> NOT coalesce(list_bool_or(list_transform(${a}, x -> ${sp.dim('x')} = ${sp.dim('y')})), false)), y -> ${sp.mag('y')} * ${sp.mag('y')})`);
  return guarded(c, `sqrt(${fromA} + ${onlyB})`);
}

/** COSINE_DISTANCE and EUCLIDEAN_DISTANCE of the mathematical_functions page. */
export const MATH_DISTANCE_FUNCTIONS: FnTable = {
  cosine_distance: cosineDistance,
  euclidean_distance: euclideanDistance,
};
