/**
 * Differential test of the bulk REST row encoding (result-json.ts, built inside DuckDB) against the
 * JavaScript cell encoders (src/wire/resources.ts encodeRowStrings over readRows' domain values):
 * the same random values of every kind the bulk path encodes — NULL, NaN, ±Infinity, -0, random
 * bit patterns (subnormals included), extremes, unicode, astral characters, every control
 * character — must give byte-identical row texts, with formatOptions.useInt64Timestamp both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from './duckdb/db.js';
import { silentLogger } from '../config/logger.js';
import { toDuckLiteral } from './duckdb/values.js';
import { readRows } from './statement-context.js';
import { bulkEncodable, readEncodedRows } from './result-json.js';
import { readResultRows } from './query-results.js';
import type { Engine, ResultField } from './engine-types.js';
import { encodeRowStrings } from '../wire/resources.js';
import { formatDateDays } from '../types/temporal.js';
import type { BqType, Value } from '../types/types.js';
import { mulberry32 } from '../../test/helpers/seeded-random.js';

const T = (kind: string) => ({ kind }) as BqType;

/** Deterministic PRNG in [0, 1) (mulberry32). */
function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

const ROWS = 3000;
const SPECIAL_FLOATS = [NaN, Infinity, -Infinity, 0, -0, 5e-324, -5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1e7, 9999999.999999998, 1e-3, 0.0009999999999999998, 1e16, 1e21, 1e22, 123456789012345680000, 1.5, 0.1, -2.5e-8, 1 / 3, 2 ** 53, 4.35, 1e-7, 100];
const SPECIAL_STRINGS = ['', '"', '\\', '\\u000B', '},{"f":[', ']},{"f":[{"v":"x"}]}', '\u2028\u2029', '😀', 'é€', '\u007f', "it's", 'a\u0000b', '\\\u000b', '\u001f\\u001F\\\\u001a', '\u000e\u000f\u001a\u001b\u001c\u001d\u001e\u001f\u000b\u0001'];
const SPECIAL_INTS = [0n, 1n, -1n, 9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n, 9_007_199_254_740_993n];

function randomFloat(r: () => number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setUint32(0, Math.floor(r() * 2 ** 32));
  dv.setUint32(4, Math.floor(r() * 2 ** 32));
  const k = r();
  if (k < 0.5) return dv.getFloat64(0);
  if (k < 0.8) return (r() - 0.5) * 10 ** Math.floor(r() * 30 - 15);
  return Math.round(r() * 1e6) / 7;
}

function randomString(r: () => number): string {
  let s = '';
  const n = Math.floor(r() * 12);
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.3) s += String.fromCharCode(Math.floor(r() * 0x20));
    else if (k < 0.4) s += '"\\/'[Math.floor(r() * 3)];
    else if (k < 0.5) s += String.fromCodePoint(0x1f600 + Math.floor(r() * 50));
    else if (k < 0.6) s += String.fromCharCode(0x80 + Math.floor(r() * 0x2000));
    else s += String.fromCharCode(0x20 + Math.floor(r() * 0x5f));
  }
  return s;
}

