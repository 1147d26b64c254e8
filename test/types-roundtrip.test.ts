/**
 * Every BigQuery type round-trips: insertAll (JSON rows) → storage → tabledata.list, jobs.query
 * and jobs.getQueryResults, with TIMESTAMP both as float seconds and as int64 microseconds
 * (`formatOptions.useInt64Timestamp`), raw on the wire and decoded by @google-cloud/bigquery.
 *
 * Expected REST cells follow BigQuery's documented encoding, not the emulator's output:
 * - rows `{f:[{v}]}`, ARRAY `[{v}]`, STRUCT `{f:[…]}`, NULL `null`, an empty REPEATED field `[]`
 *   (TableRow/TableCell in src/server/rest/bigquery-v2-discovery.json; google-cloud-python `_helpers.py`
 *   reads a REPEATED cell as `[item["v"] for item in cell["v"]]`, so it is a list, never null);
 * - INT64/NUMERIC/BIGNUMERIC decimal text, BOOL "true"/"false", BYTES base64, FLOAT64 a decimal
 *   number text or "NaN"/"Infinity"/"-Infinity" (compared by value; the client parses with Number());
 * - DATE `YYYY-MM-DD`; DATETIME `YYYY-MM-DDTHH:MM:SS[.ffffff]`; TIME `HH:MM:SS` or
 *   `HH:MM:SS.ffffff` (google-cloud-python `_time_from_json` accepts exactly lengths 8 and 15;
 *   `_datetime_from_json` documents `YYYY-MM-DDTHH:MM:SS.ffffff`);
 * - TIMESTAMP int64 µs text with useInt64Timestamp (discovery: "Output timestamp as usec int64"),
 *   else float seconds (the client's `1672574400.123456` form, or `1.6725744001234560E9`);
 * - INTERVAL canonical `Y-M D H:M:S[.F]`, RANGE `[start, end)` with UNBOUNDED, JSON compact text,
 *   GEOGRAPHY WKT: GoogleSQL documentation examples (corpus docs-examples: CAST(… AS INTERVAL),
 *   CAST(… AS RANGE<DATE>), JSON_QUERY, ST_GEOGFROMTEXT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '@google-cloud/bigquery';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let P: string;
let ds: Dataset;
const D = 'types_ds';

const SCHEMA = [
  { name: 'id', type: 'INTEGER', mode: 'REQUIRED' },
  { name: 'i', type: 'INTEGER' },
  { name: 'f', type: 'FLOAT' },
  { name: 'n', type: 'NUMERIC' },
  { name: 'bn', type: 'BIGNUMERIC' },
  { name: 'b', type: 'BOOLEAN' },
  { name: 's', type: 'STRING' },
  { name: 'by', type: 'BYTES' },
  { name: 'd', type: 'DATE' },
  { name: 'dt', type: 'DATETIME' },
  { name: 't', type: 'TIME' },
  { name: 'ts', type: 'TIMESTAMP' },
  { name: 'iv', type: 'INTERVAL' },
  { name: 'j', type: 'JSON' },
  { name: 'g', type: 'GEOGRAPHY' },
  { name: 'r', type: 'RANGE', rangeElementType: { type: 'DATE' } },
  { name: 'rdt', type: 'RANGE', rangeElementType: { type: 'DATETIME' } },
  { name: 'arr', type: 'INTEGER', mode: 'REPEATED' },
  {
    name: 'st',
    type: 'RECORD',
    fields: [
      { name: 'a', type: 'INTEGER' },
      { name: 'b', type: 'STRING' },
      { name: 'c', type: 'RECORD', mode: 'REPEATED', fields: [{ name: 'x', type: 'DATE' }] },
    ],
  },
  { name: 'rs', type: 'RECORD', mode: 'REPEATED', fields: [{ name: 'k', type: 'STRING' }, { name: 'v', type: 'FLOAT' }] },
];
const COLS = SCHEMA.map((f) => f.name);

const tsMicros = (y: number, mo: number, d: number, h: number, mi: number, s: number, us: number) => BigInt(Date.UTC(y, mo - 1, d, h, mi, s)) * 1000n + BigInt(us);
const TS1 = tsMicros(2024, 2, 29, 13, 14, 15, 123456);
const TS3 = -500_000n; // 1969-12-31 23:59:59.5 UTC

/** Rows as insertAll `json` objects, in BigQuery's documented JSON input forms. */
const INPUT: Record<string, unknown>[] = [
  {
    id: 1,
    i: '9223372036854775807',
    f: 1.5,
    n: '123456789.123456789',
    bn: '-0.12345678901234567890123456789012345678',
    b: true,
    s: 'héllo ✓ "quoted"\n',
    by: 'AAEC/w==',
    d: '2024-02-29',
    dt: '2024-02-29 13:14:15.123456',
    t: '13:14:15.5',
    ts: '2024-02-29 13:14:15.123456 UTC',
    iv: '1-2 3 4:5:6.789',
    j: '{"class": {"students": [{"id": 5}, {"id": 12}]}}',
    g: 'POINT(1 2)',
    r: '[2024-01-01, 2024-02-01)',
    rdt: '[2014-09-27 12:30:00.45, UNBOUNDED)',
    arr: [1, 2, 3],
    st: { a: 7, b: 'x', c: [{ x: '2020-01-01' }, { x: '2020-12-31' }] },
    rs: [
      { k: 'a', v: 0.25 },
      { k: 'b', v: -2 },
    ],
  },
  { id: 2 },
  {
    id: 3,
    i: '-9223372036854775808',
    f: -1e300,
    n: '99999999999999999999999999999.999999999',
    bn: '578960446186580977117854925043439539266.34992332820282019728792003956564819967',
    b: false,
    s: '',
    by: '',
    d: '0001-01-01',
    dt: '9999-12-31T23:59:59.999999',
    t: '00:00:00',
    ts: '1969-12-31 23:59:59.5 UTC',
    iv: '1-2 3 10:20:30.456',
    j: '[1, "two", null, true]',
    g: 'LINESTRING(1 1, 2 2)',
    r: '[2020-01-01, NULL)',
    rdt: '[UNBOUNDED, 2016-10-17 11:15:00)',
    arr: [0],
    st: { a: null, b: 'y', c: [] },
    rs: [{ k: null, v: 'NaN' }],
  },
];

