/**
 * Geography functions (GoogleSQL "Geography functions"): the value model and the UDF protocol,
 * and the constructors, parsers (KML included), formatters and accessors. GEOGRAPHY values are
 * DuckDB VARCHAR holding BigQuery's WKT text; every function runs as a JS UDF over the S2-based
 * model in src/geo (spherical Earth, BigQuery's normal form and 15-digit coordinates).
 *
 * UDF protocol: a geography UDF returns its result as text, or an error marker — chr(1) + message
 * for BigQuery runtime errors (NULL under SAFE.), chr(2) + message for forms the emulator does
 * not answer exactly (always raised, "not supported"). `geoCall` turns the text into the SQL
 * result type. The predicates, measures, transformations, aggregates and cell encodings are in
 * geography-predicates.ts, geography-measures.ts, geography-transformations.ts,
 * geography-aggregates.ts and geography-cells.ts.
 */
import { GeoError, GeoUnsupported, checkLine, dimension, fail as geoFail, isEmpty, makePoly, numComponents, pt, validatePolys, type Geo, type Pt } from '../geo/model.js';
import { parseKml, toKml } from '../geo/kml.js';
import { build, parseGeoJson, parseWkb, parseWkt } from '../geo/parse.js';
import { toGeoJson, toWkb, toWkt } from '../geo/write.js';
import * as ops from '../geo/ops.js';
import { defineUdf, type UdfType } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { fail } from './util.js';

// ---------- the UDF protocol ----------

const cache = new Map<string, Geo>();
/** A stored GEOGRAPHY value (WKT) as the model. */
export function geo(wkt: string): Geo {
  let g = cache.get(wkt);
  if (!g) {
    g = build(parseWkt(wkt));
    if (cache.size > 2000) cache.clear();
    cache.set(wkt, g);
  }
  return g;
}

export const wkt = (g: Geo): string => toWkt(g);

type Js<T extends UdfType> = T extends 'VARCHAR' ? string : T extends 'BLOB' ? Uint8Array : T extends 'BIGINT' ? bigint : T extends 'DOUBLE' ? number : boolean;

/** Declares a geography UDF (`bq_geo_<name>`) whose errors follow the protocol above. */
export function geoUdf<P extends UdfType[]>(name: string, fn: string, params: [...P], body: (...args: { [K in keyof P]: Js<P[K]> }) => string | null): void {
  defineUdf(`bq_geo_${name}`, params, 'VARCHAR', ((...args: { [K in keyof P]: Js<P[K]> }) => {
    try {
      return body(...args);
    } catch (e) {
      if (e instanceof GeoUnsupported) return `\u0002${fn} with ${e.message} is not supported by bqemu`;
      if (e instanceof GeoError) return `\u0001${fn} failed: ${e.message}`;
      const m = (e as Error)?.message;
      if (m && /is not supported by bqemu$/.test(m)) return `\u0002${m}`;
      return `\u0001${fn} failed: ${m ?? String(e)}`;
    }
  }) as never);
}

/** How the UDF text becomes the SQL result. */
export type Conv = 'text' | 'double' | 'bool' | 'int' | 'bytes' | 'json';

/** `bq_geo_<name>(args)` with the error markers raised (or NULL under SAFE.) and the text converted. */
export function geoCall(c: FnCall, name: string, args: string[], conv: Conv = 'text'): string {
  const value = (r: string): string => {
    switch (conv) {
      case 'double':
        return `CAST(${r} AS DOUBLE)`;
      case 'bool':
        return `(${r} = 't')`;
      case 'int':
        return `CAST(${r} AS BIGINT)`;
      case 'bytes':
        return `unhex(${r})`;
      case 'json':
        return `CAST(CAST(${r} AS JSON) AS ${c.duckType(c.returnType)})`;
      default:
        return r;
    }
  };
  const call = `bq_geo_${name}(${args.join(', ')})`;
  return `list_extract(list_transform([${call}], r -> CASE WHEN starts_with(r, chr(1)) THEN ${fail(c, 'substr(r, 2)')} WHEN starts_with(r, chr(2)) THEN error(substr(r, 2)) ELSE ${value('r')} END), 1)`;
}

