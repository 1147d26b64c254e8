/**
 * ORC load jobs (sourceFormat ORC) through @google-cloud/bigquery: the Apache ORC project's
 * example files (test/data/orc/, README there) loaded with `table.load(file, {sourceFormat:
 * 'ORC'})` (media upload) or `createLoadJob` on gs:// URIs, queried back and compared cell by
 * cell with the ORC project's expected content of each file (test/helpers/orc-expected.ts for
 * the canonical forms). Schemas are checked against BigQuery's ORC conversions
 * (https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-orc#orc_conversions:
 * integers INTEGER, float/double FLOAT, string/varchar/char STRING, binary BYTES, timestamp
 * TIMESTAMP, struct RECORD, list REPEATED, map REPEATED RECORD<key, value>, union RECORD of
 * field_0…, decimal NUMERIC/BIGNUMERIC/STRING by decimalTargetTypes (default ["NUMERIC",
 * "STRING"] for ORC, JobConfigurationLoad.decimalTargetTypes), every field NULLABLE).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectedRows, rowDifferences, type Field } from './helpers/orc-expected.js';

const DATA = path.resolve('test/data/orc');
const DS = 'orc_loads';
let t: TestEmulator;
let gcs: string;
let savedGcs: string | undefined;

beforeAll(async () => {
  gcs = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-orc-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = gcs;
  t = await startTestEmulator({ projectId: 'orc-project' });
  await t.bq.createDataset(DS);
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(gcs, { recursive: true, force: true });
});

/** Puts a test file into the Cloud Storage stand-in folder as gs://<bucket>/<object>. */
function toGcs(file: string, object: string): string {
  const out = path.join(gcs, 'orc-bucket', object);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.copyFileSync(path.join(DATA, file), out);
  return `gs://orc-bucket/${object}`;
}

const tableName = (file: string) => file.replace(/\W/g, '_');
const schemaOf = async (table: string) => ((await t.bq.dataset(DS).table(table).getMetadata())[0].schema.fields as Field[]);
const rowsOf = async (table: string) => (await t.bq.query({ query: `SELECT * FROM ${DS}.${table}`, wrapIntegers: true }))[0];

/** Loads `<name>.orc` by media upload and compares it with `expected/<expectedName>.jsn.gz`. */
async function loadAndCompare(name: string, floats: string[] = [], expectedName = name): Promise<void> {
  const table = tableName(name);
  const [job] = await t.bq.dataset(DS).table(table).load(path.join(DATA, `${name}.orc`), { sourceFormat: 'ORC' });
  expect(job.status?.state).toBe('DONE');
  expect(job.status?.errorResult).toBeUndefined();
  const expected = expectedRows(path.join(DATA, 'expected', `${expectedName}.jsn.gz`));
  expect(job.statistics?.load?.outputRows).toBe(String(expected.length));
  const fields = await schemaOf(table);
  expect(rowDifferences(fields, await rowsOf(table), expected, new Set(floats))).toEqual([]);
}

