/**
 * Geography functions. Expected values: the recorded BigQuery fixtures (specialized_types/st_*,
 * spheroidal_*, geography_column_*) and BigQuery's documentation examples (geography_functions,
 * data-types); never this code's own output.
 */
import { describe, expect, it } from 'vitest';
import type { BqType } from '../types/types.js';
import { agg, call, errorOf, ev, evText, lit, lower, T, type Arg } from './testkit.js';

const G: BqType = { kind: 'GEOGRAPHY' };
const g = (wkt: string): Arg => call('st_geogfromtext', G, [lit.str(wkt)]);
const point = (x: number, y: number): Arg => call('st_geogpoint', G, [lit.f64(x), lit.f64(y)]);
const wktOf = (a: Arg) => ev('st_astext', T.str, [a]);
const rel = (near: number, far: number) => expect(Math.abs(near - far) / Math.abs(far)).toBeLessThan(1e-12);

describe('geography: parsing and formatting', () => {
  it('WKT round trips in BigQuery normal form (fixtures st_astext_point, st_geogfromtext_*, st_geogpoint; docs data-types)', async () => {
    expect(await wktOf(g('POINT(1 2)'))).toBe('POINT(1 2)');
    expect(await wktOf(g('LINESTRING(0 0, 1 1, 2 2)'))).toBe('LINESTRING(0 0, 1 1, 2 2)');
    expect(await wktOf(g('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))'))).toBe('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))');
    expect(await wktOf(point(1.5, 2.5))).toBe('POINT(1.5 2.5)');
    expect(await wktOf(g('POINT EMPTY'))).toBe('GEOMETRYCOLLECTION EMPTY');
    expect(await wktOf(g('GEOMETRYCOLLECTION EMPTY'))).toBe('GEOMETRYCOLLECTION EMPTY');
    expect(await wktOf(g('MULTIPOINT(1 1, 2 2)'))).toBe('MULTIPOINT(1 1, 2 2)');
    expect(await wktOf(g('GEOMETRYCOLLECTION(POINT(1 1), POINT(2 2))'))).toBe('MULTIPOINT(1 1, 2 2)');
  });

  it('multipoints are ordered by S2 cell id; clockwise rings are reversed (docs ST_CONVEXHULL, ST_CLUSTERDBSCAN, ST_EXTERIORRING inputs)', async () => {
    expect(await wktOf(g('MULTIPOINT(2 11, 4 12, 0 15, 1 9, 1 12)'))).toBe('MULTIPOINT(1 9, 4 12, 2 11, 1 12, 0 15)');
    expect(await wktOf(g('MULTIPOINT(1 1, 2 2, 4 4, 5 2)'))).toBe('MULTIPOINT(1 1, 2 2, 5 2, 4 4)');
    expect(await ev('st_astext', T.str, [call('st_exteriorring', G, [g('POLYGON((0 0, 1 4, 2 2, 0 0))')])])).toBe('LINESTRING(2 2, 1 4, 0 0, 2 2)');
    const withHole = g('POLYGON((1 1, 1 10, 5 10, 5 1, 1 1), (2 2, 3 4, 2 4, 2 2))');
    expect(await ev('st_astext', T.str, [call('st_exteriorring', G, [withHole])])).toBe('LINESTRING(5 1, 5 10, 1 10, 1 1, 5 1)');
    expect(await ev('st_interiorrings', T.arr(G), [withHole])).toEqual(['LINESTRING(2 2, 3 4, 2 4, 2 2)']);
    const twoHoles = g('POLYGON((1 1, 1 10, 5 10, 5 1, 1 1), (2 2.5, 3.5 3, 2.5 2, 2 2.5), (3.5 7, 4 6, 3 3, 3.5 7))');
    expect(await ev('st_interiorrings', T.arr(G), [twoHoles])).toEqual(['LINESTRING(2.5 2, 3.5 3, 2 2.5, 2.5 2)', 'LINESTRING(3 3, 4 6, 3.5 7, 3 3)']);
  });

  it('GeoJSON in and out, geodesic edges tessellated (fixtures st_geogfromgeojson_point, st_asgeojson_*; docs ST_GEOGFROM)', async () => {
    expect(await wktOf(call('st_geogfromgeojson', G, [lit.str('{"type":"Point","coordinates":[3,4]}')]))).toBe('POINT(3 4)');
    const gj = async (wkt: string) => JSON.parse((await ev('st_asgeojson', T.str, [g(wkt)])) as string);
    expect(await gj('POINT EMPTY')).toEqual({ type: 'GeometryCollection', geometries: [] });
    expect(await gj('LINESTRING(0 0, 1 1, 2 2)')).toEqual({ type: 'LineString', coordinates: [[0, 0], [1, 1], [1.49988573656168, 1.5000570914792], [2, 2]] });
    expect(await gj('MULTILINESTRING((0 0, 1 1), (2 2, 3 3))')).toEqual({
      type: 'MultiLineString',
      coordinates: [[[0, 0], [1, 1]], [[2, 2], [2.49980948352557, 2.5000950751632], [3, 3]]],
    });
    expect(await gj('GEOMETRYCOLLECTION(POINT(0 0), LINESTRING(1 1, 2 2))')).toEqual({
      type: 'GeometryCollection',
      geometries: [{ type: 'Point', coordinates: [0, 0] }, { type: 'LineString', coordinates: [[1, 1], [1.49988573656168, 1.5000570914792], [2, 2]] }],
    });
    const poly = '{ "type": "Polygon", "coordinates": [ [ [2, 0], [2, 2], [1, 2], [0, 2], [0, 0], [2, 0] ] ] }';
    expect(await wktOf(call('st_geogfrom', G, [lit.str(poly)]))).toBe('POLYGON((2 0, 2 2, 1 2, 0 2, 0 0, 2 0))');
  });

  it('WKB in and out (fixtures st_asbinary_point, st_geogfromwkb_point)', async () => {
    const wkb = await evText('st_asbinary', T.bytes, [point(1, 1)]);
    expect(Buffer.from(wkb!, 'hex').toString('base64')).toBe('AQEAAAD+///////vPwAAAAAAAPA/');
    expect(await wktOf(call('st_geogfromwkb', G, [lit.hex('0101000000000000000000F03F0000000000000040')]))).toBe('POINT(1 2)');
    // docs ST_GEOGFROMWKB: planar edges are tessellated into geodesic ones (10 m tolerance).
    const planarWkb = lit.hex('010200000002000000feffffffffffef3f000000000000f03f01000000000008400000000000000040');
    expect(await wktOf(call('st_geogfromwkb', G, [planarWkb, lit.bool(false), lit.bool(true)]))).toBe('LINESTRING(1 1, 2 1.5, 2.5 1.75, 3 2)');
    expect(await wktOf(call('st_geogfromwkb', G, [planarWkb, lit.bool(false), lit.bool(false)]))).toBe('LINESTRING(1 1, 3 2)');
  });

  it('invalid input is an error, NULL under SAFE', async () => {
    expect(await errorOf(lower('st_geogfromtext', G, [lit.str('POLYGON((0 -1, 2 1, 2 -1, 0 1, 0 -1))')]))).toMatch(/^ST_GEOGFROMTEXT failed: /);
    expect(await ev('st_geogfromtext', G, [lit.str('POLYGON((0 -1, 2 1, 2 -1, 0 1, 0 -1))')], { safe: true })).toBe(null);
    expect(await errorOf(lower('st_geogpoint', G, [lit.f64(0), lit.f64(91)]))).toMatch(/Latitude/);
    expect(await ev('st_astext', T.str, [lit.null(G)])).toBe(null);
  });
});

