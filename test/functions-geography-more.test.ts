/**
 * ST_AZIMUTH, ST_ANGLE, ST_LINELOCATEPOINT, ST_CLUSTERDBSCAN, S2_COVERINGCELLIDS, ST_GEOGFROMKML,
 * ST_ASKML, ST_UNARYUNION and ST_SIMPLIFY of point sets, through the real client. Expected values:
 * BigQuery's documentation examples (geography_functions#st_azimuth, #st_angle,
 * #st_linelocatepoint, #st_clusterdbscan, #s2_coveringcellids, #s2_cellidfrompoint) and the
 * documented edge cases (identical or antipodal points → NULL, non-point input → error). FLOAT64
 * values the documentation prints to 17 digits are compared within the conformance corpus'
 * FLOAT64 tolerance (relative 1e-12, conformance/README.md "Tolerances") where the emulator's last
 * digits differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const val = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);
const col = async (query: string, name: string) => (await q(query)).map((r) => val(r[name]));
const close = (got: unknown, want: number) => {
  expect(typeof got).toBe('number');
  expect(Math.abs((got as number) - want)).toBeLessThanOrEqual(Math.abs(want) * 1e-12);
};

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('ST_AZIMUTH and ST_ANGLE', () => {
  it('ST_AZIMUTH (docs example: east, west, north; identical, antipodal and NULL points → NULL)', async () => {
    const rows = await col(
      `WITH geos AS (
        SELECT 1 id, ST_GEOGPOINT(1, 0) AS geo1, ST_GEOGPOINT(0, 0) AS geo2 UNION ALL
        SELECT 2, ST_GEOGPOINT(0, 0), ST_GEOGPOINT(1, 0) UNION ALL
        SELECT 3, ST_GEOGPOINT(0, 0), ST_GEOGPOINT(0, 1) UNION ALL
        SELECT 4, ST_GEOGPOINT(0, 0), ST_GEOGPOINT(0, 0) UNION ALL
        SELECT 5, ST_GEOGPOINT(-30, 0), ST_GEOGPOINT(150, 0) UNION ALL
        SELECT 6, ST_GEOGPOINT(0, 0), NULL UNION ALL
        SELECT 7, NULL, ST_GEOGPOINT(0, 0))
      SELECT ST_AZIMUTH(geo1, geo2) AS azimuth FROM geos ORDER BY id`,
      'azimuth',
    );
    expect(rows).toEqual([4.71238898038469, 1.5707963267948966, 0, null, null, null, null]);
  });

  it('ST_ANGLE (docs example: clockwise from the first line to the second)', async () => {
    const rows = await col(
      `WITH geos AS (
        SELECT 1 id, ST_GEOGPOINT(1, 0) geo1, ST_GEOGPOINT(0, 0) geo2, ST_GEOGPOINT(0, 1) geo3 UNION ALL
        SELECT 2 id, ST_GEOGPOINT(0, 0), ST_GEOGPOINT(1, 0), ST_GEOGPOINT(0, 1) UNION ALL
        SELECT 3 id, ST_GEOGPOINT(1, 0), ST_GEOGPOINT(0, 0), ST_GEOGPOINT(1, 0) UNION ALL
        SELECT 4 id, ST_GEOGPOINT(1, 0) geo1, ST_GEOGPOINT(0, 0) geo2, ST_GEOGPOINT(0, 0) geo3 UNION ALL
        SELECT 5 id, ST_GEOGPOINT(0, 0), ST_GEOGPOINT(-30, 0), ST_GEOGPOINT(150, 0) UNION ALL
        SELECT 6 id, ST_GEOGPOINT(0, 0), NULL, NULL UNION ALL
        SELECT 7 id, NULL, ST_GEOGPOINT(0, 0), NULL UNION ALL
        SELECT 8 id, NULL, NULL, ST_GEOGPOINT(0, 0))
      SELECT ST_ANGLE(geo1, geo2, geo3) AS angle FROM geos ORDER BY id`,
      'angle',
    );
    expect(rows).toEqual([4.71238898038469, 0.78547432161873854, 0, null, null, null, null, null]);
  });

  it('inputs that are not single points are errors (NULL under SAFE.)', async () => {
    const e = await errorOf(q(`SELECT ST_AZIMUTH(ST_GEOGFROMTEXT('LINESTRING(0 0, 1 1)'), ST_GEOGPOINT(0, 0)) AS a`));
    expect(e.message).toMatch(/ST_AZIMUTH/);
    const e2 = await errorOf(q(`SELECT ST_ANGLE(ST_GEOGPOINT(0, 0), ST_GEOGFROMTEXT('POINT EMPTY'), ST_GEOGPOINT(1, 1)) AS a`));
    expect(e2.message).toMatch(/ST_ANGLE/);
    expect(await col(`SELECT SAFE.ST_AZIMUTH(ST_GEOGFROMTEXT('MULTIPOINT(0 0, 1 1)'), ST_GEOGPOINT(0, 0)) AS a`, 'a')).toEqual([null]);
  });
});

describe('ST_LINELOCATEPOINT', () => {
  it('fractions along LINESTRING(1 1, 5 5) (docs example)', async () => {
    const rows = await col(
      `WITH geos AS (
        SELECT 1 AS i, ST_GEOGPOINT(0, 0) AS point UNION ALL SELECT 2, ST_GEOGPOINT(1, 0) UNION ALL
        SELECT 3, ST_GEOGPOINT(1, 1) UNION ALL SELECT 4, ST_GEOGPOINT(2, 2) UNION ALL
        SELECT 5, ST_GEOGPOINT(3, 3) UNION ALL SELECT 6, ST_GEOGPOINT(4, 4) UNION ALL
        SELECT 7, ST_GEOGPOINT(5, 5) UNION ALL SELECT 8, ST_GEOGPOINT(6, 5) UNION ALL SELECT 9, NULL)
      SELECT ST_LINELOCATEPOINT(ST_GEOGFROMTEXT('LINESTRING(1 1, 5 5)'), point) AS f FROM geos ORDER BY i`,
      'f',
    );
    expect(rows.slice(0, 3)).toEqual([0, 0, 0]);
    close(rows[3], 0.25015214685147907);
    close(rows[4], 0.5002284283637185);
    close(rows[5], 0.7501905913884388);
    expect(rows.slice(6)).toEqual([1, 1, null]);
  });

  it('a line that is not a linestring, or a point that is not a point, is an error', async () => {
    const e = await errorOf(q(`SELECT ST_LINELOCATEPOINT(ST_GEOGPOINT(0, 0), ST_GEOGPOINT(0, 0)) AS f`));
    expect(e.message).toMatch(/ST_LINELOCATEPOINT/);
    expect(await col(`SELECT SAFE.ST_LINELOCATEPOINT(ST_GEOGFROMTEXT('LINESTRING(0 0, 1 1)'), ST_GEOGFROMTEXT('LINESTRING(0 0, 1 1)')) AS f`, 'f')).toEqual([null]);
  });
});

describe('ST_CLUSTERDBSCAN', () => {
  const geos = `WITH Geos as
    (SELECT 1 as row_id, ST_GEOGFROMTEXT('POINT EMPTY') as geo UNION ALL
      SELECT 2, ST_GEOGFROMTEXT('MULTIPOINT(1 1, 2 2, 4 4, 5 2)') UNION ALL
      SELECT 3, ST_GEOGFROMTEXT('POINT(14 15)') UNION ALL
      SELECT 4, ST_GEOGFROMTEXT('LINESTRING(40 1, 42 34, 44 39)') UNION ALL
      SELECT 5, ST_GEOGFROMTEXT('POLYGON((40 2, 40 1, 41 2, 40 2))'))`;

  it('clusters points, lines and polygons within 100 km (docs example)', async () => {
    const rows = await q(`${geos} SELECT row_id, geo, ST_CLUSTERDBSCAN(geo, 1e5, 1) OVER () AS cluster_num FROM Geos ORDER BY row_id`);
    expect(rows.map((r) => [r.row_id, val(r.geo), r.cluster_num])).toEqual([
      [1, 'GEOMETRYCOLLECTION EMPTY', null],
      [2, 'MULTIPOINT(1 1, 2 2, 5 2, 4 4)', 0],
      [3, 'POINT(14 15)', 1],
      [4, 'LINESTRING(40 1, 42 34, 44 39)', 2],
      [5, 'POLYGON((40 2, 40 1, 41 2, 40 2))', 2],
    ]);
  });

  it('too few neighbours make noise; partitions cluster apart, each numbered from 0 (documented definitions)', async () => {
    // minimum_geographies 2: POINT(14 15) has no other geography within 100 km, so it is noise.
    const rows = await q(`${geos} SELECT row_id, ST_CLUSTERDBSCAN(geo, 1e5, 2) OVER () AS c FROM Geos ORDER BY row_id`);
    expect(rows.map((r) => r.c)).toEqual([null, null, null, 0, 0]);
    const parts = await q(`${geos} SELECT row_id, ST_CLUSTERDBSCAN(geo, 1e5, 1) OVER (PARTITION BY row_id > 3 ORDER BY row_id) AS c FROM Geos ORDER BY row_id`);
    expect(parts.map((r) => r.c)).toEqual([null, 0, 1, 0, 0]);
  });
});

describe('S2_COVERINGCELLIDS', () => {
  it('covers a point, the empty geography and a line (docs example, min_level => 12)', async () => {
    const rows = await q(`WITH data AS (
        SELECT 1 AS id, ST_GEOGPOINT(-122, 47) AS geo UNION ALL
        SELECT 2 AS id, ST_GEOGFROMTEXT('POINT EMPTY') AS geo UNION ALL
        SELECT 3 AS id, ST_GEOGFROMTEXT('LINESTRING(-122.12 47.67, -122.19 47.69)') AS geo)
      SELECT id, ARRAY(SELECT CAST(c AS STRING) FROM UNNEST(S2_COVERINGCELLIDS(geo, min_level => 12)) AS c WITH OFFSET o ORDER BY o) AS cells
      FROM data ORDER BY id`);
    expect(rows.map((r) => r.cells)).toEqual([
      ['6093613931972369317'],
      [],
      ['6093384954555662336', '6093390709811838976', '6093390735581642752', '6093390740145045504', '6093390791416217600', '6093390812891054080', '6093390817187069952', '6093496378892222464'],
    ]);
  });

  it('polygons and a positive buffer are refused as not supported', async () => {
    const e = await errorOf(q(`SELECT S2_COVERINGCELLIDS(ST_GEOGFROMTEXT('POLYGON((0 0, 1 0, 1 1, 0 0))')) AS c`));
    expect(e.message).toMatch(/not supported/);
    const e2 = await errorOf(q(`SELECT S2_COVERINGCELLIDS(ST_GEOGPOINT(1, 2), buffer => 10.0) AS c`));
    expect(e2.message).toMatch(/not supported/);
  });
});

describe('KML', () => {
  it('ST_GEOGFROMKML reads Point, LineString, Polygon with a hole and MultiGeometry as the same WKT does (documented KML geometry)', async () => {
    const cases: [string, string][] = [
      ['<Point><coordinates>1,2</coordinates></Point>', 'POINT(1 2)'],
      ['<LineString><coordinates>0,0 1,1 2,2</coordinates></LineString>', 'LINESTRING(0 0, 1 1, 2 2)'],
      [
        '<Polygon><outerBoundaryIs><LinearRing><coordinates>1,1 5,1 5,10 1,10 1,1</coordinates></LinearRing></outerBoundaryIs>' +
          '<innerBoundaryIs><LinearRing><coordinates>2,2 2,4 3,4 2,2</coordinates></LinearRing></innerBoundaryIs></Polygon>',
        'POLYGON((1 1, 5 1, 5 10, 1 10, 1 1), (2 2, 2 4, 3 4, 2 2))',
      ],
      ['<MultiGeometry><Point><coordinates>2,11</coordinates></Point><LineString><coordinates>0,0 1,1</coordinates></LineString></MultiGeometry>', 'GEOMETRYCOLLECTION(POINT(2 11), LINESTRING(0 0, 1 1))'],
    ];
    for (const [kml, wkt] of cases) {
      const [row] = await q(`SELECT ST_ASTEXT(ST_GEOGFROMKML('${kml}')) AS k, ST_ASTEXT(ST_GEOGFROMTEXT('${wkt}')) AS w`);
      expect(row.k).toBe(row.w);
    }
    expect(await col(`SELECT ST_ASTEXT(ST_GEOGFROMKML('<Point><coordinates> 1,2 </coordinates></Point>')) AS g`, 'g')).toEqual(['POINT(1 2)']);
    const e = await errorOf(q(`SELECT ST_GEOGFROMKML('<Point><coordinates>1,2 3,4</coordinates></Point>') AS g`));
    expect(e.message).toMatch(/ST_GEOGFROMKML/);
  });

  it('ST_ASKML writes the KML geometry, coordinates with as few digits as read back exactly (documented)', async () => {
    const kml = (wkt: string) => col(`SELECT ST_ASKML(ST_GEOGFROMTEXT('${wkt}')) AS k`, 'k');
    // Coordinates are the stored doubles, as BigQuery's WKB shows them (recorded fixture
    // specialized_types/st_asbinary_point: POINT(1 1) is 0.9999999999999998, 1), with as few
    // digits as read back exactly.
    expect(await col(`SELECT ST_ASKML(ST_GEOGPOINT(1, 1)) AS k`, 'k')).toEqual(['<Point><coordinates>0.9999999999999998,1</coordinates></Point>']);
    const [line] = await kml('LINESTRING(0 0, 0.5 3)');
    const m = /^<LineString><coordinates>(\S+),(\S+) (\S+),(\S+)<\/coordinates><\/LineString>$/.exec(String(line));
    expect(m?.slice(1).map(Number).map((x) => Math.round(x * 1e9) / 1e9)).toEqual([0, 0, 0.5, 3]);
    // The round trip through KML keeps the geography.
    expect(await col(`SELECT ST_EQUALS(ST_GEOGFROMKML(ST_ASKML(g)), g) AS same FROM UNNEST([ST_GEOGFROMTEXT('POLYGON((0 0, 2 0, 2 2, 0 0))'), ST_GEOGFROMTEXT('GEOMETRYCOLLECTION(POINT(5 5), LINESTRING(1 1, 2 3))')]) AS g`, 'same')).toEqual([true, true]);
  });
});

describe('ST_UNARYUNION and ST_SIMPLIFY of point sets', () => {
  it('a point set is its own union and simplification; lines and polygons are not supported', async () => {
    expect(await col(`SELECT ST_ASTEXT(ST_UNARYUNION(ST_GEOGFROMTEXT('MULTIPOINT(2 11, 1 9, 2 11)'))) AS g`, 'g')).toEqual(['MULTIPOINT(1 9, 2 11)']);
    expect(await col(`SELECT ST_ASTEXT(ST_SIMPLIFY(ST_GEOGPOINT(1, 2), 100)) AS g`, 'g')).toEqual(['POINT(1 2)']);
    const e = await errorOf(q(`SELECT ST_UNARYUNION(ST_GEOGFROMTEXT('LINESTRING(0 0, 1 1)')) AS g`));
    expect(e.message).toMatch(/not supported/);
    const e2 = await errorOf(q(`SELECT ST_SIMPLIFY(ST_GEOGFROMTEXT('LINESTRING(0 0, 0.05 0, 0.1 0, 0.15 0, 2 0)'), 1) AS g`));
    expect(e2.message).toMatch(/not supported/);
  });
});
