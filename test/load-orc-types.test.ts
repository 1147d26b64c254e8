/**
 * ORC types and encodings none of the ORC project's example files holds, in files built by hand
 * from the Apache ORC specification v1 (test/helpers/orc-test-file.ts; each stream's bytes are
 * written here from the specification's encodings), loaded through @google-cloud/bigquery:
 * - timestamp with local time zone (TIMESTAMP_INSTANT): seconds from 2015-01-01 00:00:00 UTC,
 *   nanoseconds with their trailing-zero count (`nanos << 3 | z`, z + 1 zeros removed) → the instant;
 * - timestamp written in the zone America/New_York: the writer's wall clock (seconds counted
 *   from 2015-01-01 00:00:00 in that zone, through a daylight-saving change);
 * - decimal64 (DATA RLE v2 at the column's scale) → NUMERIC; a dictionary string column with
 *   a PRESENT stream (RLE v1);
 * - BigQuery's refusals: a list of lists ("Nested lists and lists of maps are not supported",
 *   BigQuery "Loading ORC data", ORC conversions), a NULL list element, LZO compression.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { buildOrcFile, signedVarint as sv, varint as v, type TestFile } from './helpers/orc-test-file.js';

const DS = 'orc_types';
let t: TestEmulator;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-orc-types-'));
  t = await startTestEmulator({ projectId: 'orc-types-project' });
  await t.bq.createDataset(DS);
});
afterAll(async () => {
  await t?.emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes the file and loads it into `table` by media upload; answers the error of a failed load. */
async function load(table: string, f: TestFile): Promise<{ message: string } | undefined> {
  const file = path.join(dir, `${table}.orc`);
  fs.writeFileSync(file, buildOrcFile(f));
  return t.bq
    .dataset(DS)
    .table(table)
    .load(file, { sourceFormat: 'ORC' })
    .then(
      () => undefined,
      (e: { message: string }) => e,
    );
}

/** 2015-01-01 00:00:00 UTC in seconds. */
const ORC_EPOCH = 1_420_070_400;

describe('ORC types from files built from the specification', () => {
  it('timestamp with local time zone, a writer-zone timestamp across DST, decimal64, dictionary strings with NULLs', async () => {
    const file: TestFile = {
      rows: 2,
      writerTimezone: 'America/New_York',
      types: [
        { kind: 'STRUCT', subtypes: [1, 2, 3, 4], fieldNames: ['instant', 'local', 'amount', 'name'] },
        { kind: 'TIMESTAMP_INSTANT' },
        { kind: 'TIMESTAMP' },
        { kind: 'DECIMAL', precision: 10, scale: 2 },
        { kind: 'VARCHAR' },
      ],
      encodings: [{ kind: 'DIRECT' }, { kind: 'DIRECT' }, { kind: 'DIRECT' }, { kind: 'DIRECT_V2' }, { kind: 'DICTIONARY', dictionarySize: 2 }],
      streams: [
        // instant: 0 s and -1420070400 s from the ORC epoch (RLE v1, two literals); nanos 0 and 123456000 (three zeros removed: z = 2).
        { column: 1, kind: 'DATA', bytes: [0xfe, ...sv(0), ...sv(-ORC_EPOCH)] },
        { column: 1, kind: 'SECONDARY', bytes: [0xfe, ...v(0), ...v((123456 << 3) | 2)] },
        // local: 0 s and 181 days less the hour daylight saving skips on 2015-03-08 in New York.
        { column: 2, kind: 'DATA', bytes: [0xfe, ...sv(0), ...sv(181 * 86400 - 3600)] },
        { column: 2, kind: 'SECONDARY', bytes: [0xfe, ...v(0), ...v(0)] },
        // amount: RLE v2 DIRECT, 16-bit zigzag values 24690 (12345) and 9 (-5).
        { column: 3, kind: 'DATA', bytes: [0x5e, 0x01, 0x60, 0x72, 0x00, 0x09] },
        // name: present, absent; dictionary ["ab", "yz"]; the one value is entry 1.
        { column: 4, kind: 'PRESENT', bytes: [0xff, 0x80] },
        { column: 4, kind: 'DATA', bytes: [0xff, 0x01] },
        { column: 4, kind: 'LENGTH', bytes: [0xfe, 0x02, 0x02] },
        { column: 4, kind: 'DICTIONARY_DATA', bytes: [...Buffer.from('abyz')] },
      ],
    };
    expect(await load('mixed', file)).toBeUndefined();
    const [meta] = await t.bq.dataset(DS).table('mixed').getMetadata();
    expect(meta.schema.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(['instant:TIMESTAMP', 'local:TIMESTAMP', 'amount:NUMERIC', 'name:STRING']);
    const [rows] = await t.bq.query(`SELECT UNIX_MICROS(instant) AS instant, UNIX_MICROS(local) AS local, CAST(amount AS STRING) AS amount, name FROM ${DS}.mixed ORDER BY instant DESC`);
    expect(rows).toEqual([
      { instant: ORC_EPOCH * 1e6, local: ORC_EPOCH * 1e6, amount: '123.45', name: 'yz' },
      // 1970-01-01 00:00:00.123456 UTC; 2015-07-01 00:00:00 (New York wall clock) = 1435708800 s.
      { instant: 123456, local: 1_435_708_800 * 1e6, amount: '-0.05', name: null },
    ]);
  });

  it('a list of lists is refused as BigQuery refuses nested lists', async () => {
    const err = await load('nested', {
      rows: 0,
      types: [{ kind: 'STRUCT', subtypes: [1], fieldNames: ['l'] }, { kind: 'LIST', subtypes: [2] }, { kind: 'LIST', subtypes: [3] }, { kind: 'INT' }],
      encodings: [{ kind: 'DIRECT' }, { kind: 'DIRECT_V2' }, { kind: 'DIRECT_V2' }, { kind: 'DIRECT_V2' }],
      streams: [],
    });
    expect(err?.message).toBe('Error while reading data, error message: Nested lists and lists of maps are not supported in ORC files');
  });

  it('a NULL list element fails the load (a REPEATED field holds no NULL)', async () => {
    const err = await load('null_element', {
      rows: 1,
      types: [{ kind: 'STRUCT', subtypes: [1], fieldNames: ['l'] }, { kind: 'LIST', subtypes: [2] }, { kind: 'INT' }],
      encodings: [{ kind: 'DIRECT' }, { kind: 'DIRECT' }, { kind: 'DIRECT' }],
      // one list of length 1 (RLE v1 literal), whose element is absent (PRESENT bit 0).
      streams: [
        { column: 1, kind: 'LENGTH', bytes: [0xff, 0x01] },
        { column: 2, kind: 'PRESENT', bytes: [0xff, 0x00] },
      ],
    });
    expect(err?.message).toContain('Error while reading data, error message: ');
    expect(err?.message).toContain('NULL element');
  });

  it('an LZO-compressed file is refused with a reading error', async () => {
    const err = await load('lzo', { rows: 0, compression: 'LZO', types: [{ kind: 'STRUCT', subtypes: [], fieldNames: [] }], encodings: [{ kind: 'DIRECT' }], streams: [] });
    expect(err?.message).toBe('Error while reading data, error message: ORC compression LZO is not supported');
  });
});