describe('geography: accessors', () => {
  it('fixtures st_x/st_y, st_numpoints, st_dimension, st_geometrytype, st_isempty, st_isclosed, st_isring, st_pointn', async () => {
    expect(await ev('st_x', T.f64, [point(1.25, 2.5)])).toBe(1.25);
    expect(await ev('st_y', T.f64, [point(1.25, 2.5)])).toBe(2.5);
    expect(await ev('st_numpoints', T.int, [g('POLYGON((0 0,4 0,4 4,0 4,0 0))')])).toBe(5);
    expect(await ev('st_npoints', T.int, [g('MULTIPOINT(0 0, 1 1, 2 2)')])).toBe(3);
    expect(await ev('st_dimension', T.int, [g('POINT(1 2)')])).toBe(0);
    expect(await ev('st_dimension', T.int, [g('MULTIPOLYGON(((0 0,4 0,4 4,0 4,0 0)),((10 10,14 10,14 14,10 14,10 10)))')])).toBe(2);
    expect(await ev('st_geometrytype', T.str, [g('MULTIPOINT(0 0, 1 1)')])).toBe('ST_MultiPoint');
    expect(await ev('st_geometrytype', T.str, [g('GEOMETRYCOLLECTION EMPTY')])).toBe('ST_GeometryCollection');
    expect(await ev('st_geometrytype', T.str, [g('GEOMETRYCOLLECTION(MULTIPOINT(-1 2, 0 12), LINESTRING(-2 4, 0 6))')])).toBe('ST_GeometryCollection');
    expect(await ev('st_isempty', T.bool, [g('POINT(1 2)')])).toBe(false);
    expect(await ev('st_isring', T.bool, [g('LINESTRING(0 0, 1 0, 1 1, 0 1, 0 0)')])).toBe(true);
    expect(await wktOf(call('st_pointn', G, [g('LINESTRING(1 2, 3 4, 5 6)'), lit.int(1)]))).toBe('POINT(1 2)');
  });

  it('docs: ST_ISCLOSED, ST_NUMGEOMETRIES, ST_POINTN, ST_ENDPOINT, ST_DUMP', async () => {
    const closed = async (w: string) => ev('st_isclosed', T.bool, [g(w)]);
    expect(await closed('POINT(5 0)')).toBe(true);
    expect(await closed('LINESTRING(0 1, 4 3, 2 6, 0 1)')).toBe(true);
    expect(await closed('LINESTRING(2 6, 1 3, 3 9)')).toBe(false);
    expect(await closed('GEOMETRYCOLLECTION(POINT(0 0), LINESTRING(1 2, 2 1))')).toBe(false);
    expect(await closed('GEOMETRYCOLLECTION EMPTY')).toBe(false);
    expect(await ev('st_numgeometries', T.int, [g('MULTIPOINT(0 1, 4 3, 2 6)')])).toBe(3);
    expect(await ev('st_numgeometries', T.int, [g('GEOMETRYCOLLECTION EMPTY')])).toBe(0);
    const line = g('LINESTRING(1 1, 2 1, 3 2, 3 3)');
    const nth = async (n: number) => wktOf(call('st_pointn', G, [line, lit.int(n)]));
    expect([await nth(1), await nth(-1), await nth(2), await nth(-2)]).toEqual(['POINT(1 1)', 'POINT(3 3)', 'POINT(2 1)', 'POINT(3 2)']);
    expect(await wktOf(call('st_endpoint', G, [line]))).toBe('POINT(3 3)');
    const gc = g('GEOMETRYCOLLECTION(POINT(0 0), LINESTRING(1 2, 2 1))');
    expect(await ev('st_dump', T.arr(G), [gc])).toEqual(['POINT(0 0)', 'LINESTRING(1 2, 2 1)']);
    expect(await ev('st_dump', T.arr(G), [gc, lit.int(1)])).toEqual(['LINESTRING(1 2, 2 1)']);
    expect(await ev('st_dumppoints', T.arr(G), [gc])).toEqual(['POINT(0 0)', 'POINT(1 2)', 'POINT(2 1)']);
  });
});

