/**
 * Geography functions, part 3: ST_HAUSDORFFDISTANCE and ST_HAUSDORFFDWITHIN (BigQuery
 * geography_functions). The discrete Hausdorff distance is "the greatest of all the distances from
 * a discrete point in one geography to the closest discrete point in another geography": over the
 * vertices, the directed distance from A to B is the largest, over A's vertices, of the distance to
 * B's closest vertex; undirected (`directed => FALSE`, the default) it is the larger of both
 * directions. Reference example: `LINESTRING(20 70, 70 60, 10 70, 70 70)` and
 * `LINESTRING(20 90, 30 90, 60 10, 90 10)` are 5802892.745488612 m apart, directed from the second
 * or undirected. Empty geographies give NULL; polygons are not answered ("not supported").
 * Signatures: src/analyzer/extra-functions.ts.
 */
import * as m from '../geo/measure.js';
import { isEmpty, unsupported, type Geo } from '../geo/model.js';
import * as ops from '../geo/ops.js';
import { b, geo, geoCall, geoUdf as udf, num } from './geography.js';
import { registerFunctions, type FnTable } from './registry.js';

/** Directed discrete Hausdorff distance from a's vertices to c's vertices, in meters. */
function directedHausdorff(a: Geo, c: Geo): number {
  const [pa, pc] = [ops.dumpPoints(a), ops.dumpPoints(c)];
  let worst = 0;
  for (const p of pa) {
    let best = Infinity;
    for (const q of pc) best = Math.min(best, m.distance(p, q) ?? Infinity);
    worst = Math.max(worst, best);
  }
  return worst;
}

/** Discrete Hausdorff distance, or null when a geography is empty. */
export function hausdorff(a: Geo, c: Geo, directed: boolean): number | null {
  if (isEmpty(a) || isEmpty(c)) return null;
  if (a.polys.length || c.polys.length) unsupported('polygons');
  const d = directedHausdorff(a, c);
  return directed ? d : Math.max(d, directedHausdorff(c, a));
}

udf('hausdorffdistance', 'ST_HAUSDORFFDISTANCE', ['VARCHAR', 'VARCHAR', 'BOOLEAN'], (x, y, directed) => {
  const d = hausdorff(geo(x), geo(y), directed);
  return d === null ? null : num(d);
});
udf('hausdorffdwithin', 'ST_HAUSDORFFDWITHIN', ['VARCHAR', 'VARCHAR', 'DOUBLE', 'BOOLEAN'], (x, y, within, directed) => {
  const d = hausdorff(geo(x), geo(y), directed);
  return d === null ? null : b(d <= within);
});

const TABLE: FnTable = {
  st_hausdorffdistance: (c) => geoCall(c, 'hausdorffdistance', [c.args[0], c.args[1], c.args[2] ?? 'FALSE'], 'double'),
  st_hausdorffdwithin: (c) => geoCall(c, 'hausdorffdwithin', [c.args[0], c.args[1], c.args[2], c.args[3] ?? 'FALSE'], 'bool'),
};

registerFunctions(TABLE);
