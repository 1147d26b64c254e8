/**
 * Coming from goccy/bigquery-emulator: its command line (`--project`, `--dataset` repeated,
 * `--port`, `--grpc-port`, `--database`, `--data-from-yaml`, `--log-level`, `--log-format`, written
 * `--flag=value` and with no subcommand) and its YAML seed format (projects → datasets → tables
 * with columns and data, views, routines) start bqemu with that data, read back through
 * `@google-cloud/bigquery`. Expected values are the seed file's own (BigQuery returns stored
 * values as written: NUMERIC/BIGNUMERIC digits exact, a TIMESTAMP without zone as UTC).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killTree } from './helpers/kill-tree.js';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-goccy-'));
const seedFile = path.join(dir, 'data.yaml');
const database = path.join(dir, 'db');

const SEED = `projects:
- id: shop
  datasets:
    - id: sales
      tables:
        - id: orders
          columns:
            - name: id
              type: INTEGER
              mode: REQUIRED
            - name: customer
              type: STRING
              mode: required # any case
            - name: items
              type: STRUCT
              mode: repeated
              fields:
                - name: sku
                  type: STRING
                - name: attrs
                  type: JSON
            - name: ordered_on
              type: DATE
            - name: total
              type: NUMERIC
            - name: exact
              type: BIGNUMERIC
            - name: paid_at
              type: TIMESTAMP
            - name: wait
              type: INTERVAL
          data:
            - id: 1
              customer: ada
              items:
                - sku: A-1
                  attrs: '{"color": "red"}'
              ordered_on: "2021-03-04"
              total: 12.5
              exact: 1.23456789012345678901234567
              paid_at: '2021-03-04T10:00:00'
              wait: 1-2 3 4:5:6
            - id: 2
              customer: grace
              items: []
              ordered_on: "2021-05-06"
              total: 7
              exact: 2
              paid_at: '2021-05-06T08:30:00'
              wait: 0-0 1 0:0:0
        - id: big_orders
          view:
            query: SELECT id FROM sales.orders WHERE total > 10
      routines:
        - id: double_it
          metadata:
            routineType: SCALAR_FUNCTION
            language: SQL
            definitionBody: x * 2
            arguments:
              - name: x
                dataType:
                  typeKind: INT64
- id: archive
  datasets:
    - id: old
    - id: older
`;

/** Starts `node bin/bqemu.js <goccy flags>`; resolves with the REST URL once it serves, and everything it printed. */
async function startGoccyStyle(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const args = ['--project=shop', '--dataset=staging', '--dataset=scratch', '--port=0', '--grpc-port=0', `--database=${database}`, `--data-from-yaml=${seedFile}`, '--log-level=info', '--log-format=console'];
  const child = spawn(process.execPath, [path.join(root, 'bin/bqemu.js'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 90_000;
  let m: RegExpExecArray | null;
  while (!(m = /bqemu serving BigQuery REST v2 on (http:\/\/\S+)/.exec(out))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await killTree(child);
      throw new Error(`emulator did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, url: m[1]!, output: () => out };
}

let emu: Awaited<ReturnType<typeof startGoccyStyle>> | undefined;
let bq: BigQuery;

beforeAll(async () => {
  fs.writeFileSync(seedFile, SEED);
  emu = await startGoccyStyle();
  bq = new BigQuery({ projectId: 'shop', apiEndpoint: emu.url, authClient: new PassThroughClient() as never });
}, 120_000);
afterAll(async () => {
  if (emu) await killTree(emu.child);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('goccy/bigquery-emulator command line and YAML seed', () => {
  it('loads the tables with their schema and rows', async () => {
    const [rows] = await bq.query({ query: 'SELECT * FROM sales.orders ORDER BY id', wrapIntegers: false });
    expect(JSON.parse(JSON.stringify(rows))).toEqual([
      { id: 1, customer: 'ada', items: [{ sku: 'A-1', attrs: '{"color":"red"}' }], ordered_on: { value: '2021-03-04' }, total: '12.5', exact: '1.23456789012345678901234567', paid_at: { value: '2021-03-04T10:00:00.000Z' }, wait: '1-2 3 4:5:6' },
      { id: 2, customer: 'grace', items: [], ordered_on: { value: '2021-05-06' }, total: '7', exact: '2', paid_at: { value: '2021-05-06T08:30:00.000Z' }, wait: '0-0 1 0:0:0' },
    ]);
    const [meta] = await bq.dataset('sales').table('orders').getMetadata();
    expect(meta.schema.fields.map((f: { name: string; type: string; mode?: string }) => `${f.name} ${f.type} ${f.mode ?? 'NULLABLE'}`)).toEqual([
      'id INTEGER REQUIRED', 'customer STRING REQUIRED', 'items RECORD REPEATED', 'ordered_on DATE NULLABLE', 'total NUMERIC NULLABLE', 'exact BIGNUMERIC NULLABLE', 'paid_at TIMESTAMP NULLABLE', 'wait INTERVAL NULLABLE',
    ]);
    expect(meta.numRows).toBe('2');
  });

  it('creates the views, routines, every project\'s datasets and the --dataset ones', async () => {
    expect((await bq.query('SELECT * FROM sales.big_orders'))[0]).toEqual([{ id: 1 }]);
    expect((await bq.query('SELECT sales.double_it(21) AS v'))[0]).toEqual([{ v: 42 }]);
    expect((await bq.getDatasets())[0].map((d) => d.id).sort()).toEqual(['sales', 'scratch', 'staging']);
    expect((await bq.getDatasets({ projectId: 'archive' }))[0].map((d) => d.id).sort()).toEqual(['old', 'older']);
  });

  it('seeded rows are ordinary stored rows: DML works on them at once', async () => {
    await bq.query("UPDATE sales.orders SET customer = 'Ada' WHERE id = 1");
    expect((await bq.query('SELECT customer FROM sales.orders WHERE id = 1'))[0]).toEqual([{ customer: 'Ada' }]);
  });

  it('logs in the console format and keeps the data in the --database directory across a restart', async () => {
    expect(emu!.output()).toMatch(/^\[bqemu\] \d{4}-\d\d-\d\dT\S+ INFO server: server listening/m);
    await killTree(emu!.child);
    emu = await startGoccyStyle();
    const again = new BigQuery({ projectId: 'shop', apiEndpoint: emu.url, authClient: new PassThroughClient() as never });
    // The tables exist already, so the seed file adds no second copy of its rows; the update persisted.
    expect((await again.query('SELECT id, customer FROM sales.orders ORDER BY id'))[0]).toEqual([{ id: 1, customer: 'Ada' }, { id: 2, customer: 'grace' }]);
  }, 120_000);

  it('refuses a goccy SQLite file as --database, and a seed file that is not one, before starting', async () => {
    const sqlite = path.join(dir, 'goccy.db');
    fs.writeFileSync(sqlite, 'SQLite format 3\0');
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const c = spawn(process.execPath, [path.join(root, 'bin/bqemu.js'), ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        c.stderr.on('data', (d) => (err += d));
        c.on('close', (code) => resolve({ code, err }));
      });
    const db = await run(['--project=p', '--port=0', '--grpc-port=0', `--database=${sqlite}`]);
    expect(db.code).toBe(2);
    expect(db.err).toMatch(/--database: .*goccy\.db is a file/);
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'tables: []\n');
    const yaml = await run(['--project=p', '--port=0', '--grpc-port=0', `--data-from-yaml=${bad}`]);
    expect(yaml.code).toBe(2);
    expect(yaml.err).toMatch(/expected a top-level "projects:" list/);
  }, 120_000);
});