describe('geography: relations', () => {
  const tri = g('POLYGON((1 1, 20 1, 10 20, 1 1))');
  it('docs ST_CONTAINS / ST_COVERS: vertices are on the boundary', async () => {
    const f = async (name: string, i: number) => ev(name, T.bool, [tri, point(i, i)]);
    expect([await f('st_contains', 0), await f('st_contains', 1), await f('st_contains', 10)]).toEqual([false, false, true]);
    expect([await f('st_covers', 0), await f('st_covers', 1), await f('st_covers', 10)]).toEqual([false, true, true]);
  });

  it('fixtures st_contains_no, st_within_*, st_intersects_*, st_disjoint_yes, st_equals_basic, st_dwithin_yes, st_intersectsbox_*', async () => {
    const sq = g('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))');
    expect(await ev('st_contains', T.bool, [sq, point(10, 10)])).toBe(false);
    expect(await ev('st_within', T.bool, [point(2, 2), sq])).toBe(true);
    expect(await ev('st_within', T.bool, [point(10, 10), sq])).toBe(false);
    expect(await ev('st_intersects', T.bool, [point(0, 0), point(10, 10)])).toBe(false);
    expect(await ev('st_intersects', T.bool, [g('LINESTRING(0 0, 2 2)'), g('LINESTRING(0 2, 2 0)')])).toBe(true);
    expect(await ev('st_disjoint', T.bool, [point(0, 0), point(5, 5)])).toBe(true);
    expect(await ev('st_equals', T.bool, [g('POINT(1 2)'), g('POINT(1 2)')])).toBe(true);
    expect(await ev('st_dwithin', T.bool, [point(0, 0), point(0, 0.0001), lit.f64(100)])).toBe(true);
    const box = (x: number) => ev('st_intersectsbox', T.bool, [point(x, x), lit.f64(0), lit.f64(0), lit.f64(2), lit.f64(2)]);
    expect([await box(1), await box(5)]).toEqual([true, false]);
  });
});

