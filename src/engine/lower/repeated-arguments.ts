/**
 * Long arguments a function's lowering names more than once are bound once.
 *
 * Many lowerings repeat an argument's SQL (a check and then the value: `CASE WHEN b = 0 THEN
 * error(… a … b …) ELSE a / b END`). Nested calls multiply the copies at every level, so a chain
 * like `x / 2 / 2 / …` grew exponentially with its length — past DuckDB's parser and JavaScript's
 * longest string (a 500 "Invalid string length" for a valid query). An argument at least
 * REPEATED_ARGUMENT_MIN_CHARS long that the lowering names twice or more is passed instead through
 * a one-element `list_transform`, whose lambda names it as often as it likes:
 * `list_transform([{'a0': <arg>}], __arg1 -> <lowering over __arg1.a0>)[1]`. Short arguments (every
 * ordinary query) keep the inline form and its plans.
 *
 * Only for functions that evaluate every argument anyway: the bound arguments are evaluated for
 * every row, so the conditional functions (GoogleSQL "Conditional expressions": an argument is
 * evaluated only when its branch is taken) and AND/OR keep their copies.
 */
import type { FnCall } from '../../functions/registry.js';

/** Shortest argument SQL bound once when repeated; shorter copies cost less than the lambda. */
export const REPEATED_ARGUMENT_MIN_CHARS = 1024;

/** ZetaSQL names of functions that evaluate some arguments only conditionally (never bound). */
const CONDITIONAL = new Set([
  '$case_no_value', '$case_with_value', 'if', 'ifnull', 'coalesce', 'nullif', 'nullifzero', 'zeroifnull', 'iferror', 'iserror', 'nulliferror', '$and', '$or',
]);

/** Whether `name` (a bound-argument reference, `x.a3`) occurs at least twice in `sql` as a whole name. */
function namedTwice(sql: string, name: string): boolean {
  let n = 0;
  for (let at = sql.indexOf(name); at >= 0; at = sql.indexOf(name, at + name.length)) {
    const next = sql.charCodeAt(at + name.length);
    if (!(next >= 0x30 && next <= 0x39) && ++n >= 2) return true;
  }
  return false;
}

/** The deepest `__argN` lambda variable in `sql` (0 when none): a new binding takes the next name. */
function deepestBinding(sql: string): number {
  let d = 0;
  for (const m of sql.matchAll(/__arg(\d+)\b/g)) d = Math.max(d, Number(m[1]));
  return d;
}

/** Placeholder variable of the probe lowering (never part of the SQL produced). */
const PROBE = '__bqemu_probe';

/**
 * The lowering of `call` with its long repeated arguments bound once.
 *
 * Which long arguments the lowering repeats is read from a probe lowering over short placeholder
 * names, not by searching `sql`: in a deeply nested statement `sql` is the whole subtree, and
 * searching it at every level cost O(depth × size) (a fuzz run's deep-nesting statements spent
 * 40–150 ms per statement on the event loop there).
 * @param lower the function's lowering (called again over placeholder or bound names when an argument is long).
 * @param sql its SQL over the inline arguments, already computed.
 * @returns `sql` itself when no long argument is repeated or the function is conditional.
 */
export function bindRepeatedArguments(call: FnCall, lower: (c: FnCall) => string, sql: string): string {
  if (CONDITIONAL.has(call.name)) return sql;
  // An argument `sql` does not hold twice (shorter than two copies of it) needs no binding, whatever
  // the probe says: the probe's placeholders hide what a lowering reads from an argument's own SQL
  // (a checked FLOAT64 tree, src/functions/operators.ts `f64Tree`, or a scalar subquery compared in
  // a WHERE conjunct), so a bound argument lost those forms — TPC-H q01's `SUM(l_extendedprice *
  // (1 - l_discount) * (1 + l_tax))` evaluated a `list_transform` per row (lowered SQL 4.4× raw
  // DuckDB's CPU at SF 1). A length comparison: no search of `sql`.
  // A loop, not flatMap: a 100,000-item IN list made an array per argument here.
  const long: number[] = [];
  for (let i = 0; i < call.args.length; i++) {
    const a = call.args[i];
    if (a !== undefined && a.length >= REPEATED_ARGUMENT_MIN_CHARS && sql.length >= 2 * a.length) long.push(i);
  }
  if (!long.length) return sql;
  const probe = lower({ ...call, args: call.args.map((a, i) => (long.includes(i) ? `${PROBE}.a${i}` : a)) });
  const repeated = long.filter((i) => namedTwice(probe, `${PROBE}.a${i}`));
  if (!repeated.length) return sql;
  const v = `__arg${Math.max(...call.args.map((a) => (a === undefined ? 0 : deepestBinding(a)))) + 1}`;
  const args = call.args.map((a, i) => (repeated.includes(i) ? `${v}.a${i}` : a));
  const struct = `{${repeated.map((i) => `'a${i}': ${call.args[i]}`).join(', ')}}`;
  return `list_transform([${struct}], ${v} -> ${lower({ ...call, args })})[1]`;
}
