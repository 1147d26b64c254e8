// `node bench/append-rows-client.cjs ADDRESS FILE IN_FLIGHT` (plain node, no TypeScript loader): the
// raw AppendRows client of bench/storage-write.ts, in a process of its own whose heap holds only the
// pre-encoded requests. FILE holds AppendRowsRequest messages, each prefixed by its length (uint32,
// little-endian). The client reads them, opens the bidirectional call to ADDRESS, writes "ready" on
// stdout and waits for one line on stdin; it then writes the requests (IN_FLIGHT unanswered at most),
// and once the last answer is in prints one JSON line: {ms: wall ms from the first write to the last
// answer, cpu: this process's CPU ms over the same span} or {error}.
// Run in the bench's own process, the client's garbage collection of the bench's 1M row objects
// (several hundred ms per case, bimodal) fell inside the timed span on the same two cores.
'use strict';
const fs = require('node:fs');
const grpc = require('@grpc/grpc-js');
const protobuf = require('protobufjs');

async function main() {
  const [address, file, inFlightText] = process.argv.slice(2);
  const inFlight = Number(inFlightText);
  const bytes = fs.readFileSync(file);
  const requests = [];
  for (let at = 0; at < bytes.length; ) {
    const n = bytes.readUInt32LE(at);
    requests.push(bytes.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  const root = protobuf.Root.fromJSON(require('@google-cloud/bigquery-storage/build/protos/protos.json'));
  const response = root.lookupType('google.cloud.bigquery.storage.v1.AppendRowsResponse');
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  await new Promise((resolve, reject) => client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())));
  const call = client.makeBidiStreamRequest('/google.cloud.bigquery.storage.v1.BigQueryWrite/AppendRows', (b) => b, (b) => response.decode(b));
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let sent = 0;
  let answered = 0;
  try {
    await new Promise((resolve, reject) => {
      const pump = () => {
        while (sent < requests.length && sent - answered < inFlight) call.write(requests[sent++]);
        if (sent === requests.length) call.end();
      };
      call.on('data', (r) => {
        if (r.error) return reject(new Error(`append refused: ${r.error.message}`));
        answered++;
        if (answered === requests.length) resolve();
        else pump();
      });
      call.on('error', reject);
      pump();
    });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    process.stdout.write(JSON.stringify({ ms, cpu: (c.user + c.system) / 1000 }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: String(e && e.message ? e.message : e) }) + '\n');
  } finally {
    call.cancel();
    client.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stdout.write(JSON.stringify({ error: String(e && e.message ? e.message : e) }) + '\n');
    process.exit(1);
  },
);
