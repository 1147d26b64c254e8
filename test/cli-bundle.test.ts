/**
 * The build's command-line bundle as `bqemu serve` runs it (bin/bqemu.js, scripts/build-bundle.mjs):
 * one CommonJS file of ASCII, its V8 code cache from the build's training run (accepted by this
 * Node, so a start deserialises code instead of compiling it), and a spawned `bqemu serve` running
 * them that answers a query through @google-cloud/bigquery and stops cleanly on a SIGINT sent the
 * moment its ready line is read (the handlers are in place before the line is written). `serve`
 * loads the Cloud Storage client only when a service is named (src/cli/main.ts): with
 * `--storage-emulator-host` a load job reads its object from that service. The bundled serve also
 * takes proto rows through the Storage Write API (`@google-cloud/bigquery-storage`'s JSONWriter).
 */
import { spawn } from 'node:child_process';
import { Buffer, isAscii } from 'node:buffer';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { BigQuery } from '@google-cloud/bigquery';
import { Storage } from '@google-cloud/storage';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshBuild } from './helpers/fresh-build.js';
import { startCloudStorageEmulator } from './helpers/cloud-storage-emulator.js';
import { killTree, spawnServing } from './helpers/kill-tree.js';
import { jsonWriter, writerClient } from './helpers/storage-write.js';

const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'dist', 'cli', 'bundle', 'main.cjs');

beforeAll(async () => {
  await ensureFreshBuild(root);
}, 240_000);

describe('the command-line bundle', () => {
  it('is ASCII and has a code cache this Node accepts', () => {
    const bytes = fs.readFileSync(bundle);
    expect(isAscii(bytes)).toBe(true);
    // The cache is named after the build id in the bundle's first line.
    const id = /^'use strict';\n\/\* bqemu build ([0-9a-f]+) \*\//.exec(bytes.toString('latin1', 0, 100))?.[1];
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const cache = fs.readFileSync(`${bundle}.${id}.cache`);
    // Compiled as bin/bqemu.js compiles it; not run.
    const script = new vm.Script(Module.wrap(bytes.toString('latin1')), { filename: bundle, cachedData: Buffer.from(cache) });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('bqemu serve answers a query, and a SIGINT sent on reading its ready line stops it cleanly', async () => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'bqemu.js'), 'serve', '--port', '0', '--grpc-port', '0', '--project', 'bundle-project', '--log-level', 'warn'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d;
          const m = /serving BigQuery REST v2 on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then(({ code }) => reject(new Error(`bqemu serve exited (${code}) before serving: ${out}`)));
      });
      const bq = new BigQuery({ projectId: 'bundle-project', apiEndpoint: url });
      const [rows] = await bq.query({ query: 'SELECT 1 AS one' });
      expect(rows).toEqual([{ one: 1 }]);
      // A script is parsed first (the analyzer's Parse, whose types the bundle adds to its
      // analyzer root at that first use: src/analyzer/analyzer-protos.ts loadCoreRoot).
      const [scripted] = await bq.query({ query: 'DECLARE x INT64 DEFAULT 2; SELECT x * 21 AS answer' });
      expect(scripted).toEqual([{ answer: 42 }]);
      // Proto rows through the Storage Write API, decoded by the bundled protobufjs and its
      // descriptor extension (src/wire/write-rows.ts).
      const grpcPort = Number(/\(gRPC\) on \S+:(\d+) /.exec(out)?.[1]);
      await bq.createDataset('sw');
      await bq.query({ query: 'CREATE TABLE sw.t (id INT64, name STRING)' });
      const writer = writerClient(grpcPort, 'bundle-project');
      try {
        const w = await jsonWriter(writer, bq, { projectId: 'bundle-project', dataset: 'sw', table: 't' });
        const appended = await w.appendRows([{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]).getResult();
        expect(appended.error ?? null).toBeNull();
        w.close();
      } finally {
        writer.close();
      }
      const [written] = await bq.query({ query: 'SELECT id, name FROM sw.t ORDER BY id' });
      expect(written).toEqual([{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]);
      if (process.platform === 'linux') {
        // Every thread but the main one runs at a lower priority (src/config/limits.ts favourMainThread).
        const nice = (tid: string) => {
          const stat = fs.readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        };
        const base = nice(String(child.pid));
        const others = fs.readdirSync(`/proc/${child.pid}/task`).filter((tid) => tid !== String(child.pid));
        expect(others.length).toBeGreaterThan(0);
        for (const tid of others) expect(nice(tid)).toBeGreaterThanOrEqual(Math.max(base, 4));
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await exited;
    // The race itself: a second emulator signalled the moment its ready line arrives.
    const second = spawn(process.execPath, [path.join(root, 'bin', 'bqemu.js'), 'serve', '--port', '0', '--grpc-port', '0', '--log-level', 'warn'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const secondExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => second.once('exit', (code, signal) => resolve({ code, signal })));
    const timer = setTimeout(() => second.kill('SIGKILL'), 60_000);
    let text = '';
    second.stdout.on('data', (d: Buffer) => {
      if (text.includes('ready in')) return; // signalled once
      text += d;
      if (text.includes('ready in')) second.kill('SIGINT');
    });
    const ended = await secondExit;
    clearTimeout(timer);
    expect(ended).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('bqemu serve --storage-emulator-host loads a gs:// object from that service', async () => {
    const gcs = await startCloudStorageEmulator();
    const bucket = `bqemu-cli-${process.pid}`;
    const storage = new Storage({ projectId: 'bundle-project', apiEndpoint: gcs.url });
    await storage.createBucket(bucket);
    await storage.bucket(bucket).file('people.csv').save('id,name\n1,ann\n2,bob\n');
    const { child, serving } = await spawnServing(['serve', '--port', '0', '--grpc-port', '0', '--project', 'bundle-project', '--log-level', 'warn', '--storage-emulator-host', gcs.url]);
    try {
      const url = /REST v2 on (http:\/\/\S+)/.exec(serving[0])![1]!;
      const bq = new BigQuery({ projectId: 'bundle-project', apiEndpoint: url });
      await bq.createDataset('gcs');
      const [job] = await bq.createJob({
        configuration: { load: { sourceUris: [`gs://${bucket}/people.csv`], sourceFormat: 'CSV', skipLeadingRows: 1, schema: { fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }] }, destinationTable: { projectId: 'bundle-project', datasetId: 'gcs', tableId: 'people' } } },
      });
      await job.promise();
      const [rows] = await bq.query({ query: 'SELECT id, name FROM gcs.people ORDER BY id' });
      expect(rows).toEqual([
        { id: 1, name: 'ann' },
        { id: 2, name: 'bob' },
      ]);
    } finally {
      await killTree(child);
      await gcs.stop();
    }
  }, 120_000);
});
