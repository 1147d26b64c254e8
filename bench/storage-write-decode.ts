/**
 * Micro bench of the Storage Write API row decoders (src/wire/write-rows.ts,
 * src/wire/write-arrow-rows.ts): 1M rows of (INT64, FLOAT64, STRING), serialized the way the
 * managed writer does (protobufjs messages of `adapt.convertStorageSchemaToProto2Descriptor`'s
 * descriptor) and as one Arrow record batch (apache-arrow), decoded server-side; prints rows/s of
 * `decode` and `decodeAsync` and the longest event-loop turn of `decodeAsync`.
 * Run: `npx tsx bench/storage-write-decode.ts [rows]`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import protobuf from 'protobufjs';
import { Float64, Int64, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { adapt } from '@google-cloud/bigquery-storage';
import { columnFromField, type TableFieldSchema } from '../src/types/schema.js';
import { protoRowDecoder } from '../src/wire/write-rows.js';
import { arrowRowDecoder } from '../src/wire/write-arrow-rows.js';

const N = Number(process.argv[2] ?? 1_000_000);
const fields: TableFieldSchema[] = [{ name: 'i', type: 'INTEGER' }, { name: 'f', type: 'FLOAT' }, { name: 's', type: 'STRING' }];
const columns = fields.map(columnFromField);
const message = adapt.convertStorageSchemaToProto2Descriptor(adapt.convertBigQuerySchemaToStorageTableSchema({ fields }), 'root');
const descriptor = (message as unknown as { toJSON(): object }).toJSON();
const type = (protobuf.Type as unknown as { fromDescriptor(d: unknown): protobuf.Type }).fromDescriptor(message);

let t = performance.now();
const rows: Uint8Array[] = new Array(N);
for (let k = 0; k < N; k++) rows[k] = type.encode({ i: k * 7919, f: k / 3, s: `row number ${k}` }).finish();
console.log(`client: encoded ${N} proto rows in ${(performance.now() - t).toFixed(0)} ms`);

const proto = protoRowDecoder(descriptor, columns);
for (let run = 0; run < 3; run++) {
  t = performance.now();
  const out = proto.decode(rows);
  const ms = performance.now() - t;
  if (out.rows.length !== N) throw new Error('lost rows');
  console.log(`proto decode: ${N} rows in ${ms.toFixed(0)} ms = ${Math.round(N / (ms / 1000)).toLocaleString('en')} rows/s`);
}
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
t = performance.now();
await proto.decodeAsync(rows);
let ms = performance.now() - t;
h.disable();
console.log(`proto decodeAsync: ${Math.round(N / (ms / 1000)).toLocaleString('en')} rows/s, max event-loop delay ${(h.max / 1e6).toFixed(1)} ms`);

const table = new Table({
  i: vectorFromArray(Array.from({ length: N }, (_, k) => BigInt(k * 7919)), new Int64()),
  f: vectorFromArray(Array.from({ length: N }, (_, k) => k / 3), new Float64()),
  s: vectorFromArray(Array.from({ length: N }, (_, k) => `row number ${k}`), new Utf8()),
});
const ipc = tableToIPC(table, 'stream');
const schemaEnd = 8 + new DataView(ipc.buffer, ipc.byteOffset).getInt32(4, true);
const arrow = arrowRowDecoder(ipc.slice(0, schemaEnd), columns);
const batch = ipc.slice(schemaEnd, ipc.length - 8);
for (let run = 0; run < 3; run++) {
  t = performance.now();
  const out = arrow.decode([batch]);
  ms = performance.now() - t;
  if (out.rows.length !== N) throw new Error('lost rows');
  console.log(`arrow decode: ${N} rows in ${ms.toFixed(0)} ms = ${Math.round(N / (ms / 1000)).toLocaleString('en')} rows/s`);
}
const h2 = monitorEventLoopDelay({ resolution: 5 });
h2.enable();
t = performance.now();
await arrow.decodeAsync([batch]);
ms = performance.now() - t;
h2.disable();
console.log(`arrow decodeAsync: ${Math.round(N / (ms / 1000)).toLocaleString('en')} rows/s, max event-loop delay ${(h2.max / 1e6).toFixed(1)} ms`);