/** A lowering calling `bq_geo_<name>` with the call's arguments. */
export const geoFn =
  (name: string, conv: Conv = 'text') =>
  (c: FnCall): string =>
    geoCall(c, name, c.args, conv);

const udf = geoUdf;

export const b = (x: boolean): string => (x ? 't' : 'f');
export const num = (x: number): string => (Number.isNaN(x) ? 'NaN' : x === Infinity ? 'Infinity' : x === -Infinity ? '-Infinity' : String(x));

// ---------- constructors and parsers ----------

udf('point', 'ST_GEOGPOINT', ['DOUBLE', 'DOUBLE'], (x, y) => wkt(ops.pointsGeo([pt(x, y)])));

/** Vertices of the points and linestrings given to ST_MAKELINE, in order. */
function lineVertices(gs: Geo[]): Pt[] {
  const out: Pt[] = [];
  for (const g of gs) {
    if (g.polys.length || (g.points.length && g.lines.length) || g.points.length > 1 || g.lines.length > 1) geoFail('ST_MakeLine only accepts points and linestrings');
    out.push(...g.points, ...g.lines.flat());
  }
  return out;
}
udf('makeline2', 'ST_MAKELINE', ['VARCHAR', 'VARCHAR'], (a, c) => wkt(ops.lineGeo(checkLine(lineVertices([geo(a), geo(c)])))));
udf('makeline', 'ST_MAKELINE', ['VARCHAR'], (arr) => {
  const items = JSON.parse(arr) as (string | null)[];
  if (items.some((x) => x === null)) return null;
  return wkt(ops.lineGeo(checkLine(lineVertices(items.map((x) => geo(x!))))));
});

/** A ring for ST_MAKEPOLYGON from a linestring (closed when it is not). */
function ringOf(g: Geo): Pt[] {
  if (isEmpty(g)) geoFail('ST_MakePolygon does not accept empty geographies');
  if (g.lines.length !== 1 || g.points.length || g.polys.length) geoFail('ST_MakePolygon only accepts linestrings');
  const l = g.lines[0];
  return l[0].v.every((x, i) => x === l[l.length - 1].v[i]) ? l : [...l, l[0]];
}
function makePolygon(rings: Pt[][], oriented: boolean): string {
  const p = makePoly(rings, oriented);
  validatePolys([p]);
  return wkt({ points: [], lines: [], polys: [p] });
}
udf('makepolygon', 'ST_MAKEPOLYGON', ['VARCHAR', 'VARCHAR'], (shell, holes) => {
  const hs = JSON.parse(holes) as (string | null)[];
  if (hs.some((x) => x === null)) return null;
  return makePolygon([ringOf(geo(shell)), ...hs.map((h) => ringOf(geo(h!)))], false);
});
udf('makepolygonoriented', 'ST_MAKEPOLYGONORIENTED', ['VARCHAR'], (arr) => {
  const rs = JSON.parse(arr) as (string | null)[];
  if (rs.some((x) => x === null)) return null;
  if (!rs.length) return wkt({ points: [], lines: [], polys: [] });
  return makePolygon(rs.map((h) => ringOf(geo(h!))), true);
});