describe('ORC load jobs: the ORC project example files, cell by cell', () => {
  it('TestOrcFile.test1 (ZLIB; every primitive type, nested struct, list and map) with BigQuery’s converted schema', async () => {
    await loadAndCompare('TestOrcFile.test1', ['float1']);
    const rec = (name: string, mode: string, fields: object[]) => ({ name, type: 'RECORD', mode, fields });
    const f = (name: string, type: string, mode = 'NULLABLE') => ({ name, type, mode });
    const inner = [f('int1', 'INTEGER'), f('string1', 'STRING')];
    expect(await schemaOf(tableName('TestOrcFile.test1'))).toEqual([
      f('boolean1', 'BOOLEAN'),
      f('byte1', 'INTEGER'),
      f('short1', 'INTEGER'),
      f('int1', 'INTEGER'),
      f('long1', 'INTEGER'),
      f('float1', 'FLOAT'),
      f('double1', 'FLOAT'),
      f('bytes1', 'BYTES'),
      f('string1', 'STRING'),
      rec('middle', 'NULLABLE', [rec('list', 'REPEATED', inner)]),
      rec('list', 'REPEATED', inner),
      rec('map', 'REPEATED', [f('key', 'STRING'), rec('value', 'NULLABLE', inner)]),
    ]);
  });

  // 7,500 rows of nested lists and maps: the engine inserts nested values as SQL literals
  // (src/engine/dml-values.ts), ~20 s on an idle machine, hence the longer timeout.
  it('orc-file-11-format (format 0.11, uncompressed, two stripes, Hive 0.11 decimals, timestamps)', { timeout: 240_000 }, async () => {
    await loadAndCompare('orc-file-11-format', ['float1']);
  });

  it('TestOrcFile.testSnappy (SNAPPY, two stripes)', async () => {
    await loadAndCompare('TestOrcFile.testSnappy');
  });

  it('TestVectorOrcFile.testLz4 (LZ4, 64-bit integers)', async () => {
    await loadAndCompare('TestVectorOrcFile.testLz4');
  });

  it('TestVectorOrcFile.testZstd.0.12 (ZSTD; the same rows as the LZ4 file)', async () => {
    await loadAndCompare('TestVectorOrcFile.testZstd.0.12', [], 'TestVectorOrcFile.testLz4');
  });

  it('nulls-at-end-snappy (70,000 rows in one stripe, tinyint…bigint, float, double, boolean, trailing NULLs)', async () => {
    await loadAndCompare('nulls-at-end-snappy', ['_col4']);
  });

  it('TestOrcFile.testDate1900 (dates and timestamps from 1900 on, writer time zone US/Pacific)', async () => {
    await loadAndCompare('TestOrcFile.testDate1900');
  });

  it('TestOrcFile.testUnionAndTimestamp (union → RECORD of field_0/field_1; decimal(38,18) → STRING by default)', async () => {
    await loadAndCompare('TestOrcFile.testUnionAndTimestamp');
    expect((await schemaOf(tableName('TestOrcFile.testUnionAndTimestamp'))).map((x) => [x.name, x.type, x.fields?.map((c) => `${c.name}:${c.type}`)])).toEqual([
      ['time', 'TIMESTAMP', undefined],
      ['union', 'RECORD', ['field_0:INTEGER', 'field_1:STRING']],
      ['decimal', 'STRING', undefined],
    ]);
  });

  it('decimal (decimal → NUMERIC when precision and scale fit)', async () => {
    await loadAndCompare('decimal');
    expect((await schemaOf('decimal')).map((x) => x.type)).toEqual(['NUMERIC']);
  });

  it('over1k_bloom (ZLIB; bloom filter streams skipped; decimal, binary, timestamps)', async () => {
    await loadAndCompare('over1k_bloom', ['_col4']);
  });

  it('dictionary-encoded strings (TestStringDictionary.testRowIndex), several stripes, plain files', async () => {
    await loadAndCompare('TestStringDictionary.testRowIndex');
    await loadAndCompare('TestOrcFile.testMemoryManagementV12');
    await loadAndCompare('orc_index_int_string');
    await loadAndCompare('TestOrcFile.testStringAndBinaryStatistics');
  });

  it('an ORC file with a schema and no rows makes an empty table with that schema', async () => {
    await loadAndCompare('TestOrcFile.emptyFile');
    expect((await schemaOf(tableName('TestOrcFile.emptyFile'))).length).toBe(12);
  });
});

