/**
 * Replays the recorded Storage Read and Storage Write API fixtures (`conformance/grpc/<service>/<name>/`) against an
 * in-process emulator and judges them against `conformance/grpc/pending.json`
 * (conformance/README.md "Storage Read API recordings"; the harness is
 * `src/conformance/grpc-replay.ts`, the same replay `test/storage-read-corpus.test.ts` runs).
 *
 *   npm run corpus:grpc -- [--filter SUBSTRING] [--verbose] [--update-pending]
 *
 * Prints one line per fixture (PASS, PENDING, FAIL, PASSES-BUT-PENDING) and each failure's
 * differences (all of them with `--verbose`). `--update-pending` rewrites pending.json keeping the
 * entries (with their reasons) of fixtures that still fail; it never adds one. Exit code: 0 when
 * every fixture outside the list passes and none inside it does (after the update, when asked);
 * 1 otherwise.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeClient } from '../src/conformance/client.js';
import { GRPC_SERVICES, discoverGrpcFixtures, grpcVerdict, loadGrpcPending, saveGrpcPending, shrinkGrpcPending } from '../src/conformance/grpc-fixtures.js';
import { grpcTargetOf, replayGrpcFixtures } from '../src/conformance/grpc-replay.js';
import { startEmulator } from '../src/server/server.js';

async function main(argv: string[]): Promise<number> {
  const filterAt = argv.indexOf('--filter');
  const filter = filterAt >= 0 ? argv[filterAt + 1] : undefined;
  const verbose = argv.includes('--verbose');
  const update = argv.includes('--update-pending');
  const all = discoverGrpcFixtures(undefined, GRPC_SERVICES);
  const fixtures = all.filter((f) => !filter || f.id.includes(filter));
  const emu = await startEmulator({ port: 0, grpcPort: 0, projectId: 'test-project' });
  let results;
  try {
    const { bq } = makeClient(emu.url, emu.projectId);
    results = await replayGrpcFixtures(fixtures, { bq, projectId: emu.projectId, grpc: grpcTargetOf(emu) });
  } finally {
    await emu.close();
  }
  let pending = loadGrpcPending();
  if (update) {
    // Entries of fixtures outside --filter are kept; entries naming no fixture are dropped.
    const selected = new Set(fixtures.map((f) => f.id));
    const unselected = all.map((f) => f.id).filter((id) => !selected.has(id));
    const failing = new Set([...unselected, ...results.filter((r) => !r.pass).map((r) => r.id)]);
    const next = shrinkGrpcPending(pending, failing);
    saveGrpcPending(next);
    console.log(`pending.json: ${Object.keys(pending).length} → ${Object.keys(next).length} entries`);
    pending = next;
  }
  const v = grpcVerdict(results, pending);
  for (const r of results) {
    const tag = r.pass ? (v.passingPending.includes(r.id) ? 'PASSES-BUT-PENDING' : 'PASS') : v.pending.includes(r.id) ? 'PENDING' : 'FAIL';
    console.log(`${tag.padEnd(18)} ${r.id}${v.pending.includes(r.id) ? ` (${pending[r.id]})` : ''}`);
    if (!r.pass && (verbose || tag === 'FAIL')) for (const d of r.diffs) console.log(`    ${d}`);
  }
  console.log(`${results.length} fixtures: ${v.passing.length} pass, ${v.pending.length} pending, ${v.failing.length} fail, ${v.passingPending.length} pass but are listed as pending`);
  return v.failing.length || v.passingPending.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(2);
    },
  );
}
