/**
 * Numbering and navigation functions (GoogleSQL "Numbering functions", "Navigation functions")
 * and PERCENTILE_CONT/DISC. These only occur as analytic calls: the lowering gives the call and
 * the window comes from `c.over` (applied by `windowed`) or is appended by the caller.
 * IGNORE NULLS / RESPECT NULLS map to DuckDB's modifiers of the same name.
 */
import { BigQueryError } from '../errors/errors.js';
import { windowed, type FnCall, type FnTable } from './registry.js';
import { bigNumericFromKey, bigNumericSortKey } from './bignumeric-exact.js';

const nulls = (c: FnCall) => (c.nullHandling === 'IGNORE' ? ' IGNORE NULLS' : '');

const plain = (duck: string) => (c: FnCall) => windowed(c, `${duck}()`);
const nav = (duck: string) => (c: FnCall) => windowed(c, `${duck}(${c.args.join(', ')}${nulls(c)})`);

function ntile(c: FnCall): string {
  const n = c.args[0];
  return windowed(c, `ntile(${n})`);
}

/**
 * PERCENTILE_CONT / PERCENTILE_DISC(x, p RESPECT NULLS): NULLs count as the smallest values
 * (navigation_functions examples: over `[0, 3, NULL, 1, 2]`, PERCENTILE_CONT 0 → NULL, 0.01 → 0,
 * 0.5 → 1, 0.9 → 2.6; PERCENTILE_DISC over `['c', NULL, 'b', 'a']`, 0 → NULL, 0.5 → 'a', 1 → 'c').
 * DISC takes the first value whose cumulative share reaches p (1-based index max(1, ceil(p·n)));
 * CONT interpolates at p·(n-1) between the neighbours, a NULL neighbour giving the other one.
 */
function respectNulls(kind: 'cont' | 'disc', c: FnCall): string {
  const [x, p] = c.args;
  const sorted = `list_sort(${windowed(c, `list(${x})`)}, 'ASC', 'NULLS FIRST')`;
  let body: string;
  if (kind === 'disc') body = `list_extract(s, CAST(greatest(1, ceil(${p} * len(s))) AS BIGINT))`;
  else {
    const pos = `(${p} * (len(s) - 1))`;
    const at = (f: string) => `CAST(list_extract(s, CAST(${f}(${pos}) AS BIGINT) + 1) AS DOUBLE)`;
    const [lo, hi] = [at('floor'), at('ceil')];
    body = `CASE WHEN ${lo} IS NULL THEN ${hi} WHEN ${hi} IS NULL THEN ${lo} ELSE ${lo} + (${pos} - floor(${pos})) * (${hi} - ${lo}) END`;
  }
  return `list_extract(list_transform([${sorted}], s -> ${body}), 1)`;
}

/** PERCENTILE_CONT / PERCENTILE_DISC(x, p): NULLs ignored unless RESPECT NULLS. */
function percentile(kind: 'cont' | 'disc') {
  return (c: FnCall) => {
    if (c.nullHandling === 'RESPECT') {
      if (kind === 'cont' && c.returnType.kind !== 'FLOAT64') throw BigQueryError.notSupported(`PERCENTILE_CONT of ${c.returnType.kind} with RESPECT NULLS`);
      if (c.returnType.kind === 'BIGNUMERIC') return bigNumericFromKey(respectNulls(kind, { ...c, args: [bigNumericSortKey(c.args[0]), c.args[1]] }));
      return respectNulls(kind, c);
    }
    // BIGNUMERIC (text): the quantile of its order-preserving keys (bignumeric-exact.ts), decoded.
    if (kind === 'disc' && c.returnType.kind === 'BIGNUMERIC') return bigNumericFromKey(windowed(c, `quantile_disc(${bigNumericSortKey(c.args[0])}, ${c.args[1]})`));
    return windowed(c, `quantile_${kind}(${c.args[0]}, ${c.args[1]})`);
  };
}

/** The numbering_functions and navigation_functions pages. */
export const WINDOW_FUNCTIONS: FnTable = {
  row_number: plain('row_number'),
  rank: plain('rank'),
  dense_rank: plain('dense_rank'),
  percent_rank: plain('percent_rank'),
  cume_dist: plain('cume_dist'),
  ntile,
  lag: nav('lag'),
  lead: nav('lead'),
  first_value: nav('first_value'),
  last_value: nav('last_value'),
  nth_value: nav('nth_value'),
  percentile_cont: percentile('cont'),
  percentile_disc: percentile('disc'),
};