describe('ORC load jobs: options and several files', () => {
  it('decimalTargetTypes ["NUMERIC", "BIGNUMERIC"] loads decimal(38,18) as BIGNUMERIC', async () => {
    const uri = toGcs('TestOrcFile.testUnionAndTimestamp.orc', 'dec/union.orc');
    const load = { sourceUris: [uri], sourceFormat: 'ORC', decimalTargetTypes: ['NUMERIC', 'BIGNUMERIC'] as ('NUMERIC' | 'BIGNUMERIC')[], destinationTable: { projectId: t.projectId, datasetId: DS, tableId: 'union_big' } };
    const [job] = await t.bq.createJob({ configuration: { load } });
    await job.promise();
    expect((await schemaOf('union_big')).map((x) => x.type)).toEqual(['TIMESTAMP', 'RECORD', 'BIGNUMERIC']);
    const expected = expectedRows(path.join(DATA, 'expected', 'TestOrcFile.testUnionAndTimestamp.jsn.gz'));
    expect(rowDifferences(await schemaOf('union_big'), await rowsOf('union_big'), expected, new Set())).toEqual([]);
  });

  it('a gs:// wildcard loads every matching file; WRITE_TRUNCATE replaces, the default appends', async () => {
    toGcs('TestOrcFile.testMemoryManagementV12.orc', 'many/part-a.orc');
    toGcs('TestOrcFile.testSnappy.orc', 'many/part-b.orc');
    const load = { sourceUris: ['gs://orc-bucket/many/*.orc'], sourceFormat: 'ORC', destinationTable: { projectId: t.projectId, datasetId: DS, tableId: 'many' } };
    const [job] = await t.bq.createJob({ configuration: { load } });
    await job.promise();
    const [meta] = await job.getMetadata();
    expect(meta.statistics.load.inputFiles).toBe('2');
    const expected = [
      ...expectedRows(path.join(DATA, 'expected', 'TestOrcFile.testMemoryManagementV12.jsn.gz')),
      ...expectedRows(path.join(DATA, 'expected', 'TestOrcFile.testSnappy.jsn.gz')),
    ];
    expect(rowDifferences(await schemaOf('many'), await rowsOf('many'), expected, new Set())).toEqual([]);
    const [again] = await t.bq.createJob({ configuration: { load } });
    await again.promise();
    expect((await rowsOf('many')).length).toBe(2 * expected.length);
    const [trunc] = await t.bq.createJob({ configuration: { load: { ...load, writeDisposition: 'WRITE_TRUNCATE' } } });
    await trunc.promise();
    expect((await rowsOf('many')).length).toBe(expected.length);
  });

  it('the schema comes from the alphabetically last file; its columns missing in another file load as NULL', async () => {
    toGcs('TestOrcFile.testStringAndBinaryStatistics.orc', 'mixed/a.orc'); // bytes1, string1
    toGcs('TestOrcFile.testSnappy.orc', 'mixed/b.orc'); // int1, string1
    const load = { sourceUris: ['gs://orc-bucket/mixed/*'], sourceFormat: 'ORC', destinationTable: { projectId: t.projectId, datasetId: DS, tableId: 'mixed' } };
    const [job] = await t.bq.createJob({ configuration: { load } });
    await job.promise();
    expect((await schemaOf('mixed')).map((x) => `${x.name}:${x.type}`)).toEqual(['int1:INTEGER', 'string1:STRING']);
    const [[counts]] = await t.bq.query({ query: `SELECT COUNT(*) AS n, COUNTIF(int1 IS NULL) AS no_int, COUNTIF(string1 = 'foo') AS foo FROM ${DS}.mixed` });
    expect(counts).toEqual({ n: 10004, no_int: 4, foo: 1 });
  });

  it('into an existing table: a file field the table lacks fails the append, ignoreUnknownValues leaves it out', async () => {
    await t.bq.dataset(DS).createTable('ints_only', { schema: { fields: [{ name: 'int1', type: 'INTEGER' }] } });
    const uri = toGcs('TestOrcFile.testSnappy.orc', 'known/snappy.orc');
    const load = { sourceUris: [uri], sourceFormat: 'ORC', destinationTable: { projectId: t.projectId, datasetId: DS, tableId: 'ints_only' } };
    const err = await t.bq.createJob({ configuration: { load } }).then(
      () => undefined,
      (e: { message: string }) => e,
    );
    expect(err?.message).toMatch(/string1/);
    const [job] = await t.bq.createJob({ configuration: { load: { ...load, ignoreUnknownValues: true } } });
    await job.promise();
    const [[row]] = await t.bq.query(`SELECT COUNT(*) AS n, COUNTIF(int1 = -1160101563) AS first FROM ${DS}.ints_only`);
    expect(row).toEqual({ n: 10000, first: 1 });
    expect((await schemaOf('ints_only')).map((f) => f.name)).toEqual(['int1']);
  });
});