/** Markers for cells compared by meaning rather than by text. */
const F = (x: number) => ({ __float: x });
const TS = (micros: bigint) => ({ __ts: micros });
const rec = (...vs: unknown[]) => ({ f: vs.map((v) => ({ v })) });
const list = (...vs: unknown[]) => vs.map((v) => ({ v }));

/** Expected cell values per row id. */
const EXPECTED: Record<number, unknown[]> = {
  1: [
    '1', '9223372036854775807', F(1.5), '123456789.123456789', '-0.12345678901234567890123456789012345678', 'true',
    'héllo ✓ "quoted"\n', 'AAEC/w==', '2024-02-29', '2024-02-29T13:14:15.123456', '13:14:15.500000', TS(TS1),
    '1-2 3 4:5:6.789', '{"class":{"students":[{"id":5},{"id":12}]}}', 'POINT(1 2)', '[2024-01-01, 2024-02-01)',
    '[2014-09-27T12:30:00.450000, UNBOUNDED)', list('1', '2', '3'),
    rec('7', 'x', list(rec('2020-01-01'), rec('2020-12-31'))),
    list(rec('a', F(0.25)), rec('b', F(-2))),
  ],
  2: ['2', null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, [], null, []],
  3: [
    '3', '-9223372036854775808', F(-1e300), '99999999999999999999999999999.999999999',
    '578960446186580977117854925043439539266.34992332820282019728792003956564819967', 'false', '', '', '0001-01-01',
    '9999-12-31T23:59:59.999999', '00:00:00', TS(TS3), '1-2 3 10:20:30.456', '[1,"two",null,true]',
    'LINESTRING(1 1, 2 2)', '[2020-01-01, UNBOUNDED)', '[UNBOUNDED, 2016-10-17T11:15:00)', list('0'),
    rec(null, 'y', []),
    list(rec(null, F(NaN))),
  ],
};

/**
 * Compares a REST cell value with its expectation. TIMESTAMP cells: int64 µs text when
 * `int64`, else float seconds within 1 µs (a double cannot hold every µs of 2024 exactly).
 */
