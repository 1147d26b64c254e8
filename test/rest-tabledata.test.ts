/**
 * tabledata.insertAll and tabledata.list through @google-cloud/bigquery (and raw HTTP where the
 * exact wire body matters).
 *
 * Expected bodies come from recorded BigQuery answers (conformance/wire/jobs/{insertall_basic,
 * insertall_skip_invalid_rows, tabledata_list_*}), the TableDataList / TableDataInsertAllResponse
 * schemas of src/server/rest/bigquery-v2-discovery.json, and BigQuery's documented
 * streaming behaviour (cloud.google.com/bigquery/docs/error-messages#streaming-success).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset, Table } from '@google-cloud/bigquery';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { http } from './helpers/http.js';

let t: TestEmulator;
let P: string;
let ds: Dataset;
const D = 'td_ds';
const path = (table: string, rest = '') => `/bigquery/v2/projects/${P}/datasets/${D}/tables/${table}${rest}`;

beforeAll(async () => {
  t = await startTestEmulator({ projectId: 'td-project' });
  P = t.projectId;
  [ds] = await t.bq.createDataset(D);
});
afterAll(async () => {
  await t?.emu.close();
});

interface InsertError {
  index: number;
  errors: { reason: string; location?: string; debugInfo?: string; message: string }[];
}

describe('tabledata.insertAll', () => {
  it('answers the recorded body for good rows (insertall_basic) and stores them', async () => {
    await ds.createTable('ins_basic', { schema: 'n:integer,label:string' });
    const r = await http(t.emu.url, 'POST', path('ins_basic', '/insertAll'), {
      rows: [{ json: { n: 1, label: 'first' } }, { json: { n: 2, label: 'second' } }],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ kind: 'bigquery#tableDataInsertAllResponse' });
    const [rows] = await ds.table('ins_basic').getRows();
    expect(rows).toEqual([
      { n: 1, label: 'first' },
      { n: 2, label: 'second' },
    ]);
  });

  it('inserts through table.insert (rows wrapped as {json, insertId} by the client)', async () => {
    const [table] = await ds.createTable('ins_client', { schema: 'n:integer,s:string,ok:boolean' });
    const [res] = await table.insert([{ n: 10, s: 'a', ok: true }, { n: 20, s: null, ok: false }]);
    expect(res.kind).toBe('bigquery#tableDataInsertAllResponse');
    expect((res as { insertErrors?: unknown }).insertErrors).toBeUndefined();
    const [rows] = await table.getRows();
    expect(rows).toEqual([
      { n: 10, s: 'a', ok: true },
      { n: 20, s: null, ok: false },
    ]);
  });

  it('with skipInvalidRows inserts the good rows and reports the bad one (recorded insertall_skip_invalid_rows)', async () => {
    const [table] = await ds.createTable('ins_skip', { schema: 'n:integer' });
    const r = await http(t.emu.url, 'POST', path('ins_skip', '/insertAll'), {
      skipInvalidRows: true,
      rows: [{ json: { n: 1 } }, { json: { n: 'not-a-number' } }],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      kind: 'bigquery#tableDataInsertAllResponse',
      insertErrors: [
        { index: 1, errors: [{ reason: 'invalid', location: 'n', debugInfo: '', message: 'Cannot convert value to integer (bad value): not-a-number' }] },
      ],
    });
    const [rows] = await table.getRows();
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('without skipInvalidRows inserts nothing; the other rows are reported as `stopped`', async () => {
    const [table] = await ds.createTable('ins_stop', { schema: 'n:integer' });
    const e = (await errorOf(table.insert([{ n: 1 }, { n: 'bad' }, { n: 3 }], { partialRetries: 0 } as never))) as unknown as {
      name: string;
      errors: { row: unknown; errors: { reason: string; message: string }[] }[];
      response: { insertErrors: InsertError[] };
    };
    expect(e.name).toBe('PartialFailureError');
    // "Rows that did not have a schema mismatch have an error with the reason property set to
    // stopped, and can be re-sent as-is" (BigQuery error-messages#streaming-success); the stopped
    // error carries empty message/location/debugInfo (glific/glific#3477).
    const byIndex = [...e.response.insertErrors].sort((a, b) => a.index - b.index);
    expect(byIndex).toEqual([
      { index: 0, errors: [{ reason: 'stopped', location: '', debugInfo: '', message: '' }] },
      { index: 1, errors: [{ reason: 'invalid', location: 'n', debugInfo: '', message: 'Cannot convert value to integer (bad value): bad' }] },
      { index: 2, errors: [{ reason: 'stopped', location: '', debugInfo: '', message: '' }] },
    ]);
    // Invalid rows come first, then the stopped ones (nodejs-bigquery system test "should return partial errors").
    expect(e.errors.map((x) => x.row)).toEqual([{ n: 'bad' }, { n: 1 }, { n: 3 }]);
    const [rows] = await table.getRows();
    expect(rows).toEqual([]);
  });

  it('reports an unknown field and a missing REQUIRED field per row', async () => {
    await ds.createTable('ins_fields', { schema: [{ name: 'id', type: 'INTEGER', mode: 'REQUIRED' }, { name: 's', type: 'STRING' }] });
    const r = await http(t.emu.url, 'POST', path('ins_fields', '/insertAll'), {
      skipInvalidRows: true,
      rows: [{ json: { id: 1, zzz: 'x' } }, { json: { s: 'no id' } }, { json: { id: 3 } }],
    });
    expect(r.status).toBe(200);
    const errs = (r.body.insertErrors as InsertError[]).sort((a, b) => a.index - b.index);
    expect(errs.map((x) => x.index)).toEqual([0, 1]);
    // "no such field: <name>." (googleapis/google-cloud-dotnet#8206, google/weather-tools#94)
    expect(errs[0].errors[0]).toMatchObject({ reason: 'invalid', location: 'zzz', message: 'no such field: zzz.' });
    expect(errs[1].errors[0].reason).toBe('invalid');
    expect(errs[1].errors[0].message).toContain('id');
    const [rows] = await ds.table('ins_fields').getRows();
    expect(rows).toEqual([{ id: 3, s: null }]);
  });

  it('drops unknown fields with ignoreUnknownValues', async () => {
    const [table] = await ds.createTable('ins_ignore', { schema: 'a:integer' });
    const [res] = await table.insert([{ a: 5, extra: 'dropped' }], { ignoreUnknownValues: true, partialRetries: 0 } as never);
    expect((res as { insertErrors?: unknown }).insertErrors).toBeUndefined();
    const [rows] = await table.getRows();
    expect(rows).toEqual([{ a: 5 }]);
  });

  it('refuses a request without rows: 400 "No rows present in the request."', async () => {
    await ds.createTable('ins_none', { schema: 'a:integer' });
    for (const body of [{ rows: [] }, {}]) {
      const r = await http(t.emu.url, 'POST', path('ins_none', '/insertAll'), body);
      // HttpError 400 … returned "No rows present in the request." (google/clusterfuzz#721).
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe('No rows present in the request.');
    }
  });

  it('rejects inserting into a view', async () => {
    await ds.createTable('ins_view', { view: 'SELECT 1 AS a' });
    const r = await http(t.emu.url, 'POST', path('ins_view', '/insertAll'), { rows: [{ json: { a: 1 } }] });
    expect(r.status).toBe(400);
    expect(r.body.error.errors[0].reason).toBe('invalid');
  });

  it('inserts into a table partitioned by ingestion time (its _PARTITIONTIME is a recent day)', async () => {
    const [table] = await ds.createTable('ins_ingestion', { schema: 'n:integer', timePartitioning: { type: 'DAY' } });
    await table.insert([{ n: 1 }, { n: 2 }]);
    const [rows] = await t.bq.query({ query: `SELECT n, _PARTITIONTIME = TIMESTAMP_TRUNC(_PARTITIONTIME, DAY) AND _PARTITIONTIME > TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 2 DAY) AS today FROM ${D}.ins_ingestion ORDER BY n` });
    expect(rows).toEqual([
      { n: 1, today: true },
      { n: 2, today: true },
    ]);
  });

  it('answers 404 for a missing table', async () => {
    const e = await errorOf(ds.table('ins_missing').insert([{ a: 1 }], { partialRetries: 0 } as never));
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Table ${P}:${D}.ins_missing`);
  });
});

describe('tabledata.insertAll de-duplication by insertId', () => {
  // "BigQuery uses the insertId property to de-duplicate your data on a best effort basis"
  // (https://cloud.google.com/bigquery/docs/streaming-data-into-bigquery): a retried batch within the
  // window does not add its rows twice.
  const countOf = async (table: string) => {
    const [rows] = await t.bq.query({ query: `SELECT COUNT(*) AS c FROM \`${P}.${D}.${table}\`` });
    return rows[0].c as number;
  };

  it('a batch sent twice with the same insertIds adds its rows once', async () => {
    const [table] = await ds.createTable('dedup_ids', { schema: 'n:integer' });
    const batch = Array.from({ length: 10 }, (_, i) => ({ insertId: `row-${i}`, json: { n: i } }));
    await table.insert(batch, { raw: true });
    await table.insert(batch, { raw: true });
    expect(await countOf('dedup_ids')).toBe(10);
    // A new insertId is a new row; a repeat inside one request counts once.
    await table.insert([{ insertId: 'row-new', json: { n: 99 } }, { insertId: 'row-new', json: { n: 99 } }, { insertId: 'row-3', json: { n: 3 } }], { raw: true });
    expect(await countOf('dedup_ids')).toBe(11);
  });

  it('rows without insertId are never de-duplicated (the client can opt out: createInsertId false)', async () => {
    const [table] = await ds.createTable('dedup_none', { schema: 'n:integer' });
    const rows = Array.from({ length: 10 }, (_, i) => ({ n: i }));
    await table.insert(rows, { createInsertId: false });
    await table.insert(rows, { createInsertId: false });
    expect(await countOf('dedup_none')).toBe(20);
  });

  it('a table dropped and created again forgets the insertIds of the old one', async () => {
    const [first] = await ds.createTable('dedup_recreate', { schema: 'n:integer' });
    await first.insert([{ insertId: 'same', json: { n: 1 } }], { raw: true });
    await first.delete();
    const [second] = await ds.createTable('dedup_recreate', { schema: 'n:integer' });
    await second.insert([{ insertId: 'same', json: { n: 1 } }], { raw: true });
    expect(await countOf('dedup_recreate')).toBe(1);
  });
});

describe('tabledata.list', () => {
  let ten: Table;
  beforeAll(async () => {
    [ten] = await ds.createTable('ten', { schema: 'n:integer,s:string,f:float' });
    await ten.insert(
      Array.from({ length: 10 }, (_, i) => ({ n: i + 1, s: `r${i + 1}`, f: (i + 1) / 2 })),
      { partialRetries: 0 } as never,
    );
  });

  it('answers an empty table without a rows key (recorded tabledata_list_empty_table)', async () => {
    await ds.createTable('empty', { schema: 'n:integer' });
    const r = await http(t.emu.url, 'GET', path('empty', '/data'));
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('bigquery#tableDataList');
    expect(typeof r.body.etag).toBe('string');
    expect(r.body.totalRows).toBe('0');
    expect('rows' in r.body).toBe(false);
    expect('pageToken' in r.body).toBe(false);
  });

  it('answers every row in insertion order with totalRows as a string', async () => {
    const r = await http(t.emu.url, 'GET', path('ten', '/data'));
    expect(r.body.totalRows).toBe('10');
    expect(r.body.rows.map((x: { f: { v: string }[] }) => x.f[0].v)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(r.body.rows[0]).toEqual({ f: [{ v: '1' }, { v: 'r1' }, { v: '0.5' }] });
    expect('pageToken' in r.body).toBe(false);
  });

  it('pages with maxResults and pageToken (recorded tabledata_list_walk_two_pages)', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const q = token ? `?maxResults=4&pageToken=${encodeURIComponent(token)}` : '?maxResults=4';
      const r = await http(t.emu.url, 'GET', path('ten', `/data${q}`));
      expect(r.body.totalRows).toBe('10');
      seen.push(...r.body.rows.map((x: { f: { v: string }[] }) => x.f[0].v));
      token = r.body.pageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  });

  it('starts at startIndex (recorded tabledata_list_start_index)', async () => {
    const r = await http(t.emu.url, 'GET', path('ten', '/data?startIndex=9&maxResults=1'));
    expect(r.body.totalRows).toBe('10');
    expect(r.body.rows).toEqual([{ f: [{ v: '10' }, { v: 'r10' }, { v: '5.0' }] }]);
    expect('pageToken' in r.body).toBe(false);
    const mid = await http(t.emu.url, 'GET', path('ten', '/data?startIndex=3&maxResults=2'));
    expect(mid.body.rows.map((x: { f: { v: string }[] }) => x.f[0].v)).toEqual(['4', '5']);
    expect(typeof mid.body.pageToken).toBe('string');
  });

  it('returns only selectedFields, in table order (recorded tabledata_list_selected_fields)', async () => {
    const r = await http(t.emu.url, 'GET', path('ten', '/data?selectedFields=s,n&maxResults=2'));
    expect(r.body.rows).toEqual([{ f: [{ v: '1' }, { v: 'r1' }] }, { f: [{ v: '2' }, { v: 'r2' }] }]);
  });

  it('works through the client: getRows with maxResults, startIndex, selectedFields and autoPaginate', async () => {
    const [all] = await ten.getRows();
    expect(all.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(all[2]).toEqual({ n: 3, s: 'r3', f: 1.5 });
    const [page, next] = (await ten.getRows({ maxResults: 3, startIndex: '2', autoPaginate: false } as never)) as unknown as [
      Record<string, unknown>[],
      Record<string, unknown> | null,
    ];
    expect(page.map((r) => r.n)).toEqual([3, 4, 5]);
    expect(next?.pageToken).toBeTypeOf('string');
    const [sel] = await ten.getRows({ selectedFields: 'n', maxResults: 2, autoPaginate: false } as never);
    expect(sel).toEqual([{ n: 1 }, { n: 2 }]);
    // With autoPaginate (the default) the client stops after maxResults rows in total.
    const [walked] = await ten.getRows({ maxResults: 3 } as never);
    expect(walked.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it('refuses to list a view: 400 invalid "Cannot list a table of type VIEW."', async () => {
    await ds.createTable('list_view', { view: 'SELECT 1 AS a' });
    const e = await errorOf(ds.table('list_view').getRows());
    // googledatalab/datalab#1764 and n8n-io/n8n#2622 quote this exact answer.
    expect(e.code).toBe(400);
    expect(e.errors?.[0]?.reason).toBe('invalid');
    expect(e.message).toBe('Cannot list a table of type VIEW.');
  });

  it('answers 404 for a missing table', async () => {
    const e = await errorOf(ds.table('list_missing').getRows());
    expect(e.code).toBe(404);
    expect(e.message).toBe(`Not found: Table ${P}:${D}.list_missing`);
  });
});
