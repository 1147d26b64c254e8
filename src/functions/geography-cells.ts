/**
 * Geography functions (BigQuery "Geography functions"), cell encodings: ST_GEOHASH,
 * ST_GEOGPOINTFROMGEOHASH, and the S2 functions S2_CELLIDFROMPOINT and S2_COVERINGCELLIDS (the
 * cell geometry lives in src/geo/cells.ts). See geography.ts for the value model and the UDF protocol.
 */
import { cellIdOf, covering, geohash, geohashCenter } from '../geo/cells.js';
import { fail as geoFail, isEmpty } from '../geo/model.js';
import * as ops from '../geo/ops.js';
import { geo, geoCall, geoFn, geoUdf as udf, wkt } from './geography.js';
import type { FnTable } from './registry.js';

udf('geohash', 'ST_GEOHASH', ['VARCHAR', 'BIGINT'], (x, n) => {
  const g = geo(x);
  if (isEmpty(g)) return null;
  if (n <= 0n || n > 20n) geoFail(`maxchars must be between 1 and 20: ${n}`);
  return geohash(ops.singlePoint(g, 'ST_GEOHASH'), Number(n));
});
udf('frogeohash', 'ST_GEOGPOINTFROMGEOHASH', ['VARCHAR'], (h) => wkt(ops.pointsGeo([geohashCenter(h)])));
udf('cellid', 'S2_CELLIDFROMPOINT', ['VARCHAR', 'BIGINT'], (x, level) => {
  const g = geo(x);
  return String(cellIdOf(ops.singlePoint(g, 'S2_CELLIDFROMPOINT'), Number(level)));
});

udf('covering', 'S2_COVERINGCELLIDS', ['VARCHAR', 'BIGINT', 'BIGINT', 'BIGINT', 'DOUBLE'], (g, lo, hi, n, buffer) =>
  JSON.stringify(covering(geo(g), Number(lo), Number(hi), Number(n), buffer).map(String)),
);

/** The geohash and S2 cell functions of the geography_functions page. */
export const GEOGRAPHY_CELL_FUNCTIONS: FnTable = {
  st_geohash: (c) => geoCall(c, 'geohash', [c.args[0], c.args[1] ?? 'CAST(20 AS BIGINT)']),
  st_geogpointfromgeohash: geoFn('frogeohash'),
  s2_cellidfrompoint: (c) => geoCall(c, 'cellid', [c.args[0], c.args[1] ?? 'CAST(30 AS BIGINT)'], 'int'),
  s2_coveringcellids: (c) =>
    geoCall(
      c,
      'covering',
      [c.args[0], c.args[1] ?? 'CAST(0 AS BIGINT)', c.args[2] ?? 'CAST(30 AS BIGINT)', c.args[3] ?? 'CAST(8 AS BIGINT)', c.args[4] !== undefined ? `CAST(${c.args[4]} AS DOUBLE)` : 'CAST(0 AS DOUBLE)'],
      'json',
    ),
};
