/**
 * Numbering and navigation functions (GoogleSQL "Numbering functions", "Navigation functions")
 * and PERCENTILE_CONT/DISC. These only occur as analytic calls: the lowering gives the call and
 * the window comes from `c.over` (applied by `windowed`) or is appended by the caller.
 * IGNORE NULLS / RESPECT NULLS map to DuckDB's modifiers of the same name.
 */
import { BigQueryError } from '../errors/errors.js';
import { registerFunctions, windowed, type FnCall, type FnTable } from './registry.js';

const nulls = (c: FnCall) => (c.nullHandling === 'IGNORE' ? ' IGNORE NULLS' : '');

const plain = (duck: string) => (c: FnCall) => windowed(c, `${duck}()`);
const nav = (duck: string) => (c: FnCall) => windowed(c, `${duck}(${c.args.join(', ')}${nulls(c)})`);

function ntile(c: FnCall): string {
  const n = c.args[0];
  return windowed(c, `ntile(${n})`);
}

/** PERCENTILE_CONT / PERCENTILE_DISC(x, p): NULLs ignored unless RESPECT NULLS. */
function percentile(kind: 'cont' | 'disc') {
  return (c: FnCall) => {
    if (c.nullHandling === 'RESPECT') throw BigQueryError.notSupported(`PERCENTILE_${kind.toUpperCase()} with RESPECT NULLS`);
    return windowed(c, `quantile_${kind}(${c.args[0]}, ${c.args[1]})`);
  };
}

const TABLE: FnTable = {
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

registerFunctions(TABLE);
