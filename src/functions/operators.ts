/**
 * Operators and conditional expressions (GoogleSQL "Operators" and "Conditional expressions"
 * pages), plus the core aggregates the foundation needs. ZetaSQL names operators `$name`.
 *
 * BigQuery runtime errors (DESIGN §3): `division by zero: 1 / 0` for `/`, DIV and MOD; integer
 * overflow texts are produced by the engine's DuckDB error mapping.
 */
import { aggregate, raise, registerFunctions, rename, template, type FnCall, type FnTable } from './registry.js';

const isInt = (c: FnCall, i: number) => c.argTypes[i]?.kind === 'INT64';
const isNumeric = (c: FnCall, i: number) => c.argTypes[i]?.kind === 'NUMERIC' || c.argTypes[i]?.kind === 'BIGNUMERIC';

/** A number's text as BigQuery prints it in error messages (`1`, not `1.0`). */
export const numText = (x: string): string => `regexp_replace(CAST(${x} AS VARCHAR), '\\.0$', '')`;

/** `x / y` with BigQuery's division-by-zero error, result cast to the GoogleSQL return type. */
function divide(c: FnCall): string {
  const [a, b] = c.args;
  const t = c.duckType(c.returnType);
  const q = isNumeric(c, 0) || isNumeric(c, 1) ? `CAST(${a} AS ${t}) / CAST(${b} AS ${t})` : `CAST(${a} AS DOUBLE) / CAST(${b} AS DOUBLE)`;
  return `CASE WHEN ${b} = 0 THEN ${raise(c, `'division by zero: ' || ${numText(a)} || ' / ' || ${numText(b)}`)} ELSE CAST(${q} AS ${t}) END`;
}

function binary(op: string) {
  return (c: FnCall) => `CAST((${c.args[0]} ${op} ${c.args[1]}) AS ${c.duckType(c.returnType)})`;
}

/** `a + b` / `a - b`: date/time arithmetic passes through DuckDB; numbers keep the return type. */
function additive(op: '+' | '-') {
  return (c: FnCall) => {
    const k0 = c.argTypes[0]?.kind;
    const k1 = c.argTypes[1]?.kind;
    if (k0 === 'DATE' && k1 === 'INT64') return `CAST(${c.args[0]} ${op} CAST(${c.args[1]} AS INTEGER) AS DATE)`;
    if (k0 === 'DATE' && k1 === 'DATE') return `(${c.args[0]} - ${c.args[1]}) * INTERVAL 1 DAY`;
    if (k0 === 'TIMESTAMP' && k1 === 'TIMESTAMP') return `to_microseconds(epoch_us(${c.args[0]}) - epoch_us(${c.args[1]}))`;
    if (isInt(c, 0) && isInt(c, 1)) return `(${c.args[0]} ${op} ${c.args[1]})`;
    return `CAST((${c.args[0]} ${op} ${c.args[1]}) AS ${c.duckType(c.returnType)})`;
  };
}

const cmp = (op: string) => template(`($1 ${op} $2)`);

/** CASE WHEN … (ZetaSQL `$case_no_value`: when1, then1, …, [else]). */
function caseNoValue(c: FnCall): string {
  const a = c.args;
  let s = 'CASE';
  for (let i = 0; i + 1 < a.length; i += 2) s += ` WHEN ${a[i]} THEN ${a[i + 1]}`;
  if (a.length % 2 === 1) s += ` ELSE ${a[a.length - 1]}`;
  return s + ' END';
}

/** CASE x WHEN … (ZetaSQL `$case_with_value`: value, when1, then1, …, [else]). */
function caseWithValue(c: FnCall): string {
  const [v, ...rest] = c.args;
  let s = `CASE ${v}`;
  for (let i = 0; i + 1 < rest.length; i += 2) s += ` WHEN ${rest[i]} THEN ${rest[i + 1]}`;
  if (rest.length % 2 === 1) s += ` ELSE ${rest[rest.length - 1]}`;
  return s + ' END';
}

