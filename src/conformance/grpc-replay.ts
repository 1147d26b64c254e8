/**
 * Replays one recorded Storage Read API fixture (`src/conformance/grpc-fixtures.ts`) against an
 * emulator through the official clients, as a reader program would (conformance/README.md
 * "Storage Read API recordings"):
 *
 * 1. a per-fixture dataset is created and setup.sql runs statement by statement through
 *    `@google-cloud/bigquery` (conformance/README.md "Recording notes" 9);
 * 2. each recorded call goes through `@google-cloud/bigquery-storage`'s GAPIC
 *    `v1.BigQueryReadClient` (`v1.BigQueryWriteClient` for `BigQueryWrite.*` calls) on a plaintext channel to the emulator's gRPC port (`servicePath`,
 *    `port`, `sslCreds: grpc.credentials.createInsecure()`, a pass-through `authClient`: no credentials;
 *    docs/ARCHITECTURE.md §7);
 * 3. each answer is compared with the recording: gRPC status name, then the message under
 *    {@link recordedDiffs}; every ReadRows batch is decoded (Arrow IPC with `apache-arrow`, Avro
 *    binary rows with `avsc`) against the session's schema, its decoded row count must equal the
 *    response's `row_count`, and a recorded `rows` array is compared with the decoded rows.
 */
import type { BigQuery } from '@google-cloud/bigquery';
import { v1 } from '@google-cloud/bigquery-storage';
import * as grpc from '@grpc/grpc-js';
import { tableFromIPC } from 'apache-arrow';
import avro from 'avsc';
import { PassThroughClient } from 'google-auth-library';
import { splitSetupSql } from './fixtures.js';
import { ANY, expandVars, recordedDiffs, toCamelKeys, toRecordedForm, valueAt, type GrpcCallExpected, type GrpcFixture } from './grpc-fixtures.js';

/** Where the emulator serves the Storage Read API; undefined when it serves none. */
export interface GrpcTarget {
  host: string;
  port: number;
}

/** What a replay needs: the REST client for setup.sql and the gRPC target. */
export interface GrpcReplayContext {
  /** A `@google-cloud/bigquery` client on the emulator's REST endpoint. */
  bq: BigQuery;
  projectId: string;
  /** The emulator's gRPC address, or undefined when it serves no gRPC port (every fixture then fails). */
  grpc: GrpcTarget | undefined;
  /** Deadline of each gRPC call, milliseconds (default 30 000). */
  callTimeoutMs?: number;
}

/** Outcome of one fixture. */
export interface GrpcReplayResult {
  id: string;
  pass: boolean;
  /** One line per difference, prefixed with the call (`calls[1] ReadRows: …`); empty when it passes. */
  diffs: string[];
}

/**
 * The emulator's gRPC target: its `grpcPort` (the Storage Read API server's bound port) on the
 * REST server's host, or undefined when the emulator exposes none.
 */
export function grpcTargetOf(emu: { url: string; grpcPort?: number }): GrpcTarget | undefined {
  if (typeof emu.grpcPort !== 'number' || emu.grpcPort <= 0) return undefined;
  return { host: new URL(emu.url).hostname, port: emu.grpcPort };
}