const COLUMNS: { name: string; type: BqType; gen: (r: () => number, i: number) => Value }[] = [
  { name: 'i', type: T('INT64'), gen: (r, i) => SPECIAL_INTS[i] ?? BigInt(Math.floor((r() - 0.5) * 2 ** 53)) * BigInt(1 + Math.floor(r() * 1000)) },
  { name: 'f', type: T('FLOAT64'), gen: (r, i) => SPECIAL_FLOATS[i] ?? randomFloat(r) },
  { name: 'b', type: T('BOOL'), gen: (r) => r() < 0.5 },
  { name: 's', type: T('STRING'), gen: (r, i) => SPECIAL_STRINGS[i] ?? randomString(r) },
  { name: 'y', type: T('BYTES'), gen: (r) => Uint8Array.from({ length: Math.floor(r() * 20) }, () => Math.floor(r() * 256)) },
  // 0001-01-01 … 9999-12-31 as days since the epoch.
  { name: 'd', type: T('DATE'), gen: (r) => formatDateDays(Math.floor(-719162 + r() * (2932896 + 719162))) },
];

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** A fraction of a second as the domain text writes it: none, 3 or 6 digits. */
const fraction = (r: () => number) => {
  const k = r();
  if (k < 0.3) return '';
  if (k < 0.5) return `.${pad(Math.floor(r() * 1000), 3)}`;
  return `.${pad(Math.floor(r() * 1e6), 6)}`;
};
const time = (r: () => number) => `${pad(Math.floor(r() * 24), 2)}:${pad(Math.floor(r() * 60), 2)}:${pad(Math.floor(r() * 60), 2)}${fraction(r)}`;
/** A canonical NUMERIC text (up to 29 integer and 9 fraction digits) or BIGNUMERIC one (38). */
function decimal(r: () => number, intDigits: number, fracDigits: number): string {
  const int = Array.from({ length: 1 + Math.floor(r() * intDigits) }, () => Math.floor(r() * 10)).join('').replace(/^0+(?=\d)/, '');
  const frac = Array.from({ length: Math.floor(r() * (fracDigits + 1)) }, () => Math.floor(r() * 10)).join('').replace(/0+$/, '');
  const text = frac ? `${int}.${frac}` : int;
  return text !== '0' && r() < 0.5 ? `-${text}` : text;
}

/** Kinds written inside DuckDB only from some DuckDB column types (bulkEncodable's second argument). */
const TYPED_COLUMNS: { name: string; type: BqType; gen: (r: () => number, i: number) => Value }[] = [
  { name: 'dt', type: T('DATETIME'), gen: (r, i) => ['0001-01-01T00:00:00', '9999-12-31T23:59:59.999999', '2024-02-29T12:00:00.5'][i] ?? `${formatDateDays(Math.floor(-719162 + r() * 3652058))}T${time(r)}` },
  { name: 'tm', type: T('TIME'), gen: (r, i) => ['00:00:00', '23:59:59.999999', '12:00:00.100'][i] ?? time(r) },
  { name: 'nu', type: T('NUMERIC'), gen: (r, i) => ['0', '99999999999999999999999999999.999999999', '-0.000000001', '10', '-7.5'][i] ?? decimal(r, 29, 9) },
  { name: 'bn', type: T('BIGNUMERIC'), gen: (r, i) => ['0', '-578960446186580977117854925043439539266.34992332820282019728792003956564819968', '0.00000000000000000000000000000000000001'][i] ?? decimal(r, 38, 38) },
  { name: 'js', type: T('JSON'), gen: (r, i) => ['{}', '[1,"\\u0001",null]', '"é😀"', '{"a":{"b":[true,false]}}'][i] ?? JSON.stringify({ k: randomString(r), n: Math.floor(r() * 1000) }) },
  { name: 'g', type: T('GEOGRAPHY'), gen: (r, i) => ['POINT(0 0)', 'LINESTRING(1 2, 3 4)'][i] ?? `POINT(${Math.floor(r() * 360) - 180} ${Math.floor(r() * 180) - 90})` },
];

let db: Database;
let e: Engine;
beforeAll(async () => {
  db = await Database.open();
  e = { db, maxResponseBytes: 512 * 1024 * 1024, log: silentLogger } as unknown as Engine;
  const r = rng(17);
  const values: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    // Every column is NULL in about one row in ten.
    values.push(`(${i}, ${COLUMNS.map((c) => toDuckLiteral(r() < 0.1 && i > 40 ? null : c.gen(r, i), c.type)).join(', ')})`);
  }
  await db.run(`CREATE TABLE t AS SELECT * FROM (VALUES ${values.join(', ')}) AS v(n, ${COLUMNS.map((c) => c.name).join(', ')})`);
  const typed: string[] = [];
  for (let i = 0; i < ROWS; i++)
    typed.push(`(${i}, ${TYPED_COLUMNS.map((c) => toDuckLiteral(r() < 0.1 && i > 40 ? null : c.gen(r, i), c.type)).join(', ')})`);
  await db.run(`CREATE TABLE typed AS SELECT * FROM (VALUES ${typed.join(', ')}) AS v(n, ${TYPED_COLUMNS.map((c) => c.name).join(', ')})`);
}, 60_000);
afterAll(async () => {
  await db?.close();
});

