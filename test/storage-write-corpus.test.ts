// The recorded Storage Write API fixtures (conformance/grpc/storage_write/, copied from the shared
// corpus with provenance.json): the copy matches its provenance, and every fixture is replayed
// against the emulator through the official client's GAPIC v1.BigQueryWriteClient by the same
// harness as the Storage Read recordings (src/conformance/grpc-replay.ts). A fixture listed in
// conformance/grpc/pending.json must fail (the list only shrinks); every other must pass.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_WRITE_COPIES, verifyCopy } from '../conformance/copies.js';
import { discoverGrpcFixtures, loadGrpcPending } from '../src/conformance/grpc-fixtures.js';
import { grpcTargetOf, replayGrpcFixtures, type GrpcReplayResult } from '../src/conformance/grpc-replay.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const fixtures = discoverGrpcFixtures(undefined, ['storage_write']);
const pending = loadGrpcPending();

describe('conformance/grpc/storage_write', () => {
  it('holds the 10 recordings, unmodified, as provenance.json lists them', () => {
    expect(GRPC_WRITE_COPIES.map((c) => c.name)).toEqual(['grpc-storage-write']);
    const c = GRPC_WRITE_COPIES[0]!;
    const p = JSON.parse(readFileSync(join(c.root, 'provenance.json'), 'utf8'));
    expect(p.imported_from).toBe('shared/corpus/bigquery-recorded/grpc/storage_write');
    expect(Object.keys(p.sha256)).toHaveLength(30);
    expect(verifyCopy(c)).toEqual([]);
    expect(fixtures.map((f) => f.id.split('/')[0])).toEqual(Array(10).fill('storage_write'));
  });
});

describe('replay of every Storage Write recording against the emulator', () => {
  let t: TestEmulator;
  let results: GrpcReplayResult[] = [];

  beforeAll(async () => {
    t = await startTestEmulator({ grpcPort: 0 });
    results = await replayGrpcFixtures(fixtures, { bq: t.bq, projectId: t.projectId, grpc: grpcTargetOf(t.emu) });
  }, 180_000);
  afterAll(async () => {
    await t?.emu.close();
  });

  it.each(fixtures.map((f) => f.id))('%s: passes, or fails while pending', (id) => {
    const r = results.find((x) => x.id === id)!;
    expect(r.diffs.filter((d) => d.startsWith('setup.sql failed'))).toEqual([]);
    if (Object.hasOwn(pending, id)) expect(r.pass, `${id} passes: remove it from conformance/grpc/pending.json`).toBe(false);
    else expect(r.diffs).toEqual([]);
  });
});