/** The per-fixture dataset id: `grpc_` and the fixture's name (valid BigQuery dataset characters only). */
export function datasetIdFor(fixtureId: string): string {
  return `grpc_${fixtureId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** The gRPC status name of a client error (`3` → `INVALID_ARGUMENT`), `UNKNOWN` when it carries no code. */
function statusName(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' && grpc.status[code] !== undefined ? grpc.status[code]! : 'UNKNOWN';
}

/** The schema of a session, for decoding its streams' batches. */
interface SessionSchema {
  arrow?: Buffer;
  avro?: avro.Type;
}

/** JSON-able form of a decoded value: bigints and big decimals as strings, bytes as base64, dates as ISO strings. */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return Buffer.from(v as Uint8Array).toString('base64');
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const o = typeof (v as { toJSON?: unknown }).toJSON === 'function' ? (v as { toJSON(): unknown }).toJSON() : v;
    if (o !== v) return plain(o);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

/**
 * Decodes one ReadRows answer's rows: Arrow record batch after the session's IPC schema, or Avro
 * binary rows one record after another.
 * @throws Error when the batch does not decode.
 */
function decodeRows(resp: Record<string, unknown>, schema: SessionSchema): unknown[] {
  const arrow = resp.arrowRecordBatch as { serializedRecordBatch?: Buffer } | undefined;
  if (arrow?.serializedRecordBatch) {
    if (!schema.arrow) throw new Error('an Arrow batch without an Arrow schema in the session');
    const table = tableFromIPC(Buffer.concat([schema.arrow, arrow.serializedRecordBatch]));
    return table.toArray().map((r) => plain(r));
  }
  const rows = resp.avroRows as { serializedBinaryRows?: Buffer } | undefined;
  if (rows?.serializedBinaryRows) {
    if (!schema.avro) throw new Error('Avro rows without an Avro schema in the session');
    const buf = rows.serializedBinaryRows;
    const out: unknown[] = [];
    let pos = 0;
    while (pos < buf.length) {
      const { value, offset } = schema.avro.decode(buf, pos);
      if (offset <= pos) throw new Error(`Avro rows truncated at byte ${pos} of ${buf.length}`);
      out.push(plain(value));
      pos = offset;
    }
    return out;
  }
  return [];
}

/** Collects a server stream's answers until it ends; rejects with the stream's error and the answers so far. */
function collect(stream: NodeJS.ReadableStream): Promise<Record<string, unknown>[]> {
  const got: Record<string, unknown>[] = [];
  return new Promise((ok, fail) => {
    stream.on('data', (d: Record<string, unknown>) => got.push(d));
    stream.on('error', (e: Error) => fail(Object.assign(e, { received: got })));
    stream.on('end', () => ok(got));
  });
}

/** Compares one ReadRows call: answers under {@link recordedDiffs}, each batch decoded and counted. */
function readRowsDiffs(exp: GrpcCallExpected, answers: Record<string, unknown>[], schema: SessionSchema): string[] {
  const diffs = recordedDiffs(exp.responses ?? [], answers.map(toRecordedForm), 'responses');
  answers.forEach((a, i) => {
    const recorded = (exp.responses ?? [])[i] as Record<string, unknown> | undefined;
    let rows: unknown[];
    try {
      rows = decodeRows(a, schema);
    } catch (e) {
      diffs.push(`responses[${i}]: batch does not decode: ${(e as Error).message}`);
      return;
    }
    if (String(rows.length) !== String(a.rowCount ?? '0')) diffs.push(`responses[${i}]: row_count ${String(a.rowCount)} but the batch decodes to ${rows.length} rows`);
    if (recorded && Array.isArray(recorded.rows)) diffs.push(...recordedDiffs(recorded.rows, rows, `responses[${i}].rows`));
  });
  return diffs;
}

/** Keeps the session's schema for decoding later ReadRows answers. */
function rememberSchema(session: Record<string, unknown>, schema: SessionSchema): void {
  const arrow = (session.arrowSchema as { serializedSchema?: Buffer } | undefined)?.serializedSchema;
  if (arrow && arrow.length) schema.arrow = arrow;
  const avroText = (session.avroSchema as { schema?: string } | undefined)?.schema;
  if (avroText) schema.avro = avro.Type.forSchema(JSON.parse(avroText) as avro.Schema, { wrapUnions: false });
}

/** Runs setup.sql in the fixture's dataset (created first). Returns a difference line on failure. */
async function runSetup(fx: GrpcFixture, ctx: GrpcReplayContext, vars: Record<string, string>): Promise<string[]> {
  if (fx.setupSql === undefined) return [];
  try {
    const ds = ctx.bq.dataset(vars.DATASET_ID!);
    const [exists] = await ds.exists();
    if (exists) await ds.delete({ force: true });
    await ds.create();
    for (const stmt of splitSetupSql(expandVars(fx.setupSql, vars))) await ctx.bq.query({ query: stmt, useLegacySql: false });
    return [];
  } catch (e) {
    return [`setup.sql failed: ${(e as Error).message}`];
  }
}

/**
 * Replays `fx` against the emulator of `ctx` and compares every call with its recording.
 * Never throws for an emulator's answer: every mismatch (wrong status, missing field, undecodable
 * batch, no gRPC port) is a line of `diffs`. Returns pass iff there is none.
 */
export async function replayGrpcFixture(fx: GrpcFixture, ctx: GrpcReplayContext): Promise<GrpcReplayResult> {
  const datasetId = datasetIdFor(fx.id);
  const vars: Record<string, string> = { PROJECT: ctx.projectId, DATASET_ID: datasetId, DATASET: `${ctx.projectId}.${datasetId}` };
  const diffs = await runSetup(fx, ctx, vars);
  if (diffs.length) return { id: fx.id, pass: false, diffs };
  if (!ctx.grpc) return { id: fx.id, pass: false, diffs: ['the emulator serves no gRPC port (Storage Read API not served)'] };
  // `sslCreds` replaces the channel's credentials; the pass-through `authClient` keeps the client's
  // universe-domain check from looking for application-default credentials (a metadata-server probe).
  const client = new v1.BigQueryReadClient({
    servicePath: ctx.grpc.host,
    port: ctx.grpc.port,
    sslCreds: grpc.credentials.createInsecure(),
    authClient: new PassThroughClient() as never, // google-gax types it against its own google-auth-library copy
  });
  const writer = new v1.BigQueryWriteClient({
    servicePath: ctx.grpc.host,
    port: ctx.grpc.port,
    sslCreds: grpc.credentials.createInsecure(),
    authClient: new PassThroughClient() as never,
  });
  const options = { timeout: ctx.callTimeoutMs ?? 30_000, retry: null as never };
  const schema: SessionSchema = {};
  try {
    for (const [i, call] of fx.calls.entries()) {
      const exp = expandVars(fx.expected[i]!, vars);
      const request = toCamelKeys(expandVars(call.request, vars)) as Record<string, unknown>;
      const isWrite = call.method.startsWith('BigQueryWrite.');
      const method = call.method.replace(/^BigQuery(Read|Write)\./, '');
      const label = `calls[${i}] ${method}`;
      let status = 'OK';
      let message = '';
      let answer: unknown;
      let callDiffs: string[] = [];
      try {
        if (isWrite) {
          answer = writeAnswerForm(await callWrite(writer, method, writeRequestOf(method, request), options));
        } else if (method === 'CreateReadSession') {
          [answer] = (await client.createReadSession(request, options)) as unknown as [Record<string, unknown>];
          rememberSchema(answer as Record<string, unknown>, schema);
        } else if (method === 'SplitReadStream') {
          [answer] = (await client.splitReadStream(request, options)) as unknown as [Record<string, unknown>];
        } else if (method === 'ReadRows') {
          const answers = await collect(client.readRows(request, options) as unknown as NodeJS.ReadableStream);
          answer = answers;
          if (exp.status === 'OK') callDiffs = readRowsDiffs(exp, answers, schema);
        } else {
          diffs.push(`${label}: method not replayed by this harness`);
          continue;
        }
      } catch (e) {
        status = statusName(e);
        message = String((e as { details?: unknown }).details ?? (e as Error).message);
      }
      if (status !== exp.status) {
        diffs.push(`${label}: status ${status}${message ? ` (${message.slice(0, 200)})` : ''}, recorded ${exp.status}`);
        continue;
      }
      if (status !== 'OK') {
        if (exp.message_pattern !== undefined && !new RegExp(exp.message_pattern, 's').test(message)) diffs.push(`${label}: message ${JSON.stringify(message)} does not match ${JSON.stringify(exp.message_pattern)}`);
        if (exp.error_message !== undefined && message !== exp.error_message) diffs.push(`${label}: message ${JSON.stringify(message)}, recorded ${JSON.stringify(exp.error_message)}`);
        continue;
      }
      if (method !== 'ReadRows') callDiffs = recordedDiffs(exp.response ?? {}, toRecordedForm(answer), 'response');
      diffs.push(...callDiffs.map((d) => `${label}: ${d}`));
      for (const [name, path] of Object.entries(call.capture ?? {})) {
        const v = valueAt(toRecordedForm(answer), path);
        if (typeof v === 'string' && v !== ANY) vars[name] = v;
        else diffs.push(`${label}: capture ${name} (${path}) found no string`);
      }
    }
  } finally {
    await client.close().catch(() => undefined);
    await writer.close().catch(() => undefined);
  }
  return { id: fx.id, pass: diffs.length === 0, diffs };
}

/**
 * A recorded Storage Write request in the GAPIC client's form: the recordings use the Python
 * client's names (`type_` for `WriteStream.type`) and write FlushRows' `google.protobuf.Int64Value`
 * offset as its bare value.
 */
function writeRequestOf(method: string, request: Record<string, unknown>): Record<string, unknown> {
  const rename = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(rename) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k === 'type_' ? 'type' : k, rename(x)])) : v;
  const out = rename(request) as Record<string, unknown>;
  if (method === 'FlushRows' && out.offset !== undefined && (typeof out.offset !== 'object' || out.offset === null)) out.offset = { value: out.offset };
  return out;
}

/** A Storage Write answer in the recordings' naming (`WriteStream.type` as `type_`). */
function writeAnswerForm(answer: unknown): unknown {
  if (!answer || typeof answer !== 'object' || !('type' in answer)) return answer;
  const { type, ...rest } = answer as Record<string, unknown>;
  return { ...rest, type_: type };
}

/**
 * One unary BigQueryWrite call through the GAPIC client.
 * @throws the client's error for an error status; Error for a method the harness does not replay.
 */
async function callWrite(writer: InstanceType<typeof v1.BigQueryWriteClient>, method: string, request: Record<string, unknown>, options: object): Promise<unknown> {
  switch (method) {
    case 'CreateWriteStream':
      return (await writer.createWriteStream(request, options))[0];
    case 'GetWriteStream':
      return (await writer.getWriteStream(request, options))[0];
    case 'FinalizeWriteStream':
      return (await writer.finalizeWriteStream(request, options))[0];
    case 'BatchCommitWriteStreams':
      return (await writer.batchCommitWriteStreams(request, options))[0];
    case 'FlushRows':
      return (await writer.flushRows(request, options))[0];
    default:
      throw new Error(`BigQueryWrite.${method}: not replayed by this harness`);
  }
}

/** Replays every fixture in order (one client setup each); see {@link replayGrpcFixture}. */
export async function replayGrpcFixtures(fixtures: readonly GrpcFixture[], ctx: GrpcReplayContext): Promise<GrpcReplayResult[]> {
  const out: GrpcReplayResult[] = [];
  for (const fx of fixtures) out.push(await replayGrpcFixture(fx, ctx));
  return out;
}
