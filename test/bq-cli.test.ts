/**
 * The `bq` CLI (Google Cloud SDK) against an in-process emulator, with the discovery document served
 * by the emulator (no --discovery_file), as docs/ARCHITECTURE.md §7 describes:
 * `CLOUDSDK_CONFIG=$(mktemp -d) bq --api=http://HOST:PORT --oauth_access_token=fake --project_id=P --format=json …`.
 *
 * bq costs ~1–2 s per call, so the suite makes 11 calls and runs the read-only ones concurrently.
 * Skipped, with a message, only when `bq` is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

/** The bq executable on PATH, if any. */
function findBq(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'bq');
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

const BQ = findBq();

describe.skipIf(!BQ)(`bq CLI${BQ ? '' : ' (skipped: the `bq` command is not installed on this machine)'}`, () => {
  let t: TestEmulator;
  let P: string;
  let configDir: string;
  let work: string;
  let fakeBin: string;

  beforeAll(async () => {
    t = await startTestEmulator({ projectId: 'cli-project' });
    P = t.projectId;
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-cloudsdk-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-cli-'));
    // bq runs `gcloud config list --format=json` on every call (≈0.7 s of Python start-up) only to
    // read defaults; with an empty CLOUDSDK_CONFIG the answer is `{}`, so a stub gives it directly.
    fakeBin = path.join(work, 'bin');
    fs.mkdirSync(fakeBin);
    fs.writeFileSync(path.join(fakeBin, 'gcloud'), '#!/bin/sh\necho "{}"\n', { mode: 0o755 });
  });
  afterAll(async () => {
    await t?.emu.close();
    for (const d of [configDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  /** Runs `bq --api=… --format=json <args>`; resolves with exit code and output (never rejects on exit code). */
  function bq(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const argv = [`--api=${t.emu.url}`, '--oauth_access_token=fake', `--project_id=${P}`, '--format=json', ...args];
    return new Promise((resolve, reject) => {
      const env = { ...process.env, CLOUDSDK_CONFIG: configDir, PATH: `${fakeBin}${path.delimiter}${process.env.PATH ?? ''}` };
      execFile(BQ!, argv, { timeout: 30_000, env }, (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException & { killed?: boolean }).killed) return reject(new Error(`bq ${args.join(' ')} timed out`));
        const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      });
    });
  }

  const ok = (r: { code: number; stdout: string; stderr: string }) => {
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };

  it('bq mk creates a dataset and a table with a schema', async () => {
    ok(await bq('mk', '--dataset', `${P}:cli_ds`));
    ok(await bq('mk', '--table', `${P}:cli_ds.people`, 'name:STRING,n:INTEGER,ok:BOOLEAN'));
    const [m] = await t.bq.dataset('cli_ds').table('people').getMetadata();
    expect(m.schema.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['name', 'STRING'],
      ['n', 'INTEGER'],
      ['ok', 'BOOLEAN'],
    ]);
  });

  it('bq insert streams newline-delimited JSON rows', async () => {
    const file = path.join(work, 'rows.json');
    fs.writeFileSync(file, ['{"name":"alpha","n":1,"ok":true}', '{"name":"beta","n":2,"ok":false}', '{"name":"gamma","n":3}'].join('\n') + '\n');
    const out = ok(await bq('insert', `${P}:cli_ds.people`, file));
    expect(JSON.parse(out)).toEqual({ kind: 'bigquery#tableDataInsertAllResponse' });
    const [rows] = await t.bq.dataset('cli_ds').table('people').getRows();
    expect(rows).toEqual([
      { name: 'alpha', n: 1, ok: true },
      { name: 'beta', n: 2, ok: false },
      { name: 'gamma', n: 3, ok: null },
    ]);
  });

  it('bq query, head, ls and show read what was written; errors are reported', async () => {
    const [query, head, ls, show, missing, badQuery] = await Promise.all([
      bq('query', '--nouse_legacy_sql', `SELECT name, n * 10 AS n10 FROM \`${P}.cli_ds.people\` WHERE n >= 2 ORDER BY n`),
      bq('head', '-s', '1', '-n', '5', `${P}:cli_ds.people`),
      bq('ls', `${P}:cli_ds`),
      bq('show', `${P}:cli_ds.people`),
      bq('show', `${P}:no_such_ds`),
      bq('query', '--nouse_legacy_sql', 'SELECT no_such_column'),
    ]);
    // bq --format=json prints INTEGER cells as strings.
    expect(JSON.parse(ok(query))).toEqual([
      { name: 'beta', n10: '20' },
      { name: 'gamma', n10: '30' },
    ]);
    // bq head uses tabledata.list with startIndex (-s 1).
    expect(JSON.parse(ok(head))).toEqual([
      { name: 'beta', n: '2', ok: 'false' },
      { name: 'gamma', n: '3', ok: null },
    ]);
    const tables = JSON.parse(ok(ls));
    expect(tables.map((x: { id: string; type: string }) => [x.id, x.type])).toEqual([[`${P}:cli_ds.people`, 'TABLE']]);
    const shown = JSON.parse(ok(show));
    // The rows bq insert streamed are still in the streaming buffer: numRows excludes them (Table.numRows in the discovery document).
    expect(shown).toMatchObject({ kind: 'bigquery#table', id: `${P}:cli_ds.people`, numRows: '0', type: 'TABLE', streamingBuffer: { estimatedRows: '3' } });
    expect(missing.code).not.toBe(0);
    // bq wraps long messages over several lines.
    const text = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, ' ');
    expect(text(missing)).toContain(`Not found: Dataset ${P}:no_such_ds`);
    expect(badQuery.code).not.toBe(0);
    expect(text(badQuery)).toContain('Unrecognized name: no_such_column at [1:8]');
  });

  it('bq query --destination_table prints the result, not a DML row count', async () => {
    const out = ok(await bq('query', '--nouse_legacy_sql', `--destination_table=${P}:cli_ds.seven`, 'SELECT 7 AS seven'));
    // A SELECT into a destination is statementType SELECT with no numDmlAffectedRows (recorded
    // api_configuration/doc_create_if_needed_new_destination), so bq prints the rows.
    expect(JSON.parse(out)).toEqual([{ seven: '7' }]);
    const [rows] = await t.bq.query({ query: `SELECT seven FROM \`${P}.cli_ds.seven\`` });
    expect(rows).toEqual([{ seven: 7 }]);
  });

  it('bq update sets a description (PATCH with If-Match)', async () => {
    ok(await bq('update', '--description', 'set by bq', `${P}:cli_ds.people`));
    const [m] = await t.bq.dataset('cli_ds').table('people').getMetadata();
    expect(m.description).toBe('set by bq');
    // Still buffered (streamed by bq insert above): counted in streamingBuffer, not numRows.
    expect(m.numRows).toBe('0');
    expect(m.streamingBuffer?.estimatedRows).toBe('3');
  });

  it('bq query runs DDL, DML, a script and a procedure', async () => {
    const script = [
      'CREATE TABLE cli_ds.fam (id INT64, v STRING);',
      "INSERT INTO cli_ds.fam VALUES (1, 'a'), (2, 'b'), (3, 'c');",
      "UPDATE cli_ds.fam SET v = 'B' WHERE id = 2;",
      'DELETE FROM cli_ds.fam WHERE id = 3;',
      'CREATE PROCEDURE cli_ds.add_one(x INT64, OUT y INT64) BEGIN SET y = x + 1; END;',
      'DECLARE r INT64;',
      'CALL cli_ds.add_one(41, r);',
      'SELECT id, v, r FROM cli_ds.fam ORDER BY id;',
    ].join('\n');
    const out = ok(await bq('query', '--nouse_legacy_sql', script));
    // For a script bq prints each child job's output, newest first: the SELECT's rows, then the
    // DML and DDL messages ("Number of affected rows: 1", "Created …").
    const printed = JSON.parse(out) as unknown[];
    expect(printed.some((p) => typeof p === 'string' && /Number of affected rows: 1/.test(p))).toBe(true);
    expect((printed[0] as Record<string, string>[]).map((r) => [r.id, r.v, r.r])).toEqual([
      ['1', 'a', '42'],
      ['2', 'B', '42'],
    ]);
  });

  it('bq load uploads a local CSV file (media upload) into a new table', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-bq-load-'));
    const file = path.join(dir, 'people.csv');
    fs.writeFileSync(file, 'id,name\n1,ann\n2,bob\n');
    ok(await bq('load', '--source_format=CSV', '--skip_leading_rows=1', `${P}:cli_ds.loaded`, file, 'id:INTEGER,name:STRING'));
    fs.rmSync(dir, { recursive: true, force: true });
    const [rows] = await t.bq.query('SELECT id, name FROM cli_ds.loaded ORDER BY id');
    expect(rows).toEqual([
      { id: 1, name: 'ann' },
      { id: 2, name: 'bob' },
    ]);
  });

  it('bq rm -r -f removes the dataset and its tables', async () => {
    ok(await bq('rm', '-r', '-f', `${P}:cli_ds`));
    expect((await t.bq.dataset('cli_ds').exists())[0]).toBe(false);
  });
});
