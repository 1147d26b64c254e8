/**
 * Wire-level fixtures of real BigQuery (`conformance/wire/jobs/<name>/`, copied into the repository:
 * setup.sql, setup_requests.json, request.json, expected_response.json): each request is replayed
 * against the emulator and the answer must have the recorded HTTP status and the recorded body's
 * shape — the same keys at every level (no missing, no extra), literal values equal where the
 * recording keeps them (`"<*>"` stands for ids, times and other run-dependent values, whose
 * presence alone is checked). Replay rules: test/helpers/wire-fixtures.ts.
 *
 * The recordings' `${GCS_BUCKET}` was `test-webhook-bucket/bqemu-conformance` (the query text of
 * export_csv_query_job is echoed verbatim), so the replay uses that value; files land under a
 * temporary BQEMU_GCS_DIR.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { replayWireFixture, wireFixtureNames } from './helpers/wire-fixtures.js';

/** Fixtures the emulator answers in the recorded shape. */
const FIXTURES = [
  'job_get_complete',
  'job_cancel',
  'job_delete',
  'job_insert_returns_job_resource',
  'job_list_in_project',
  'page_empty_result_set',
  'page_first_page_only',
  'page_get_query_results_after_complete',
  'page_max_results_zero',
  'page_total_rows_in_response',
  'page_walk_to_end_no_more_token',
  'page_walk_two_pages',
  'dryrun_schema_only',
  'dryrun_simple_query',
  'dryrun_invalid_query',
  'export_csv_query_job',
  'insertall_basic',
  'insertall_insert_id_dedup',
  'insertall_skip_invalid_rows',
  'insertall_template_suffix',
  'tabledata_list_empty_table',
  'tabledata_list_first_page_only',
  'tabledata_list_selected_fields',
  'tabledata_list_start_index',
  'tabledata_list_walk_two_pages',
  'tables_list_basic',
  'tables_get_basic',
  'datasets_get_basic',
  'datasets_list_basic',
];

/** Fixtures not answered in the recorded shape, and why (the reason of each entry). */
const NOT_BUILT: Record<string, string> = {
  extract_avro_basic: 'extract jobs work (test/copy-extract-jobs.test.ts), but the recording caught the job RUNNING (statistics without endTime, with reservation_id); the emulator answers it DONE',
  extract_avro_round_trip: 'extract jobs work (test/copy-extract-jobs.test.ts), but the recording caught the job RUNNING (statistics without endTime, with reservation_id); the emulator answers it DONE',
  load_avro_basic: 'the recorded .avro source file is not in the corpus',
  load_avro_invalid_file: 'the recorded source file is not in the corpus',
  load_avro_logical_decimal: 'the recorded .avro source file is not in the corpus',
  load_avro_nested_record: 'the recorded .avro source file is not in the corpus',
  load_orc_basic: 'the recorded ORC source file is not in the corpus (ORC loads themselves: test/load-orc.test.ts)',
  load_orc_nested: 'the recorded ORC source file is not in the corpus (ORC loads themselves: test/load-orc.test.ts)',
};
/**
 * upload_* fixtures: uploads work (test/load-jobs.test.ts), but the three real recordings expect a
 * tables.get answer without the numBytes fields tables_get_basic records, and the other twelve are
 * another emulator's hand-written baselines, not BigQuery's shapes.
 */
const isUpload = (name: string) => name.startsWith('upload_');

let t: TestEmulator;
let gcs: string;
let savedGcs: string | undefined;

beforeAll(async () => {
  gcs = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-wire-'));
  savedGcs = process.env.BQEMU_GCS_DIR;
  process.env.BQEMU_GCS_DIR = gcs;
  t = await startTestEmulator({ projectId: 'wire-jobs' });
});
afterAll(async () => {
  await t?.emu.close();
  if (savedGcs === undefined) delete process.env.BQEMU_GCS_DIR;
  else process.env.BQEMU_GCS_DIR = savedGcs;
  fs.rmSync(gcs, { recursive: true, force: true });
});

describe('recorded jobs wire fixtures', () => {
  for (const name of FIXTURES) {
    it(name, async () => {
      const o = await replayWireFixture(t.emu.url, t.projectId, name);
      expect(o.setupErrors).toEqual([]);
      expect(o.status, JSON.stringify(o.body)).toBe(o.expectedStatus);
      expect(o.contentType).toContain(o.expectedContentType);
      expect(o.diffs).toEqual([]);
    });
  }

  it('every fixture of the corpus is either replayed or listed as not built', () => {
    const unlisted = wireFixtureNames().filter((n) => !FIXTURES.includes(n) && !(n in NOT_BUILT) && !isUpload(n));
    expect(unlisted).toEqual([]);
  });
});