describe('geography: measures (spherical Earth, radius 6,371,010 m)', () => {
  it('ST_DISTANCE (fixtures st_distance_continental, spheroidal_distance_*, spheroidal_high_latitude_distance)', async () => {
    const d = async (a: [number, number], b: [number, number]) => (await ev('st_distance', T.f64, [point(...a), point(...b)])) as number;
    rel(await d([-74.006, 40.7128], [-118.2437, 34.0522]), 3935752.432205476);
    rel(await d([-73.9857, 40.758], [-73.9857, 40.848]), 10007.559105973656);
    rel(await d([-74.006, 40.7128], [-74.743, 40.2206]), 82960.36216149233);
    rel(await d([-74.006, 40.7128], [-104.9903, 39.7392]), 2619059.5343353697);
    rel(await d([-122.4194, 37.7749], [-118.2437, 34.0522]), 559121.4546640904);
    rel(await d([0, 80], [10, 80]), 192850.64753185026);
  });

  it('ST_LENGTH, ST_PERIMETER, ST_AREA, ST_MAXDISTANCE (fixtures)', async () => {
    rel((await ev('st_length', T.f64, [g('LINESTRING(-122.4194 37.7749, -118.2437 34.0522)')])) as number, 559121.4546640908);
    rel((await ev('st_perimeter', T.f64, [g('POLYGON((-125 25, -65 25, -65 50, -125 50, -125 25))')])) as number, 15721531.209685314);
    rel((await ev('st_area', T.f64, [g('POLYGON((-111 41, -104 41, -104 45, -111 45, -111 41))')])) as number, 253019996794.88388);
    rel((await ev('st_area', T.f64, [g('POLYGON((-73.99 40.75, -73.98 40.75, -73.98 40.76, -73.99 40.76, -73.99 40.75))')])) as number, 936609.46355679);
    rel((await ev('st_maxdistance', T.f64, [point(0, 0), point(1, 1)])) as number, 157249.6280925079);
  });
});

