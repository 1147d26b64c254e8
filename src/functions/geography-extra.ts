/**
 * Geography functions, more: directions (ST_AZIMUTH, ST_ANGLE), positions along lines
 * (ST_LINELOCATEPOINT), KML (ST_GEOGFROMKML, ST_ASKML), S2 coverings (S2_COVERINGCELLIDS),
 * ST_UNARYUNION and ST_SIMPLIFY of point sets, and DBSCAN clustering (ST_CLUSTERDBSCAN). See
 * geography.ts for the value model and the UDF protocol; the geometry lives in src/geo
 * (bearing.ts, kml.ts, cells.ts, dbscan.ts).
 *
 * ST_GEOGFROMKML, ST_ASKML and ST_UNARYUNION are documented in the GoogleSQL reference and known
 * to the analyzer under BigQuery's options, but are absent from BigQuery's own function list.
 */
import { azimuth, angleAt, locate } from '../geo/bearing.js';
import { covering } from '../geo/cells.js';
import { dbscan } from '../geo/dbscan.js';
import { parseKml, toKml } from '../geo/kml.js';
import { fail as geoFail, unsupported, type Geo } from '../geo/model.js';
import * as m from '../geo/measure.js';
import * as ops from '../geo/ops.js';
import { build } from '../geo/parse.js';
import { geo, geoCall, geoUdf as udf, num, wkt } from './geography.js';
import { registerFunctions, type FnCall, type FnTable } from './registry.js';

// ---------- directions and positions ----------

/** The single point of a geography (BigQuery errors on anything else, the empty one included). */
const onePoint = (x: string, fn: string) => ops.singlePoint(geo(x), fn);
const nullable = (x: number | null): string | null => (x === null ? null : num(x));

udf('azimuth', 'ST_AZIMUTH', ['VARCHAR', 'VARCHAR'], (a, b) => nullable(azimuth(onePoint(a, 'ST_AZIMUTH'), onePoint(b, 'ST_AZIMUTH'))));
udf('angle', 'ST_ANGLE', ['VARCHAR', 'VARCHAR', 'VARCHAR'], (a, b, c) =>
  nullable(angleAt(onePoint(a, 'ST_ANGLE'), onePoint(b, 'ST_ANGLE'), onePoint(c, 'ST_ANGLE'))),
);
udf('linelocatepoint', 'ST_LINELOCATEPOINT', ['VARCHAR', 'VARCHAR'], (l, p) =>
  num(locate(ops.singleLine(geo(l), 'ST_LINELOCATEPOINT'), onePoint(p, 'ST_LINELOCATEPOINT').v)),
);

// ---------- KML ----------

udf('fromkml', 'ST_GEOGFROMKML', ['VARCHAR'], (s) => wkt(build(parseKml(s))));
udf('askml', 'ST_ASKML', ['VARCHAR'], (g) => toKml(geo(g)));

// ---------- coverings, unary union ----------

udf('covering', 'S2_COVERINGCELLIDS', ['VARCHAR', 'BIGINT', 'BIGINT', 'BIGINT', 'DOUBLE'], (g, lo, hi, n, buffer) =>
  JSON.stringify(covering(geo(g), Number(lo), Number(hi), Number(n), buffer).map(String)),
);

/**
 * ST_UNARYUNION: a GEOGRAPHY value is already a normalised point set, so the union of a point set
 * (or the empty geography) is the value itself. Lines and polygons go through S2BooleanOperation,
 * whose output (loop starts, split polylines) is not reproduced: not supported.
 */
udf('unaryunion', 'ST_UNARYUNION', ['VARCHAR'], (x) => {
  const g: Geo = geo(x);
  if (g.lines.length || g.polys.length) unsupported('lines or polygons (S2BooleanOperation output is not reproduced)');
  return wkt(g);
});

/**
 * ST_SIMPLIFY of points: S2Builder snaps each vertex to a site chosen among the input vertices,
 * sites at least the tolerance apart, so points farther apart than twice the tolerance all stay
 * as they are (and so does a single point). Closer points merge and lines and polygons are
 * simplified by S2Builder's edge-chain simplification, which is not reproduced: not supported.
 * Negative tolerances and ones above ~7800 km are errors (documented).
 */
