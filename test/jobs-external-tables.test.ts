/**
 * JobConfigurationQuery `tableDefinitions`: federated tables of a query job (ExternalDataConfiguration
 * in src/server/rest/bigquery-v2-discovery.json) over local CSV, newline-delimited JSON and Parquet files,
 * through @google-cloud/bigquery (createQueryJob passes `tableDefinitions` in configuration.query).
 * `gs://bucket/path` URIs read the local Cloud Storage stand-in BQEMU_GCS_DIR (as EXPORT DATA
 * writes it). Expected values: the files' contents typed by the schema (BigQuery "Query Cloud
 * Storage data in external tables"; CsvOptions: skipLeadingRows, fieldDelimiter, nullMarker
 * "default value is the empty string"; wildcard URIs "gs://bucket/prefix*").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let dir: string;
let savedGcs: string | undefined;

function write(rel: string, text: string): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-ext-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = dir;
  write('bkt/ext/people.csv', 'id,name,score,born,ts,ok\n1,ann,1.5,2000-01-02,2024-01-01 10:00:00 UTC,true\n2,,2.25,,2024-01-02T03:04:05Z,false\n3,cy,,2001-02-03,,\n');
  write('bkt/parts/a-1.tsv', 'k\tv\n1\tone\n2\ttwo\n');
  write('bkt/parts/a-sub/2.tsv', 'k\tv\n3\tthree\n');
  write('bkt/parts/b-9.tsv', 'k\tv\n9\tnine\n');
  write('local/events.json', '{"id": 1, "tags": ["a", "b"], "info": {"a": 10, "b": "x"}, "raw": "aGk="}\n{"id": "2", "tags": [], "info": null, "raw": null}\n');
  t = await startTestEmulator({ projectId: 'ext-project' });
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(dir, { recursive: true, force: true });
});

const PEOPLE = {
  sourceFormat: 'CSV',
  sourceUris: ['gs://bkt/ext/people.csv'],
  csvOptions: { skipLeadingRows: '1' },
  schema: {
    fields: [
      { name: 'id', type: 'INTEGER' },
      { name: 'name', type: 'STRING' },
      { name: 'score', type: 'FLOAT' },
      { name: 'born', type: 'DATE' },
      { name: 'ts', type: 'TIMESTAMP' },
      { name: 'ok', type: 'BOOLEAN' },
    ],
  },
};

async function rowsOf(query: string, tableDefinitions: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const [job] = await t.bq.createQueryJob({ query, tableDefinitions } as never);
  const [rows] = await job.getQueryResults();
  return rows as Record<string, unknown>[];
}

describe('tableDefinitions', () => {
  it('reads a CSV file with a schema and skipLeadingRows; cells take the schema types', async () => {
    const rows = await rowsOf(
      'SELECT id, name, score, CAST(born AS STRING) AS born, FORMAT_TIMESTAMP("%F %T", ts) AS ts, ok FROM people ORDER BY id',
      { people: PEOPLE },
    );
    expect(rows).toEqual([
      { id: 1, name: 'ann', score: 1.5, born: '2000-01-02', ts: '2024-01-01 10:00:00', ok: true },
      // An empty field is NULL (CsvOptions.nullMarker: "The default value is the empty string").
      { id: 2, name: null, score: 2.25, born: null, ts: '2024-01-02 03:04:05', ok: false },
      { id: 3, name: 'cy', score: null, born: '2001-02-03', ts: null, ok: null },
    ]);
    // The types come from the schema: arithmetic and date functions apply.
    const [typed] = await rowsOf('SELECT SUM(id) AS s, MAX(EXTRACT(YEAR FROM born)) AS y FROM people', { people: PEOPLE });
    expect(typed).toEqual({ s: 6, y: 2001 });
  });

  it('a wildcard URI reads every matching file; autodetect takes the header and the types', async () => {
    const def = { sourceFormat: 'CSV', sourceUris: ['gs://bkt/parts/a-*'], autodetect: true, csvOptions: { fieldDelimiter: '\t' } };
    const rows = await rowsOf('SELECT k + 0 AS k, v FROM parts ORDER BY k', { parts: def });
    // `*` matches across `/` (a-sub/2.tsv) and not the b- file.
    expect(rows).toEqual([
      { k: 1, v: 'one' },
      { k: 2, v: 'two' },
      { k: 3, v: 'three' },
    ]);
  });

  it('reads newline-delimited JSON with nested and repeated fields from a local path', async () => {
    const def = {
      sourceFormat: 'NEWLINE_DELIMITED_JSON',
      sourceUris: [path.join(dir, 'local/events.json')],
      schema: {
        fields: [
          { name: 'id', type: 'INTEGER' },
          { name: 'tags', type: 'STRING', mode: 'REPEATED' },
          { name: 'info', type: 'RECORD', fields: [{ name: 'a', type: 'INTEGER' }, { name: 'b', type: 'STRING' }] },
          { name: 'raw', type: 'BYTES' },
        ],
      },
    };
    const rows = await rowsOf('SELECT id, ARRAY_LENGTH(tags) AS n, info.a AS a, SAFE_CONVERT_BYTES_TO_STRING(raw) AS raw FROM events ORDER BY id', { events: def });
    expect(rows).toEqual([
      { id: 1, n: 2, a: 10, raw: 'hi' },
      { id: 2, n: 0, a: null, raw: null },
    ]);
  });

  it('JSON autodetect lists the fields in reverse key order, nested ones too (as BigQuery detects them)', async () => {
    // Recorded http/jobs/upload_multipart_json_autodetect_nested_new_table: keys id, name, info{age, city}
    // are detected as info{city, age}, name, id.
    write('local/auto.json', '{"id":1,"name":"alice","info":{"age":30,"city":"NYC"}}\n{"id":2,"name":"bob","info":{"age":25,"city":"LA"}}\n');
    const def = { sourceFormat: 'NEWLINE_DELIMITED_JSON', sourceUris: [path.join(dir, 'local/auto.json')], autodetect: true };
    const [job] = await t.bq.createQueryJob({ query: 'SELECT * FROM auto ORDER BY id', tableDefinitions: { auto: def }, dryRun: true } as never);
    const fields = job.metadata.statistics.query.schema.fields as { name: string; type: string; fields?: { name: string; type: string }[] }[];
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['info', 'RECORD'],
      ['name', 'STRING'],
      ['id', 'INTEGER'],
    ]);
    expect(fields[0].fields!.map((f) => [f.name, f.type])).toEqual([
      ['city', 'STRING'],
      ['age', 'INTEGER'],
    ]);
    const rows = await rowsOf('SELECT id, info.city AS city FROM auto ORDER BY id', { auto: def });
    expect(rows).toEqual([
      { id: 1, city: 'NYC' },
      { id: 2, city: 'LA' },
    ]);
  });

  it('reads Parquet files (self-describing) written by EXPORT DATA', async () => {
    await t.bq.query({
      query: "EXPORT DATA OPTIONS (uri = 'gs://bkt/pq/*.parquet', format = 'PARQUET', overwrite = true) AS SELECT 1 AS id, 'p' AS s, DATE '2020-05-06' AS d, NUMERIC '1.25' AS amount",
    });
    const rows = await rowsOf('SELECT id, s, CAST(d AS STRING) AS d, CAST(amount AS STRING) AS amount FROM pq', {
      pq: { sourceFormat: 'PARQUET', sourceUris: ['gs://bkt/pq/*.parquet'] },
    });
    expect(rows).toEqual([{ id: 1, s: 'p', d: '2020-05-06', amount: '1.25' }]);
  });

  it('a dry run reports the schema of a query over an external table', async () => {
    const [job] = await t.bq.createQueryJob({ query: 'SELECT id, name FROM people', tableDefinitions: { people: PEOPLE }, dryRun: true } as never);
    const fields = job.metadata.statistics.query.schema.fields.map((f: { name: string; type: string }) => [f.name, f.type]);
    expect(fields).toEqual([
      ['id', 'INTEGER'],
      ['name', 'STRING'],
    ]);
  });

  it('in a session, an external table lives for its job only; the session TEMP tables stay', async () => {
    const [first] = await t.bq.createQueryJob({ query: 'CREATE TEMP TABLE kept AS SELECT 1 AS k', createSession: true } as never);
    await first.getQueryResults();
    const sessionId = first.metadata.statistics.sessionInfo.sessionId;
    const connectionProperties = [{ key: 'session_id', value: sessionId }];
    const [job] = await t.bq.createQueryJob({ query: 'SELECT k, COUNT(*) AS n FROM kept, people GROUP BY k', tableDefinitions: { people: PEOPLE }, connectionProperties } as never);
    expect((await job.getQueryResults())[0]).toEqual([{ k: 1, n: 3 }]);
    const [after] = await t.bq.createQueryJob({ query: 'SELECT k FROM kept', connectionProperties } as never);
    expect((await after.getQueryResults())[0]).toEqual([{ k: 1 }]);
    const gone = await errorOf(t.bq.createQueryJob({ query: 'SELECT * FROM people', connectionProperties } as never).then(([j]) => j.getQueryResults()));
    expect(gone.errors?.[0]?.reason).toBe('invalidQuery');
  });

  it('errors: no matching file (notFound), no schema without autodetect, unsupported format, a bad value', async () => {
    const missing = await errorOf(rowsOf('SELECT * FROM x', { x: { ...PEOPLE, sourceUris: ['gs://bkt/none/*.csv'] } }));
    expect(missing.errors?.[0]?.reason).toBe('notFound');
    const noSchema = await errorOf(rowsOf('SELECT * FROM x', { x: { sourceFormat: 'CSV', sourceUris: ['gs://bkt/ext/people.csv'] } }));
    expect(noSchema.errors?.[0]?.reason).toBe('invalid');
    const avro = await errorOf(rowsOf('SELECT * FROM x', { x: { sourceFormat: 'AVRO', sourceUris: ['gs://bkt/ext/people.csv'] } }));
    expect(avro.message).toMatch(/not supported/);
    // The header row read as data: `id` is not an INT64.
    const bad = await errorOf(rowsOf('SELECT * FROM x', { x: { ...PEOPLE, csvOptions: {} } }));
    expect(bad.errors?.[0]?.reason).toBe('invalid');
    expect(bad.message).toMatch(/^Error while reading table: x, error message: /);
  });
});