describe('geography: transformations, aggregates, cells', () => {
  it('docs ST_LINEINTERPOLATEPOINT and ST_LINESUBSTRING', async () => {
    const f = async (x: number) => wktOf(call('st_lineinterpolatepoint', G, [g('LINESTRING(1 1, 5 5)'), lit.f64(x)]));
    expect([await f(0), await f(0.5), await f(1)]).toEqual(['POINT(1 1)', 'POINT(2.99633827268976 3.00182528336078)', 'POINT(5 5)']);
    const line = g('LINESTRING(20 70, 70 60, 10 70, 70 70)');
    expect(await wktOf(call('st_linesubstring', G, [line, lit.f64(0.5), lit.f64(1)]))).toBe('LINESTRING(49.4760661523471 67.2419539103851, 10 70, 70 70)');
    expect(await wktOf(call('st_linesubstring', G, [line, lit.f64(0.5), lit.f64(0.5)]))).toBe('POINT(49.4760661523471 67.2419539103851)');
  });

  it('docs ST_BOUNDINGBOX and ST_EXTENT across the antimeridian', async () => {
    const bb = async (w: string) => ev('st_boundingbox', T.struct(['xmin', T.f64], ['ymin', T.f64], ['xmax', T.f64], ['ymax', T.f64]), [g(w)]);
    const close = (got: unknown, want: Record<string, number>) => {
      for (const [k, v] of Object.entries(want)) expect((got as Record<string, number>)[k]).toBeCloseTo(v, 9);
    };
    close(await bb('POLYGON((-125 48, -124 46, -117 46, -117 49, -125 48))'), { xmin: -125, ymin: 46, xmax: -117, ymax: 49 });
    close(await bb('POLYGON((172 53, -130 55, -141 70, 172 53))'), { xmin: 172, ymin: 53, xmax: 230, ymax: 70 });
    expect(await bb('POINT EMPTY')).toBe(null);
    const boxT = T.struct(['xmin', T.f64], ['ymin', T.f64], ['xmax', T.f64], ['ymax', T.f64]);
    const ext = lower('st_extent', boxT, [lit.sql('st', G)]);
    const rows = ["'POLYGON((-125 48, -124 46, -117 46, -117 49, -125 48))'", "'POLYGON((172 53, -130 55, -141 70, 172 53))'", "'GEOMETRYCOLLECTION EMPTY'"];
    close(await agg(ext, ['st'], rows.map((r) => [r])), { xmin: 172, ymin: 46, xmax: 243, ymax: 70 });
  });

  it('ST_UNION_AGG of points (fixture st_union_agg_basic), S2_CELLIDFROMPOINT and ST_GEOHASH (docs)', async () => {
    const u = lower('st_union_agg', G, [lit.sql('st', G)]);
    expect(await agg(u, ['st'], [["'POINT(0 0)'"], ["'POINT(1 1)'"]])).toBe('MULTIPOINT(0 0, 1 1)');
    expect(await ev('s2_cellidfrompoint', T.int, [point(-122, 47)])).toBe('6093613931972369317');
    expect(await ev('s2_cellidfrompoint', T.int, [point(-122, 47), lit.int(10)])).toBe('6093613287902019584');
    expect(await ev('s2_cellidfrompoint', T.int, [g('LINESTRING(1 2, 3 4)')], { safe: true })).toBe(null);
    expect(await ev('s2_cellidfrompoint', T.int, [g('POINT EMPTY')], { safe: true })).toBe(null);
    expect(await ev('st_geohash', T.str, [point(-122.35, 47.62), lit.int(10)])).toBe('c22yzugqw7');
  });

  it('forms without an exact BigQuery answer are rejected, never approximated', async () => {
    const sq = g('POLYGON((0 0, 4 0, 4 4, 0 4, 0 0))');
    expect(await errorOf(lower('st_intersection', G, [sq, g('POLYGON((2 2, 6 2, 6 6, 2 6, 2 2))')]))).toMatch(/not supported by bqemu/);
    expect(await ev('st_intersection', G, [sq, point(10, 10)], { safe: true })).toBe('GEOMETRYCOLLECTION EMPTY');
    expect(await errorOf(lower('st_difference', G, [sq, g('POLYGON((2 2, 6 2, 6 6, 2 6, 2 2))')], { safe: true }))).toMatch(/not supported by bqemu/);
  });
});
