/**
 * Geography functions (BigQuery "Geography functions"), aggregates and clustering: ST_UNION_AGG,
 * ST_CENTROID_AGG, ST_EXTENT, ST_CLUSTERDBSCAN (analytic, src/geo/dbscan.ts), and the rejected
 * ST_ACCUM and ST_NEAREST_NEIGHBORS. See geography.ts for the value model and the UDF protocol.
 *
 * Aggregates collect their inputs with list() and combine them in a UDF.
 */
import { dbscan } from '../geo/dbscan.js';
import { EMPTY, fail as geoFail, isEmpty, unsupported, type Geo } from '../geo/model.js';
import * as ops from '../geo/ops.js';
import { geo, geoCall, geoUdf as udf, wkt } from './geography.js';
import { aggregate, type FnCall, type FnTable } from './registry.js';

const items = (json: string): Geo[] => (JSON.parse(json) as (string | null)[]).filter((s): s is string => s !== null).map(geo);
udf('union_agg', 'ST_UNION_AGG', ['VARCHAR'], (j) => wkt(ops.union(items(j))));
udf('extent', 'ST_EXTENT', ['VARCHAR'], (j) => {
  const box = ops.boundingBox(items(j));
  return box && JSON.stringify(box);
});
udf('centroid_agg', 'ST_CENTROID_AGG', ['VARCHAR'], (j) => {
  const gs = items(j).filter((g) => !isEmpty(g));
  if (!gs.length) return wkt(EMPTY);
  // Only points, all distinct: then the centroid of the union and of the inputs agree.
  if (gs.some((g) => g.lines.length || g.polys.length)) unsupported('lines or polygons');
  const merged = ops.union(gs);
  if (merged.points.length !== gs.reduce((n, g) => n + g.points.length, 0)) unsupported('repeated points');
  return wkt(ops.centroid(merged));
});

/** An aggregate over GEOGRAPHY values: the non-NULL inputs as a JSON array for the UDF. */
const agg = (name: string, conv: 'text' | 'json' = 'text') => (c: FnCall) => {
  const x = c.args[0];
  return geoCall(c, name, [`CAST(to_json(${aggregate('list', c, [x], `${x} IS NOT NULL`)}) AS VARCHAR)`], conv);
};

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

/** The aggregate and clustering functions of the geography_functions page. */
export const GEOGRAPHY_AGGREGATE_FUNCTIONS: FnTable = {
  st_union_agg: agg('union_agg'),
  st_centroid_agg: agg('centroid_agg'),
  st_extent: agg('extent', 'json'),
  st_clusterdbscan: clusterDbscan,
  st_accum: { unsupported: 'ST_ACCUM is not in BigQuery\'s documentation, so its NULL handling is unknown (use ARRAY_AGG)' },
  st_nearest_neighbors: { unsupported: 'ST_NEAREST_NEIGHBORS needs a spatial index' },
};