udf('fromtext', 'ST_GEOGFROMTEXT', ['VARCHAR', 'BOOLEAN', 'BOOLEAN', 'BOOLEAN'], (s, oriented, planar, makeValid) => {
  try {
    return wkt(build(parseWkt(s), { oriented, planar }));
  } catch (e) {
    if (makeValid && e instanceof GeoError) throw new GeoUnsupported('make_valid => TRUE on invalid input');
    throw e;
  }
});
udf('fromgeojson', 'ST_GEOGFROMGEOJSON', ['VARCHAR', 'BOOLEAN'], (s, makeValid) => {
  try {
    return wkt(build(parseGeoJson(s), { planar: true }));
  } catch (e) {
    if (makeValid && e instanceof GeoError) throw new GeoUnsupported('make_valid => TRUE on invalid input');
    throw e;
  }
});
udf('fromwkb', 'ST_GEOGFROMWKB', ['BLOB', 'BOOLEAN', 'BOOLEAN', 'BOOLEAN'], (bytes, oriented, planar, makeValid) => {
  try {
    return wkt(build(parseWkb(bytes), { oriented, planar }));
  } catch (e) {
    if (makeValid && e instanceof GeoError) throw new GeoUnsupported('make_valid => TRUE on invalid input');
    throw e;
  }
});
udf('fromwkbhex', 'ST_GEOGFROMWKB', ['VARCHAR', 'BOOLEAN', 'BOOLEAN', 'BOOLEAN'], (hex, oriented, planar, makeValid) => {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) geoFail('Invalid hex string');
  const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
  try {
    return wkt(build(parseWkb(bytes), { oriented, planar }));
  } catch (e) {
    if (makeValid && e instanceof GeoError) throw new GeoUnsupported('make_valid => TRUE on invalid input');
    throw e;
  }
});

// ---------- formatters and accessors ----------

udf('astext', 'ST_ASTEXT', ['VARCHAR'], (g) => wkt(geo(g)));
udf('asgeojson', 'ST_ASGEOJSON', ['VARCHAR'], (g) => toGeoJson(geo(g)));
udf('asbinary', 'ST_ASBINARY', ['VARCHAR'], (g) => Buffer.from(toWkb(geo(g))).toString('hex'));
udf('x', 'ST_X', ['VARCHAR'], (g) => num(ops.singlePoint(geo(g), 'ST_X').lng));
udf('y', 'ST_Y', ['VARCHAR'], (g) => num(ops.singlePoint(geo(g), 'ST_Y').lat));
udf('numpoints', 'ST_NUMPOINTS', ['VARCHAR'], (g) => String(ops.numPoints(geo(g))));
udf('geometrytype', 'ST_GEOMETRYTYPE', ['VARCHAR'], (g) => ops.geometryType(geo(g)));
udf('dimension', 'ST_DIMENSION', ['VARCHAR'], (g) => String(dimension(geo(g))));
udf('isempty', 'ST_ISEMPTY', ['VARCHAR'], (g) => b(isEmpty(geo(g))));
udf('iscollection', 'ST_ISCOLLECTION', ['VARCHAR'], (g) => b(numComponents(geo(g)) > 1));
udf('numgeometries', 'ST_NUMGEOMETRIES', ['VARCHAR'], (g) => String(numComponents(geo(g))));
udf('isclosed', 'ST_ISCLOSED', ['VARCHAR'], (g) => b(ops.isClosed(geo(g))));
udf('isring', 'ST_ISRING', ['VARCHAR'], (g) => b(ops.isRing(geo(g))));
udf('startpoint', 'ST_STARTPOINT', ['VARCHAR'], (g) => wkt(ops.pointN(geo(g), 1)));
udf('endpoint', 'ST_ENDPOINT', ['VARCHAR'], (g) => wkt(ops.pointN(geo(g), -1)));
udf('pointn', 'ST_POINTN', ['VARCHAR', 'BIGINT'], (g, n) => wkt(ops.pointN(geo(g), Number(n))));
udf('exteriorring', 'ST_EXTERIORRING', ['VARCHAR'], (g) => wkt(ops.exteriorRing(geo(g))));
udf('interiorrings', 'ST_INTERIORRINGS', ['VARCHAR'], (g) => JSON.stringify(ops.interiorRings(geo(g)).map(wkt)));
udf('dump', 'ST_DUMP', ['VARCHAR', 'BIGINT'], (g, d) => JSON.stringify(ops.dump(geo(g), d < 0n ? undefined : Number(d)).map(wkt)));
udf('dumppoints', 'ST_DUMPPOINTS', ['VARCHAR'], (g) => JSON.stringify(ops.dumpPoints(geo(g)).map(wkt)));

const asJsonText = (c: FnCall, i: number): string => `CAST(to_json(${c.args[i]}) AS VARCHAR)`;
const boolArg = (c: FnCall, i: number): string => c.args[i] ?? 'FALSE';

