/**
 * Geography functions (BigQuery "Geography functions"), predicates: ST_CONTAINS, ST_WITHIN,
 * ST_COVERS, ST_COVEREDBY, ST_INTERSECTS, ST_TOUCHES, ST_DISJOINT, ST_EQUALS, ST_DWITHIN,
 * ST_INTERSECTSBOX. See geography.ts for the value model and the UDF protocol.
 */
import * as m from '../geo/measure.js';
import { fail as geoFail, isEmpty, unsupported, type Geo } from '../geo/model.js';
import * as rel from '../geo/relate.js';
import { b, geo, geoCall, geoFn, geoUdf as udf, spheroid } from './geography.js';
import type { FnTable } from './registry.js';

const relation = (name: string, fn: string, f: (a: Geo, c: Geo) => boolean) =>
  udf(name, fn, ['VARCHAR', 'VARCHAR'], (x, y) => {
    const [g1, g2] = [geo(x), geo(y)];
    return b(!isEmpty(g1) && !isEmpty(g2) && f(g1, g2));
  });
relation('contains', 'ST_CONTAINS', rel.contains);
relation('within', 'ST_WITHIN', (x, y) => rel.contains(y, x));
relation('covers', 'ST_COVERS', rel.covers);
relation('coveredby', 'ST_COVEREDBY', (x, y) => rel.covers(y, x));
relation('intersects', 'ST_INTERSECTS', rel.intersects);
relation('touches', 'ST_TOUCHES', rel.touches);
udf('disjoint', 'ST_DISJOINT', ['VARCHAR', 'VARCHAR'], (x, y) => b(!rel.intersects(geo(x), geo(y))));
udf('equals', 'ST_EQUALS', ['VARCHAR', 'VARCHAR'], (x, y) => {
  const [g1, g2] = [geo(x), geo(y)];
  return b(isEmpty(g1) && isEmpty(g2) ? true : !isEmpty(g1) && !isEmpty(g2) && rel.equals(g1, g2));
});
udf('dwithin', 'ST_DWITHIN', ['VARCHAR', 'VARCHAR', 'DOUBLE', 'BOOLEAN'], (x, y, d, sph) => {
  const dist = m.distance(geo(x), geo(y), sph);
  return dist === null ? 'f' : b(dist <= d);
});
udf('intersectsbox', 'ST_INTERSECTSBOX', ['VARCHAR', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE'], (x, lng1, lat1, lng2, lat2) => {
  const g = geo(x);
  if (g.lines.length || g.polys.length) unsupported('lines or polygons');
  if (!(lat1 <= lat2) || lat1 < -90 || lat2 > 90) geoFail('Invalid latitude range');
  const inLng = (v: number) => (lng1 <= lng2 ? v >= lng1 && v <= lng2 : v >= lng1 || v <= lng2);
  return b(g.points.some((p) => inLng(p.lng) && p.lat >= lat1 && p.lat <= lat2));
});

/** The predicates of the geography_functions page. */
export const GEOGRAPHY_PREDICATE_FUNCTIONS: FnTable = {
  st_contains: geoFn('contains', 'bool'),
  st_within: geoFn('within', 'bool'),
  st_covers: geoFn('covers', 'bool'),
  st_coveredby: geoFn('coveredby', 'bool'),
  st_intersects: geoFn('intersects', 'bool'),
  st_touches: geoFn('touches', 'bool'),
  st_disjoint: geoFn('disjoint', 'bool'),
  st_equals: geoFn('equals', 'bool'),
  st_dwithin: (c) => geoCall(c, 'dwithin', [c.args[0], c.args[1], `CAST(${c.args[2]} AS DOUBLE)`, spheroid(c, 3)], 'bool'),
  st_intersectsbox: (c) => geoCall(c, 'intersectsbox', [c.args[0], ...c.args.slice(1).map((a) => `CAST(${a} AS DOUBLE)`)], 'bool'),
};