/** What `f` answered and how many queries it ran through Database.readChunks meanwhile. */
async function counted<T>(f: () => Promise<T>): Promise<{ result: T; reads: number }> {
  const readChunks = db.readChunks;
  let reads = 0;
  db.readChunks = function (this: Database, ...args: Parameters<Database['readChunks']>) {
    reads++;
    return readChunks.apply(this, args);
  };
  try {
    return { result: await f(), reads };
  } finally {
    db.readChunks = readChunks;
  }
}

async function both(sql: string, fields: ResultField[]) {
  const rows = await readRows(e, sql, fields);
  const bulk = await readEncodedRows(e, sql, fields);
  return { rows, bulk: bulk! };
}

describe('REST row text built inside DuckDB', () => {
  it('is byte-identical to the JavaScript encoders for every bulk kind (useInt64Timestamp both ways)', async () => {
    const fields: ResultField[] = COLUMNS.map((c) => ({ name: c.name, type: c.type }));
    expect(bulkEncodable(fields)).toBe(true);
    const { rows, bulk } = await both(`SELECT ${COLUMNS.map((c) => c.name).join(', ')} FROM t ORDER BY n`, fields);
    expect(bulk.length).toBe(ROWS);
    const texts = bulk.page(0, ROWS).texts();
    for (const useInt64Timestamp of [false, true]) {
      const js = encodeRowStrings(fields, rows, { useInt64Timestamp });
      for (let i = 0; i < ROWS; i++) expect(texts[i], `row ${i}: ${JSON.stringify(rows[i], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`).toBe(js[i]);
      expect(bulk.page(1000, 2100).json()).toBe(`[${js.slice(1000, 2100).join(',')}]`);
      // Kept as UTF-8 bytes: sent as views of them, the same bytes as the text.
      expect(bulk.bytes).toBe(js.reduce((n, s) => n + Buffer.byteLength(s), 0));
      const parts = bulk.page(5, 2900).parts().map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)));
      expect(Buffer.concat(parts).toString('utf8')).toBe(`[${js.slice(5, 2900).join(',')}]`);
      expect(bulk.rowChars(7)).toBe(Buffer.byteLength(js[7]!));
      // A page's byte limit: whole blocks at once give the end row-by-row counting gives.
      const rowByRow = (start: number, end: number, max: number) => {
        let n = 0;
        for (let i = start; i < end; i++) if ((n += Buffer.byteLength(js[i]!)) > max && i > start) return i;
        return end;
      };
      for (const [a, z, max] of [[0, ROWS, 50_000], [0, ROWS, 1e9], [3, 2999, 70_000], [1024, 2048, 1], [100, 101, 0], [0, 1500, 120_000]] as const)
        expect(bulk.pageEnd(a, z, max), `${a}..${z} within ${max}`).toBe(rowByRow(a, z, max));
    }
  }, 60_000);

  it('keeps the order of an ORDER BY and encodes columns DuckDB computes in other types as the decoders read them', async () => {
    const fields: ResultField[] = [
      { name: 's', type: T('STRING') },
      { name: 'fi', type: T('FLOAT64') },
      { name: 'fd', type: T('FLOAT64') },
      { name: 'id', type: T('INT64') },
    ];
    const sql = `SELECT s, CAST(n AS BIGINT) * 3002399751580331 AS fi, CAST(n AS DECIMAL(18,3)) / 7 AS fd, CAST(n AS DECIMAL(18,0)) AS id FROM t ORDER BY s DESC NULLS LAST, n`;
    const { rows, bulk } = await both(sql, fields);
    expect(bulk.page(0, ROWS).texts()).toEqual(encodeRowStrings(fields, rows, { useInt64Timestamp: false }));
  });

  it('is byte-identical for DATETIME, TIME, NUMERIC, BIGNUMERIC, JSON and GEOGRAPHY from the DuckDB types that hold them', async () => {
    const fields: ResultField[] = TYPED_COLUMNS.map((c) => ({ name: c.name, type: c.type }));
    const sql = `SELECT ${TYPED_COLUMNS.map((c) => c.name).join(', ')} FROM typed ORDER BY n`;
    const duckTypes: string[] = [];
    const rows = await readRows(e, sql, fields, e.maxResponseBytes, duckTypes);
    expect(duckTypes).toEqual(['TIMESTAMP', 'TIME', 'DECIMAL(38,9)', 'VARCHAR', 'VARCHAR', 'VARCHAR']);
    expect(bulkEncodable(fields)).toBe(false);
    expect(bulkEncodable(fields, duckTypes)).toBe(true);
    const texts = (await readEncodedRows(e, sql, fields))!.page(0, ROWS).texts();
    for (const useInt64Timestamp of [false, true]) {
      const js = encodeRowStrings(fields, rows, { useInt64Timestamp });
      for (let i = 0; i < ROWS; i++) expect(texts[i], `row ${i}: ${JSON.stringify(rows[i])}`).toBe(js[i]);
    }
    // NUMERIC and BIGNUMERIC computed in other DuckDB types; a NUMERIC of scale 10 is left to the decoder.
    const computed: ResultField[] = [
      { name: 'a', type: T('NUMERIC') },
      { name: 'b', type: T('BIGNUMERIC') },
      { name: 'c', type: T('NUMERIC') },
    ];
    const csql = 'SELECT CAST(n AS DECIMAL(18,3)) * 1.5 AS a, CAST(n AS DECIMAL(30,20)) * 0.125 AS b, CAST(n AS BIGINT) - 1500 AS c FROM typed ORDER BY n';
    const ctypes: string[] = [];
    const crows = await readRows(e, csql, computed, e.maxResponseBytes, ctypes);
    expect(bulkEncodable(computed, ctypes)).toBe(true);
    expect((await readEncodedRows(e, csql, computed))!.page(0, ROWS).texts()).toEqual(encodeRowStrings(computed, crows, { useInt64Timestamp: false }));
    expect(bulkEncodable([{ type: T('NUMERIC') }], ['DECIMAL(38,10)'])).toBe(false);
    expect(bulkEncodable([{ type: T('DATETIME') }], ['VARCHAR'])).toBe(false);
    expect(bulkEncodable([{ type: T('BIGNUMERIC') }], ['DOUBLE'])).toBe(false);
  });

  it('keeps the order of a result DuckDB builds in parallel, over many chunks and string-heap blocks', async () => {
    // 300,000 rows: several row groups scanned by several threads, ~150 chunks of 2,048 rows.
    const fields: ResultField[] = [
      { name: 'i', type: T('INT64') },
      { name: 'f', type: T('FLOAT64') },
      { name: 's', type: T('STRING') },
    ];
    await db.run('CREATE TABLE big AS SELECT range AS x FROM range(300000)');
    const sql = `SELECT CASE WHEN x % 97 = 0 THEN NULL ELSE x * 7919 END AS i, x / 7 AS f, CASE WHEN x % 13 = 0 THEN NULL ELSE repeat(chr(97 + CAST(x % 26 AS INTEGER)), CAST(x % 40 AS INTEGER)) END AS s FROM big`;
    const { rows, bulk } = await both(sql, fields);
    expect(bulk.length).toBe(300_000);
    // The table's order (as inserted): row k holds x = k.
    expect(rows.every((r, k) => r[0] === (k % 97 === 0 ? null : BigInt(k * 7919)))).toBe(true);
    const js = encodeRowStrings(fields, rows, { useInt64Timestamp: false });
    expect(bulk.page(0, 300_000).texts()).toEqual(js);
    expect(bulk.page(123_456, 250_001).json()).toBe(`[${js.slice(123_456, 250_001).join(',')}]`);
  }, 60_000);

  it('answers no rows for an empty result, and leaves other kinds to the JavaScript encoders', async () => {
    const fields: ResultField[] = [{ name: 'i', type: T('INT64') }];
    const { bulk } = await both('SELECT i FROM t WHERE FALSE', fields);
    expect(bulk.length).toBe(0);
    expect(bulk.page(0, 10).json()).toBe('[]');
    for (const kind of ['TIMESTAMP', 'DATETIME', 'TIME', 'NUMERIC', 'BIGNUMERIC', 'JSON', 'GEOGRAPHY', 'INTERVAL'])
      expect(bulkEncodable([{ type: T('INT64') }, { type: T(kind) }])).toBe(false);
    expect(bulkEncodable([{ type: { kind: 'ARRAY', element: T('INT64') } }])).toBe(false);
  });

  it('reads a small result as domain values and a large one (past 128 KB decoded) as text built in DuckDB', async () => {
    const s: ResultField[] = [{ name: 's', type: T('STRING') }];
    const small = await readResultRows(e, 'SELECT s FROM t ORDER BY n LIMIT 10', s);
    expect('rows' in small && small.rows.length).toBe(10);
    const sql = "SELECT s || repeat('x', 400) AS s FROM t ORDER BY n";
    const large = await readResultRows(e, sql, s);
    expect('encodedRows' in large).toBe(true);
    const js = encodeRowStrings(s, await readRows(e, sql, s), { useInt64Timestamp: false });
    expect('encodedRows' in large && large.encodedRows.page(0, ROWS).texts()).toEqual(js);
    // A column the bulk path does not encode: domain values however large.
    const ts = await readResultRows(e, "SELECT s || repeat('x', 400) AS s, TIMESTAMP '2024-01-01' AS ts FROM t", [...s, { name: 'ts', type: T('TIMESTAMP') }]);
    expect('rows' in ts && ts.rows.length).toBe(ROWS);
  });

  it('reads a result of several chunks within the size limit as domain values, every chunk in order', async () => {
    // 3,000 rows of one short string: ~100 KB decoded, two DuckDB chunks.
    const f: ResultField[] = [{ name: 's', type: T('STRING') }];
    const sql = 'SELECT CAST(n % 10 AS VARCHAR) AS s FROM t ORDER BY n';
    const read = await readResultRows(e, sql, f);
    expect('rows' in read && read.rows.length).toBe(ROWS);
    expect('rows' in read && read.rows).toEqual(await readRows(e, sql, f));
  });

  it('keeps runs of rows over a block\'s size as blocks of their own, rows and pages intact', async () => {
    // Every 500th row is over 1 MB: a run of row texts past the 1 MB a block gathers is kept alone.
    const s: ResultField[] = [{ name: 's', type: T('STRING') }];
    const sql = "SELECT CASE WHEN n % 500 = 7 THEN repeat('y', 1100000 + n) ELSE coalesce(s, '') || repeat('y', n % 300) END AS s FROM t ORDER BY n";
    const bulk = (await readEncodedRows(e, sql, s))!;
    const js = encodeRowStrings(s, await readRows(e, sql, s), { useInt64Timestamp: false });
    expect(bulk.page(0, ROWS).texts()).toEqual(js);
    for (const [a, z] of [[0, 1], [6, 9], [7, 8], [2047, 2049], [100, 2900], [2999, 3000]]) expect(bulk.page(a, z).json()).toBe(`[${js.slice(a, z).join(',')}]`);
    const lengths = js.map((t) => Buffer.byteLength(t));
    const rowByRow = (start: number, end: number, max: number) => {
      let n = 0;
      for (let i = start; i < end; i++) if ((n += lengths[i]!) > max && i > start) return i;
      return end;
    };
    for (const [a, z, max] of [[0, ROWS, 1_500_000], [10, ROWS, 2_100_000], [500, 520, 5_000], [2040, 2100, 5_000], [0, ROWS, 0]] as const)
      expect(bulk.pageEnd(a, z, max), `${a}..${z} within ${max}`).toBe(rowByRow(a, z, max));
  });

  it('finishes a large result from the chunks of its one run with the bytes of running it again, every kind and DuckDB type', async () => {
    // readRowsIfSmall keeps every chunk ('keep') or stops the query to run it again ('rerun').
    const cases: [string, ResultField[]][] = [
      [`SELECT ${COLUMNS.map((c) => c.name).join(', ')} FROM t ORDER BY n DESC`, COLUMNS.map((c) => ({ name: c.name, type: c.type }))],
      [`SELECT ${TYPED_COLUMNS.map((c) => c.name).join(', ')}, repeat('z', 60) AS pad FROM typed ORDER BY n`, [...TYPED_COLUMNS.map((c) => ({ name: c.name, type: c.type })), { name: 'pad', type: T('STRING') }]],
      ['SELECT CAST(n AS DECIMAL(18,3)) * 1.5 AS a, CAST(n AS DECIMAL(30,20)) * 0.125 AS b, CAST(n AS BIGINT) * 3002399751580331 AS f, s FROM t ORDER BY n', [{ name: 'a', type: T('NUMERIC') }, { name: 'b', type: T('BIGNUMERIC') }, { name: 'f', type: T('FLOAT64') }, { name: 's', type: T('STRING') }]],
    ];
    for (const [sql, fields] of cases) {
      const rerun = await readResultRows({ ...e, largeResults: 'rerun' } as Engine, sql, fields);
      const { result: kept, reads } = await counted(() => readResultRows({ ...e, largeResults: 'keep' } as Engine, sql, fields));
      // One run of the query: the row texts were built from its table, not by running it again.
      expect(reads, sql).toBe(1);
      expect('encodedRows' in rerun && 'encodedRows' in kept, sql).toBe(true);
      if (!('encodedRows' in rerun && 'encodedRows' in kept)) continue;
      expect(kept.encodedRows.length).toBe(ROWS);
      expect(kept.encodedRows.page(0, ROWS).json(), sql).toBe(rerun.encodedRows.page(0, ROWS).json());
    }
    // A column of a bulk kind DuckDB holds in a type the bulk path does not write (a NUMERIC that
    // DuckDB's decimal division made a DOUBLE): the kept chunks are decoded as readRows decodes them.
    const numeric: ResultField[] = [{ name: 'v', type: T('NUMERIC') }, { name: 's', type: T('STRING') }];
    const nsql = "SELECT CAST(n AS DECIMAL(38,10)) / 3 AS v, repeat('q', 50) AS s FROM t ORDER BY n";
    const kept = await readResultRows({ ...e, largeResults: 'keep' } as Engine, nsql, numeric);
    expect('rows' in kept && kept.rows).toEqual(await readRows(e, nsql, numeric));
  }, 60_000);

  it('keeps a large result\'s order over many chunks read back from its table', async () => {
    const fields: ResultField[] = [{ name: 'i', type: T('INT64') }, { name: 's', type: T('STRING') }];
    await db.run('CREATE TABLE kept_big AS SELECT range AS x FROM range(200000)');
    const sql = `SELECT x AS i, repeat(chr(97 + CAST(x % 26 AS INTEGER)), CAST(x % 30 AS INTEGER)) AS s FROM kept_big ORDER BY x DESC`;
    const { result: kept, reads } = await counted(() => readResultRows({ ...e, largeResults: 'keep' } as Engine, sql, fields));
    expect(reads).toBe(1);
    expect('encodedRows' in kept).toBe(true);
    if (!('encodedRows' in kept)) return;
    const texts = kept.encodedRows.page(0, 200_000).texts();
    expect(texts.length).toBe(200_000);
    for (const k of [0, 1, 2047, 2048, 99_999, 199_999]) {
      const x = 199_999 - k;
      expect(texts[k]).toBe(`{"f":[{"v":"${x}"},{"v":"${String.fromCharCode(97 + (x % 26)).repeat(x % 30)}"}]}`);
    }
    expect(texts.every((t, k) => t.startsWith(`{"f":[{"v":"${199_999 - k}"}`))).toBe(true);
    // The temporary table is dropped (the pool hands out the connection released last: the one it was on).
    expect((await db.readAll('SELECT count(*) FROM duckdb_tables() WHERE temporary')).getRowsJS()).toEqual([[0n]]);
  }, 60_000);

  it('stops past the response limit with responseTooLarge whether a large result is kept or run again', async () => {
    const sql = "SELECT s || repeat('x', 400) AS s FROM t ORDER BY n";
    for (const largeResults of ['keep', 'rerun'] as const)
      await expect(readResultRows({ ...e, maxResponseBytes: 300_000, largeResults } as Engine, sql, [{ name: 's', type: T('STRING') }])).rejects.toMatchObject({ reason: 'responseTooLarge' });
  });

  it('stops past the response limit with BigQuery\'s responseTooLarge', async () => {
    const small = { ...e, maxResponseBytes: 10_000 } as Engine;
    await expect(readEncodedRows(small, 'SELECT s FROM t', [{ name: 's', type: T('STRING') }])).rejects.toMatchObject({ reason: 'responseTooLarge' });
  });
});