// ---------- KML ----------

udf('fromkml', 'ST_GEOGFROMKML', ['VARCHAR'], (s) => wkt(build(parseKml(s))));
udf('askml', 'ST_ASKML', ['VARCHAR'], (g) => toKml(geo(g)));

/** The `use_spheroid` argument at index `i` of a measure or predicate call, FALSE when omitted. */
export const spheroid = (c: FnCall, i: number): string => c.args[i] ?? 'FALSE';

/** The constructors, parsers, formatters and accessors of the geography_functions page. */
export const GEOGRAPHY_FUNCTIONS: FnTable = {
  st_geogpoint: geoFn('point'),
  st_makeline: (c) => (c.args.length === 2 ? geoCall(c, 'makeline2', c.args) : geoCall(c, 'makeline', [asJsonText(c, 0)])),
  st_makepolygon: (c) => geoCall(c, 'makepolygon', [c.args[0], c.args[1] !== undefined ? asJsonText(c, 1) : `'[]'`]),
  st_makepolygonoriented: (c) => geoCall(c, 'makepolygonoriented', [asJsonText(c, 0)]),
  st_geogfromtext: (c) => geoCall(c, 'fromtext', [c.args[0], boolArg(c, 1), boolArg(c, 2), boolArg(c, 3)]),
  st_geogfromgeojson: (c) => geoCall(c, 'fromgeojson', [c.args[0], boolArg(c, 1)]),
  st_geogfromwkb: (c) =>
    geoCall(c, c.argTypes[0]?.kind === 'STRING' ? 'fromwkbhex' : 'fromwkb', [c.args[0], boolArg(c, 1), boolArg(c, 2), boolArg(c, 3)]),
  st_geogfrom: (c) => {
    const s = c.args[0];
    if (c.argTypes[0]?.kind === 'BYTES') return geoCall(c, 'fromwkb', [s, 'FALSE', 'FALSE', 'FALSE']);
    // STRING: GeoJSON when it opens with '{', hex WKB when it is all hex digits, else WKT.
    return `CASE WHEN starts_with(ltrim(${s}), '{') THEN ${geoCall(c, 'fromgeojson', [s, 'FALSE'])} WHEN regexp_full_match(${s}, '([0-9a-fA-F]{2})+') THEN ${geoCall(c, 'fromwkbhex', [s, 'FALSE', 'FALSE', 'FALSE'])} ELSE ${geoCall(c, 'fromtext', [s, 'FALSE', 'FALSE', 'FALSE'])} END`;
  },
  st_astext: geoFn('astext'),
  st_asgeojson: geoFn('asgeojson'),
  st_asbinary: geoFn('asbinary', 'bytes'),
  st_x: geoFn('x', 'double'),
  st_y: geoFn('y', 'double'),
  st_numpoints: geoFn('numpoints', 'int'),
  st_npoints: geoFn('numpoints', 'int'),
  st_geometrytype: geoFn('geometrytype'),
  st_dimension: geoFn('dimension', 'int'),
  st_isempty: geoFn('isempty', 'bool'),
  st_iscollection: geoFn('iscollection', 'bool'),
  st_numgeometries: geoFn('numgeometries', 'int'),
  st_isclosed: geoFn('isclosed', 'bool'),
  st_isring: geoFn('isring', 'bool'),
  st_startpoint: geoFn('startpoint'),
  st_endpoint: geoFn('endpoint'),
  st_pointn: geoFn('pointn'),
  st_exteriorring: geoFn('exteriorring'),
  st_interiorrings: geoFn('interiorrings', 'json'),
  st_dump: (c) => geoCall(c, 'dump', [c.args[0], c.args[1] ?? 'CAST(-1 AS BIGINT)'], 'json'),
  st_dumppoints: geoFn('dumppoints', 'json'),
  st_geogfromkml: (c) => geoCall(c, 'fromkml', c.args),
  st_askml: (c) => geoCall(c, 'askml', c.args),
};