udf('simplify', 'ST_SIMPLIFY', ['VARCHAR', 'DOUBLE'], (x, tolerance) => {
  if (!(tolerance >= 0)) geoFail(`tolerance must be non-negative: ${tolerance}`);
  if (tolerance > 7.8e6) geoFail(`tolerance is too large: ${tolerance}`);
  const g: Geo = geo(x);
  if (g.lines.length || g.polys.length) unsupported('lines or polygons (S2Builder edge-chain simplification is not reproduced)');
  for (let i = 0; i < g.points.length; i++)
    for (let j = i + 1; j < g.points.length; j++)
      if (m.distance(ops.pointsGeo([g.points[i]]), ops.pointsGeo([g.points[j]]))! <= 2 * tolerance) unsupported('points closer than twice the tolerance');
  return wkt(g);
});

// ---------- DBSCAN ----------

const clusterings = new Map<string, (number | null)[]>();
udf('dbscan', 'ST_CLUSTERDBSCAN', ['VARCHAR', 'DOUBLE', 'BIGINT', 'BIGINT'], (json, eps, minPts, row) => {
  const key = `${eps}|${minPts}|${json}`;
  let ids = clusterings.get(key);
  if (!ids) {
    if (!(eps >= 0)) geoFail(`epsilon must be non-negative: ${eps}`);
    if (minPts < 0n) geoFail(`minimum_geographies must be non-negative: ${minPts}`);
    const items = (JSON.parse(json) as (string | null)[]).map((s) => (s === null ? null : geo(s)));
    ids = dbscan(items, eps, Number(minPts));
    if (clusterings.size > 16) clusterings.clear();
    clusterings.set(key, ids);
  }
  const id = ids[Number(row) - 1];
  return id === null || id === undefined ? null : String(id);
});

/**
 * ST_CLUSTERDBSCAN(g, epsilon, minimum_geographies) OVER (…): the whole partition's geographies
 * (in the window's order) go to the UDF with the row's position in that order; the window frame
 * does not apply (DBSCAN sees the partition). Both window calls share the PARTITION BY / ORDER BY
 * text, so DuckDB sorts the partition once and the positions agree.
 */
function clusterDbscan(c: FnCall): string {
  const over = c.over ?? '';
  const spec = over.replace(/\s+(ROWS|RANGE)\s+BETWEEN\s+.*$/s, '');
  const all = `list(${c.args[0]}) OVER (${spec} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`;
  const row = `row_number() OVER (${over})`;
  return geoCall(c, 'dbscan', [`CAST(to_json(${all}) AS VARCHAR)`, `CAST(${c.args[1]} AS DOUBLE)`, `CAST(${c.args[2]} AS BIGINT)`, row], 'int');
}

const TABLE: FnTable = {
  st_azimuth: (c) => geoCall(c, 'azimuth', c.args, 'double'),
  st_angle: (c) => geoCall(c, 'angle', c.args, 'double'),
  st_linelocatepoint: (c) => geoCall(c, 'linelocatepoint', c.args, 'double'),
  st_geogfromkml: (c) => geoCall(c, 'fromkml', c.args),
  st_askml: (c) => geoCall(c, 'askml', c.args),
  st_unaryunion: (c) => geoCall(c, 'unaryunion', c.args),
  st_simplify: (c) => geoCall(c, 'simplify', [c.args[0], `CAST(${c.args[1]} AS DOUBLE)`]),
  s2_coveringcellids: (c) =>
    geoCall(
      c,
      'covering',
      [c.args[0], c.args[1] ?? 'CAST(0 AS BIGINT)', c.args[2] ?? 'CAST(30 AS BIGINT)', c.args[3] ?? 'CAST(8 AS BIGINT)', c.args[4] !== undefined ? `CAST(${c.args[4]} AS DOUBLE)` : 'CAST(0 AS DOUBLE)'],
      'json',
    ),
  st_clusterdbscan: clusterDbscan,
};

registerFunctions(TABLE);