/** CONCAT / `||`: NULL if any argument is NULL (DuckDB's concat skips NULLs). */
function concat(c: FnCall): string {
  if (c.returnType.kind === 'ARRAY') return c.args.reduce((x, y) => `list_concat(${x}, ${y})`);
  return `(${c.args.map((a) => `${a}`).join(' || ')})`;
}

/** arr[OFFSET(i)] / arr[ORDINAL(i)] with BigQuery's out-of-bounds error. */
function arrayAt(base: 0 | 1, safe: boolean) {
  return (c: FnCall) => {
    const [arr, i] = c.args;
    const idx = base === 0 ? `(${i}) + 1` : `(${i})`;
    const oob = safe || c.safe ? 'NULL' : `error('Array index ' || CAST(${i} AS VARCHAR) || ' is out of bounds')`;
    return `CASE WHEN ${arr} IS NULL OR ${i} IS NULL THEN NULL WHEN ${idx} < 1 OR ${idx} > len(${arr}) THEN ${oob} ELSE list_extract(${arr}, ${idx}) END`;
  };
}

function makeArray(c: FnCall): string {
  if (!c.args.length) return `CAST([] AS ${c.duckType(c.returnType)})`;
  return `CAST([${c.args.join(', ')}] AS ${c.duckType(c.returnType)})`;
}

function inList(c: FnCall): string {
  const [x, ...list] = c.args;
  return `(${x} IN (${list.join(', ')}))`;
}

function sum(c: FnCall): string {
  const t = c.duckType(c.returnType);
  return `CAST(${aggregate('sum', c)} AS ${t})`;
}

const TABLE: FnTable = {
  $add: additive('+'),
  $subtract: additive('-'),
  $multiply: (c) => (isInt(c, 0) && isInt(c, 1) ? `(${c.args[0]} * ${c.args[1]})` : binary('*')(c)),
  $divide: divide,
  $unary_minus: (c) => `(- ${c.args[0]})`,
  $equal: cmp('='),
  $not_equal: cmp('<>'),
  $less: cmp('<'),
  $less_or_equal: cmp('<='),
  $greater: cmp('>'),
  $greater_or_equal: cmp('>='),
  $and: (c) => `(${c.args.join(' AND ')})`,
  $or: (c) => `(${c.args.join(' OR ')})`,
  $not: template('(NOT $1)'),
  $is_null: template('($1 IS NULL)'),
  $is_true: template('($1 IS TRUE)'),
  $is_false: template('($1 IS FALSE)'),
  $is_distinct_from: template('($1 IS DISTINCT FROM $2)'),
  $is_not_distinct_from: template('($1 IS NOT DISTINCT FROM $2)'),
  $like: template('($1 LIKE $2 ESCAPE \'\\\')'),
  $in: inList,
  $in_array: template('list_contains($2, $1)'),
  $between: template('($1 BETWEEN $2 AND $3)'),
  $case_no_value: caseNoValue,
  $case_with_value: caseWithValue,
  $concat_op: concat,
  concat: concat,
  $make_array: makeArray,
  $array_at_offset: arrayAt(0, false),
  $array_at_ordinal: arrayAt(1, false),
  $safe_array_at_offset: arrayAt(0, true),
  $safe_array_at_ordinal: arrayAt(1, true),
  if: template('CASE WHEN $1 THEN $2 ELSE $3 END'),
  ifnull: rename('coalesce'),
  coalesce: rename('coalesce'),
  nullif: rename('nullif'),
  $count_star: () => 'count(*)',
  count: (c) => aggregate('count', c),
  sum,
  avg: (c) => `CAST(${aggregate('avg', c)} AS ${c.duckType(c.returnType)})`,
  min: (c) => aggregate('min', c),
  max: (c) => aggregate('max', c),
};

registerFunctions(TABLE);