function checkCell(actual: unknown, expected: unknown, int64: boolean, where: string): void {
  if (expected !== null && typeof expected === 'object' && '__float' in expected) {
    expect(typeof actual, where).toBe('string');
    const x = (expected as { __float: number }).__float;
    if (Number.isNaN(x)) expect(actual, where).toBe('NaN');
    else expect(Number(actual), where).toBe(x);
    return;
  }
  if (expected !== null && typeof expected === 'object' && '__ts' in expected) {
    const micros = (expected as { __ts: bigint }).__ts;
    expect(typeof actual, where).toBe('string');
    if (int64) expect(actual, where).toBe(micros.toString());
    else {
      expect(actual as string, where).toMatch(/^-?\d+(\.\d+)?(E-?\d+)?$/);
      expect(Math.abs(Number(actual) * 1e6 - Number(micros)), where).toBeLessThanOrEqual(1);
    }
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${where} is an array`).toBe(true);
    expect((actual as unknown[]).length, `${where} length`).toBe(expected.length);
    expected.forEach((e, i) => checkCell((actual as unknown[])[i], e, int64, `${where}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    const keys = Object.keys(expected);
    expect(Object.keys(actual as object).sort(), where).toEqual(keys.sort());
    for (const k of keys) checkCell((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], int64, `${where}.${k}`);
    return;
  }
  expect(actual, where).toBe(expected);
}

function checkRows(rows: { f: { v: unknown }[] }[], int64: boolean, what: string): void {
  expect(rows.length, what).toBe(3);
  for (const row of rows) {
    const id = Number(row.f[0].v);
    const exp = EXPECTED[id];
    expect(row.f.length, `${what} row ${id} width`).toBe(COLS.length);
    row.f.forEach((cell, c) => checkCell(cell.v, exp[c], int64, `${what} row ${id} ${COLS[c]}`));
  }
}

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'types-project' });
  P = t.projectId;
  [ds] = await t.bq.createDataset(D);
  await ds.createTable('all_types', { schema: SCHEMA });
  const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables/all_types/insertAll`, {
    rows: INPUT.map((json, i) => ({ insertId: `row-${i}`, json })),
  });
  if (r.status !== 200 || r.body.insertErrors) throw new Error(`insertAll failed: ${r.text}`);
});
afterAll(async () => {
  await t?.emu.close();
});

describe('schema', () => {
  it('tables.get returns the schema as created (legacy type names, modes, RANGE element, nesting)', async () => {
    const [m] = await ds.table('all_types').getMetadata();
    const strip = (fs: Record<string, unknown>[]): unknown =>
      fs.map((f) => ({ name: f.name, type: f.type, mode: f.mode ?? 'NULLABLE', ...(f.fields ? { fields: strip(f.fields as Record<string, unknown>[]) } : {}), ...(f.rangeElementType ? { rangeElementType: f.rangeElementType } : {}) }));
    expect(strip(m.schema.fields)).toEqual(strip(SCHEMA as Record<string, unknown>[]));
  });
});

describe.each([
  { int64: true, label: 'useInt64Timestamp=true' },
  { int64: false, label: 'useInt64Timestamp=false' },
])('REST cells ($label)', ({ int64 }) => {
  it('tabledata.list', async () => {
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/all_types/data?formatOptions.useInt64Timestamp=${int64}`);
    expect(r.status).toBe(200);
    expect(r.body.totalRows).toBe('3');
    checkRows(r.body.rows, int64, 'tabledata.list');
  });

  it('jobs.query (SELECT *)', async () => {
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: `SELECT * FROM \`${D}.all_types\` ORDER BY id`,
      useLegacySql: false,
      formatOptions: { useInt64Timestamp: int64 },
    });
    expect(r.status).toBe(200);
    expect(r.body.schema.fields.map((f: { name: string }) => f.name)).toEqual(COLS);
    checkRows(r.body.rows, int64, 'jobs.query');
  });

  it('jobs.getQueryResults', async () => {
    const q = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query: `SELECT * FROM \`${D}.all_types\` ORDER BY id`,
      useLegacySql: false,
      maxResults: 0,
    });
    const r = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/queries/${q.body.jobReference.jobId}?formatOptions.useInt64Timestamp=${int64}`);
    expect(r.status).toBe(200);
    checkRows(r.body.rows, int64, 'getQueryResults');
  });
});

describe('FLOAT64 special values', () => {
  it('NaN, Infinity and -Infinity round-trip as "NaN", "Infinity", "-Infinity"', async () => {
    const [table] = await ds.createTable('floats', { schema: 'k:integer,x:float' });
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/datasets/${D}/tables/floats/insertAll`, {
      rows: [{ json: { k: 1, x: 'NaN' } }, { json: { k: 2, x: 'Infinity' } }, { json: { k: 3, x: '-Infinity' } }, { json: { k: 4, x: 0.1 } }],
    });
    expect(r.body.insertErrors).toBeUndefined();
    const td = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/floats/data`);
    expect(td.body.rows.map((x: { f: { v: string }[] }) => x.f[1].v).slice(0, 3)).toEqual(['NaN', 'Infinity', '-Infinity']);
    expect(Number(td.body.rows[3].f[1].v)).toBe(0.1);
    const [rows] = await t.bq.query({ query: `SELECT k, x FROM \`${D}.floats\` ORDER BY k` });
    expect(rows.map((x) => x.x)).toEqual([NaN, Infinity, -Infinity, 0.1]);
    const [listed] = await table.getRows();
    expect(listed.map((x) => x.x)).toEqual([NaN, Infinity, -Infinity, 0.1]);
  });
});

