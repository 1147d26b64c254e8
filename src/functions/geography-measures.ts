/**
 * Geography functions (BigQuery "Geography functions"), measures: ST_DISTANCE, ST_MAXDISTANCE,
 * ST_LENGTH, ST_PERIMETER, ST_AREA, ST_AZIMUTH, ST_ANGLE, ST_LINELOCATEPOINT,
 * ST_HAUSDORFFDISTANCE and ST_HAUSDORFFDWITHIN. See geography.ts for the value model and the UDF protocol.
 *
 * Measures use BigQuery's spherical Earth (radius 6,371,010 m, S2Earth); `use_spheroid => TRUE`
 * measures on WGS84 with GeographicLib (ST_DISTANCE only between two points); the bearings live
 * in src/geo/bearing.ts.
 *
 * The discrete Hausdorff distance is "the greatest of all the distances from
 * a discrete point in one geography to the closest discrete point in another geography": over the
 * vertices, the directed distance from A to B is the largest, over A's vertices, of the distance to
 * B's closest vertex; undirected (`directed => FALSE`, the default) it is the larger of both
 * directions. Reference example: `LINESTRING(20 70, 70 60, 10 70, 70 70)` and
 * `LINESTRING(20 90, 30 90, 60 10, 90 10)` are 5802892.745488612 m apart, directed from the second
 * or undirected. Empty geographies give NULL; polygons are not answered ("not supported").
 * Signatures: src/analyzer/catalog-functions.ts.
 */
import { angleAt, azimuth, locate } from '../geo/bearing.js';
import * as m from '../geo/measure.js';
import { isEmpty, unsupported, type Geo } from '../geo/model.js';
import * as ops from '../geo/ops.js';
import { b, geo, geoCall, geoUdf as udf, num, spheroid } from './geography.js';
import type { FnTable } from './registry.js';

const nullable = (x: number | null): string | null => (x === null ? null : num(x));
udf('distance', 'ST_DISTANCE', ['VARCHAR', 'VARCHAR', 'BOOLEAN'], (x, y, s) => nullable(m.distance(geo(x), geo(y), s)));
udf('maxdistance', 'ST_MAXDISTANCE', ['VARCHAR', 'VARCHAR', 'BOOLEAN'], (x, y, s) => {
  if (s) unsupported('use_spheroid => TRUE');
  return nullable(m.maxDistance(geo(x), geo(y)));
});
udf('length', 'ST_LENGTH', ['VARCHAR', 'BOOLEAN'], (x, s) => num(m.length(geo(x), s)));
udf('perimeter', 'ST_PERIMETER', ['VARCHAR', 'BOOLEAN'], (x, s) => num(m.perimeter(geo(x), s)));
udf('area', 'ST_AREA', ['VARCHAR', 'BOOLEAN'], (x, s) => num(m.area(geo(x), s)));

/** The single point of a geography (BigQuery errors on anything else, the empty one included). */
const onePoint = (x: string, fn: string) => ops.singlePoint(geo(x), fn);

udf('azimuth', 'ST_AZIMUTH', ['VARCHAR', 'VARCHAR'], (a, b) => nullable(azimuth(onePoint(a, 'ST_AZIMUTH'), onePoint(b, 'ST_AZIMUTH'))));
udf('angle', 'ST_ANGLE', ['VARCHAR', 'VARCHAR', 'VARCHAR'], (a, b, c) =>
  nullable(angleAt(onePoint(a, 'ST_ANGLE'), onePoint(b, 'ST_ANGLE'), onePoint(c, 'ST_ANGLE'))),
);
udf('linelocatepoint', 'ST_LINELOCATEPOINT', ['VARCHAR', 'VARCHAR'], (l, p) =>
  num(locate(ops.singleLine(geo(l), 'ST_LINELOCATEPOINT'), onePoint(p, 'ST_LINELOCATEPOINT').v)),
);

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

/** The measures of the geography_functions page. */
export const GEOGRAPHY_MEASURE_FUNCTIONS: FnTable = {
  st_distance: (c) => geoCall(c, 'distance', [c.args[0], c.args[1], spheroid(c, 2)], 'double'),
  st_maxdistance: (c) => geoCall(c, 'maxdistance', [c.args[0], c.args[1], spheroid(c, 2)], 'double'),
  st_length: (c) => geoCall(c, 'length', [c.args[0], spheroid(c, 1)], 'double'),
  st_perimeter: (c) => geoCall(c, 'perimeter', [c.args[0], spheroid(c, 1)], 'double'),
  st_area: (c) => geoCall(c, 'area', [c.args[0], spheroid(c, 1)], 'double'),
  st_azimuth: (c) => geoCall(c, 'azimuth', c.args, 'double'),
  st_angle: (c) => geoCall(c, 'angle', c.args, 'double'),
  st_linelocatepoint: (c) => geoCall(c, 'linelocatepoint', c.args, 'double'),
  st_hausdorffdistance: (c) => geoCall(c, 'hausdorffdistance', [c.args[0], c.args[1], c.args[2] ?? 'FALSE'], 'double'),
  st_hausdorffdwithin: (c) => geoCall(c, 'hausdorffdwithin', [c.args[0], c.args[1], c.args[2], c.args[3] ?? 'FALSE'], 'bool'),
};
