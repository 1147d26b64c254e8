// `node bench/append-rows-floor-server.cjs` (plain node): the client floor's server for the raw
// AppendRows cases of bench/storage-write.ts — a grpc-js server whose AppendRows answers every request
// at once with one canned AppendRowsResponse (`append_result` with an offset, and the stream's name),
// reading nothing of the request: what remains of a run against it is the client's own cost (gRPC
// framing and writes, HTTP/2, decoding the answers) plus a trivial local exchange, a floor under any
// server's time for the same requests — as bench/replay.ts is for the REST cases. Prints its port on
// stdout, serves until stdin ends.
'use strict';
const grpc = require('@grpc/grpc-js');
const protobuf = require('protobufjs');

const root = protobuf.Root.fromJSON(require('@google-cloud/bigquery-storage/build/protos/protos.json'));
const response = root.lookupType('google.cloud.bigquery.storage.v1.AppendRowsResponse');
const answer = Buffer.from(
  response.encode(response.fromObject({ appendResult: { offset: { value: 0 } }, writeStream: 'projects/bench-project/datasets/sw_bench/tables/t/streams/_default' })).finish(),
);

const server = new grpc.Server({ 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
server.addService(
  {
    AppendRows: {
      path: '/google.cloud.bigquery.storage.v1.BigQueryWrite/AppendRows',
      requestStream: true,
      responseStream: true,
      requestSerialize: (b) => b,
      requestDeserialize: (b) => b,
      responseSerialize: (b) => b,
      responseDeserialize: (b) => b,
    },
  },
  {
    AppendRows(call) {
      call.on('data', () => call.write(answer));
      call.on('end', () => call.end());
      call.on('error', () => {});
    },
  },
);
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stdout.write(`error ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
process.stdin.on('end', () => server.forceShutdown());
process.stdin.resume();
