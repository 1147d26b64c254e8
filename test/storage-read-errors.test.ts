/**
 * Errors of the Storage Read API beyond those of test/storage-read.test.ts, through the official
 * GAPIC client (`@google-cloud/bigquery-storage` v1.BigQueryReadClient): each a gRPC status with
 * BigQuery's code, never UNKNOWN (2) or INTERNAL (13) for a client mistake.
 *
 * - An expired session: ReadRows and SplitReadStream after the session's `expireTime` answer
 *   FAILED_PRECONDITION (9) "there was an error operating on '<stream>': session expired at
 *   <expireTime>" (BigQuery's text as its clients report it:
 *   https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/1316). The test moves
 *   the clock (vitest's fake `Date`, which the in-process emulator reads) past `expireTime`
 *   instead of waiting 6 hours.
 * - A stream name of one session under another session's name: NOT_FOUND (5).
 * - A table dropped between CreateReadSession and ReadRows: the session still serves the rows
 *   of its snapshot (a session reads the table as of its creation, "snapshot consistency" of
 *   https://cloud.google.com/bigquery/docs/reference/storage).
 * - A row restriction with a subquery: INVALID_ARGUMENT "request failed: Row filter for p.d.t is
 *   invalid. Filter is '(<restriction>)'" (BigQuery's text, as its clients report it:
 *   https://github.com/GoogleCloudDataproc/spark-bigquery-connector/issues/278 and /issues/543);
 *   one the analyzer rejects gets the same text followed by the analyzer's, its location relative
 *   to the restriction; one over 1 MB: "read_session.read_options.row_restriction exceeded maximum
 *   allowed length. Maximum bytes allowed: 1048576" (/issues/1301 there; the 1 MB limit of
 *   TableReadOptions.row_restriction in stream.proto).
 * - maxStreamCount / preferredMinStreamCount negative, or a minimum above the maximum, and
 *   malformed table names (no project, an empty segment, a missing table id): INVALID_ARGUMENT (3).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { readClient, readStream, type ReadClient, grpcErrorOf } from './helpers/storage-read.js';

let t: TestEmulator;
let client: ReadClient;
const P = 'test-project';
const tablePath = (d: string, tb: string) => `projects/${P}/datasets/${d}/tables/${tb}`;
const q = async (sql: string) => (await t.bq.query({ query: sql }))[0];

async function session(table: string, extra: { maxStreamCount?: number; preferredMinStreamCount?: number } = {}) {
  const [s] = await client.createReadSession({
    parent: `projects/${P}`,
    readSession: { table, dataFormat: 'ARROW' },
    maxStreamCount: extra.maxStreamCount ?? 1,
    preferredMinStreamCount: extra.preferredMinStreamCount ?? 0,
  });
  return { s, schema: s.arrowSchema!.serializedSchema as Uint8Array };
}


beforeAll(async () => {
  t = await startTestEmulator({ projectId: P });
  client = readClient(t.emu);
  await q(`CREATE SCHEMA se`);
  await q(`CREATE TABLE se.t AS SELECT x AS id FROM UNNEST(GENERATE_ARRAY(1, 10)) AS x`);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await client?.close();
  await t?.emu.close();
});

describe('expired sessions', () => {
  it('ReadRows after expireTime → FAILED_PRECONDITION (9) "session expired at <expireTime>"', async () => {
    const { s, schema } = await session(tablePath('se', 't'));
    const stream = s.streams![0].name!;
    expect((await readStream(client, schema, stream)).rows).toHaveLength(10);
    const expireMs = Number(s.expireTime!.seconds) * 1000 + Math.floor(Number(s.expireTime!.nanos ?? 0) / 1e6);
    const expireText = new Date(expireMs).toISOString().slice(0, 19) + '+00:00';

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expireMs - 1000);
    expect((await readStream(client, schema, stream, 3)).rows).toHaveLength(7); // one second before: still readable
    vi.setSystemTime(expireMs + 1000);
    const e = await grpcErrorOf(readStream(client, schema, stream));
    expect(e.code).toBe(9);
    expect(e.details).toBe(`there was an error operating on '${stream}': session expired at ${expireText}`);
    const split = await grpcErrorOf(client.splitReadStream({ name: stream, fraction: 0.5 }));
    expect(split.code).toBe(9);

    // A new session (which drops the expired sessions' rows) leaves the old stream expired, not unknown.
    const fresh = await session(tablePath('se', 't'));
    expect((await readStream(client, fresh.schema, fresh.s.streams![0].name!)).rows).toHaveLength(10);
    expect((await grpcErrorOf(readStream(client, schema, stream))).code).toBe(9);
  });
});

describe('streams and tables that do not match', () => {
  it("a stream id of one session under another session's name → NOT_FOUND (5)", async () => {
    const a = await session(tablePath('se', 't'));
    const b = await session(tablePath('se', 't'));
    const streamOfB = b.s.streams![0].name!.split('/').pop();
    const e = await grpcErrorOf(readStream(client, a.schema, `${a.s.name}/streams/${streamOfB}`));
    expect(e.code).toBe(5);
    expect((await grpcErrorOf(client.splitReadStream({ name: `${a.s.name}/streams/${streamOfB}`, fraction: 0.5 }))).code).toBe(5);
  });

  it('a table dropped after CreateReadSession: ReadRows → NOT_FOUND (5) "Not found: Table …", never DuckDB\'s text', async () => {
    // BigQuery's own answer here is not documented; the emulator keeps no dropped table's rows.
    await q(`CREATE TABLE se.dropped AS SELECT x AS id FROM UNNEST([1, 2, 3]) AS x`);
    const { s, schema } = await session(tablePath('se', 'dropped'));
    await q(`DROP TABLE se.dropped`);
    const e = await grpcErrorOf(readStream(client, schema, s.streams![0].name!));
    expect(e.code).toBe(5);
    expect(e.details).toBe(`Not found: Table ${P}:se.dropped`);
    // A new session on the dropped table is NOT_FOUND too.
    expect((await grpcErrorOf(session(tablePath('se', 'dropped')))).code).toBe(5);
  });
});

async function restricted(rowRestriction: string) {
  return client.createReadSession({ parent: `projects/${P}`, readSession: { table: tablePath('se', 't'), dataFormat: 'ARROW', readOptions: { rowRestriction } }, maxStreamCount: 1 });
}

describe('row restrictions the API refuses', () => {
  it("a subquery → INVALID_ARGUMENT (3) \"Row filter for p.d.t is invalid\"", async () => {
    for (const r of ['id > (SELECT 1)', 'id IN (SELECT id FROM se.t)', 'EXISTS(SELECT 1)', '2 IN UNNEST(ARRAY(SELECT id FROM se.t))']) {
      const e = await grpcErrorOf(restricted(r));
      expect(e.code, r).toBe(3);
      expect(e.details, r).toBe(`request failed: Row filter for ${P}.se.t is invalid. Filter is '(${r})'`);
    }
    // IN UNNEST of an array literal is no subquery: 2 of the 10 ids match.
    expect(Number((await restricted('id IN UNNEST([2, 5, 99])'))[0].estimatedRowCount)).toBe(2);
  });

  it("an expression the analyzer rejects → the same text and the analyzer's, located in the restriction", async () => {
    const e = await grpcErrorOf(restricted('id > 1 AND\n  nope = 2'));
    expect(e.code).toBe(3);
    expect(e.details).toBe(`request failed: Row filter for ${P}.se.t is invalid. Filter is '(id > 1 AND\n  nope = 2)'. Unrecognized name: nope at [2:3]`);
  });

  it('a restriction over 1 MB → INVALID_ARGUMENT (3) with the maximum in bytes', async () => {
    const e = await grpcErrorOf(restricted(`id IN (${Array.from({ length: 150_000 }, (_, i) => i).join(', ')})`));
    expect(e.code).toBe(3);
    expect(e.details).toBe('read_session.read_options.row_restriction exceeded maximum allowed length. Maximum bytes allowed: 1048576');
    // A long IN list under the limit is analyzed like any restriction (ids 1–10 are all in 0–999).
    const [s] = await restricted(`id IN (${Array.from({ length: 1000 }, (_, i) => i).join(', ')})`);
    expect(Number(s.estimatedRowCount)).toBe(10);
  });
});

describe('request arguments', () => {
  it('a negative maxStreamCount or preferredMinStreamCount, or a minimum above the maximum → INVALID_ARGUMENT (3)', async () => {
    for (const extra of [{ maxStreamCount: -1 }, { preferredMinStreamCount: -2 }, { maxStreamCount: 2, preferredMinStreamCount: 3 }]) {
      const e = await grpcErrorOf(session(tablePath('se', 't'), extra));
      expect(e.code, JSON.stringify(extra)).toBe(3);
    }
    // maxStreamCount 0 lets the server decide, and the minimum may then be anything.
    expect((await session(tablePath('se', 't'), { maxStreamCount: 0, preferredMinStreamCount: 5 })).s.streams).toHaveLength(1);
  });

  it('a table name without a project, with an empty segment or without a table id → INVALID_ARGUMENT (3)', async () => {
    for (const name of ['datasets/se/tables/t', 'projects//datasets/se/tables/t', `projects/${P}/datasets/se/tables/`, `projects/${P}/datasets/se`, `${P}.se.t`, '']) {
      const e = await grpcErrorOf(session(name));
      expect(e.code, name).toBe(3);
    }
  });

  it('a table of another project or dataset that does not exist → NOT_FOUND (5)', async () => {
    expect((await grpcErrorOf(session(`projects/other-project/datasets/se/tables/t`))).code).toBe(5);
    expect((await grpcErrorOf(session(tablePath('nope', 't')))).code).toBe(5);
  });
});