describe('decoded by @google-cloud/bigquery', () => {
  /** Client-decoded values are wrapper objects (BigQueryDate, Big, …); compare their text forms. */
  const text = (v: unknown): unknown => {
    if (v === null || v === undefined) return v;
    if (Buffer.isBuffer(v)) return `bytes:${v.toString('base64')}`;
    if (Array.isArray(v)) return v.map(text);
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const name = (v as object).constructor?.name;
      if (name === 'Big') return (v as { toFixed(): string }).toFixed();
      if (name === 'BigQueryRange') return { start: text(o.start), end: text(o.end) };
      if (['BigQueryInt', 'BigQueryDate', 'BigQueryDatetime', 'BigQueryTime', 'BigQueryTimestamp', 'Geography'].includes(name)) return o.value;
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, text(x)]));
    }
    return v;
  };

  const EXPECT_ROW1 = {
    id: '1',
    i: '9223372036854775807',
    f: 1.5,
    n: '123456789.123456789',
    bn: '-0.12345678901234567890123456789012345678',
    b: true,
    s: 'héllo ✓ "quoted"\n',
    by: 'bytes:AAEC/w==',
    d: '2024-02-29',
    dt: '2024-02-29T13:14:15.123456',
    t: '13:14:15.500000',
    ts: '2024-02-29T13:14:15.123456000Z', // the client's PreciseDate prints nanoseconds
    iv: '1-2 3 4:5:6.789',
    j: '{"class":{"students":[{"id":5},{"id":12}]}}',
    g: 'POINT(1 2)',
    r: { start: '2024-01-01', end: '2024-02-01' },
    rdt: { start: '2014-09-27T12:30:00.450000', end: null },
    arr: ['1', '2', '3'],
    st: { a: '7', b: 'x', c: [{ x: '2020-01-01' }, { x: '2020-12-31' }] },
    rs: [
      { k: 'a', v: 0.25 },
      { k: 'b', v: -2 },
    ],
  };

  it('table.getRows (tabledata.list with useInt64Timestamp)', async () => {
    const [rows] = await ds.table('all_types').getRows({ wrapIntegers: true } as never);
    expect(text(rows[0])).toEqual(EXPECT_ROW1);
    expect(text(rows[1])).toMatchObject({ id: '2', i: null, ts: null, st: null, arr: [], rs: [] });
    // (Row 3's TIMESTAMP before 1970 is checked on the wire above: the client's PreciseDate
    // misreads negative int64 microseconds, so its decoded value is no reference.)
    expect(text(rows[2])).toMatchObject({ i: '-9223372036854775808', by: 'bytes:', r: { start: '2020-01-01', end: null } });
  });

  it('bigquery.query (jobs.query with useInt64Timestamp)', async () => {
    const [rows] = await t.bq.query({ query: `SELECT * FROM \`${D}.all_types\` ORDER BY id`, wrapIntegers: true });
    expect(text(rows[0])).toEqual(EXPECT_ROW1);
    expect(text(rows[2])).toMatchObject({ n: '99999999999999999999999999999.999999999', t: '00:00:00', dt: '9999-12-31T23:59:59.999999' });
  });

  it('float-seconds TIMESTAMP cells decode to the exact microsecond (after 1970)', async () => {
    const [rows] = await ds.table('all_types').getRows({ 'formatOptions.useInt64Timestamp': false } as never);
    expect(text(rows[0].ts)).toBe('2024-02-29T13:14:15.123456000Z');
  });

  it('RANGE<TIMESTAMP> bounds decode in both TIMESTAMP encodings', async () => {
    const [table] = await ds.createTable('ts_range', { schema: [{ name: 'r', type: 'RANGE', rangeElementType: { type: 'TIMESTAMP' } }] });
    await table.insert([{ r: '[2024-02-29 13:14:15.123456 UTC, UNBOUNDED)' }], { partialRetries: 0 } as never);
    const [a] = await table.getRows();
    expect(text(a[0].r)).toEqual({ start: '2024-02-29T13:14:15.123456000Z', end: null });
    const [b] = await table.getRows({ 'formatOptions.useInt64Timestamp': false } as never);
    expect(text(b[0].r)).toEqual({ start: '2024-02-29T13:14:15.123456000Z', end: null });
  });
});

describe('query results of typed expressions', () => {
  it('encodes literals of each type as the stored values are encoded', async () => {
    const r = await http(t.emu.url, 'POST', `/bigquery/v2/projects/${P}/queries`, {
      query:
        "SELECT DATE '2024-02-29' AS d, DATETIME '2024-02-29 13:14:15.123456' AS dt, TIME '13:14:15.5' AS t, " +
        "TIMESTAMP '2024-02-29 13:14:15.123456 UTC' AS ts, NUMERIC '123456789.123456789' AS n, " +
        "BIGNUMERIC '-0.12345678901234567890123456789012345678' AS bn, JSON '{\"a\": [1, 2]}' AS j, b'\\x00\\x01\\x02\\xff' AS byt, " +
        "[STRUCT(1 AS a, ['x', 'y'] AS b)] AS nested, CAST(NULL AS STRING) AS nul",
      useLegacySql: false,
      formatOptions: { useInt64Timestamp: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.schema.fields).toEqual([
      { name: 'd', type: 'DATE', mode: 'NULLABLE' },
      { name: 'dt', type: 'DATETIME', mode: 'NULLABLE' },
      { name: 't', type: 'TIME', mode: 'NULLABLE' },
      { name: 'ts', type: 'TIMESTAMP', mode: 'NULLABLE' },
      { name: 'n', type: 'NUMERIC', mode: 'NULLABLE' },
      { name: 'bn', type: 'BIGNUMERIC', mode: 'NULLABLE' },
      { name: 'j', type: 'JSON', mode: 'NULLABLE' },
      { name: 'byt', type: 'BYTES', mode: 'NULLABLE' },
      {
        name: 'nested',
        type: 'RECORD',
        mode: 'REPEATED',
        fields: [
          { name: 'a', type: 'INTEGER', mode: 'NULLABLE' },
          { name: 'b', type: 'STRING', mode: 'REPEATED' },
        ],
      },
      { name: 'nul', type: 'STRING', mode: 'NULLABLE' },
    ]);
    expect(r.body.rows[0].f.map((c: { v: unknown }) => c.v)).toEqual([
      '2024-02-29',
      '2024-02-29T13:14:15.123456',
      '13:14:15.500000',
      TS1.toString(),
      '123456789.123456789',
      '-0.12345678901234567890123456789012345678',
      '{"a":[1,2]}',
      'AAEC/w==',
      [{ v: { f: [{ v: '1' }, { v: [{ v: 'x' }, { v: 'y' }] }] } }],
      null,
    ]);
  });
});

describe('GEOGRAPHY canonical form', () => {
  // BigQuery stores a GEOGRAPHY as S2 data and prints it canonically: the GoogleSQL docs show
  // ST_GEOGFROMTEXT('GEOMETRYCOLLECTION(POINT(1 1), POINT(2 2))') printed as 'MULTIPOINT(1 1, 2 2)'.
  // The emulator keeps the WKT text as given (no geography library yet).
  it.fails('normalises inserted WKT as BigQuery prints it', async () => {
    await ds.createTable('geo', { schema: 'g:geography' });
    await ds.table('geo').insert([{ g: 'GEOMETRYCOLLECTION(POINT(1 1), POINT(2 2))' }], { partialRetries: 0 } as never);
    const td = await http(t.emu.url, 'GET', `/bigquery/v2/projects/${P}/datasets/${D}/tables/geo/data`);
    expect(td.body.rows[0].f[0].v).toBe('MULTIPOINT(1 1, 2 2)');
  });
});
