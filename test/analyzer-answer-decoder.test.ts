/**
 * Large analyzer answers are decoded off the main thread (src/analyzer/answer-decoder.ts): the
 * result must equal the main-thread decoding exactly (bytes, NaN/-0 doubles, int64 strings), and
 * the main thread must keep turning while a large answer is decoded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import protobuf from 'protobufjs';
import { resolvedStatementOf } from '../src/analyzer/client.js';
import { startTestAnalyzer, type TestAnalyzer } from './helpers/analyzer.js';
import { normalize } from '../src/analyzer/ast.js';
import { decodeAnswer, NORMALIZED, RawAnswer } from '../src/analyzer/answer-decoder.js';
import { loadRoot, TO_OBJECT } from '../src/analyzer/local-service.js';
import { ANALYZER_OFFTHREAD_DECODE_BYTES } from '../src/config/analyzer-limits.js';

const TYPE = 'zetasql.local_service.AnalyzeResponse';
let analyzer: TestAnalyzer;
const analyze = (sql: string) => analyzer.analyze(sql);

beforeAll(async () => {
  analyzer = await startTestAnalyzer();
}, 60_000);
afterAll(() => analyzer.client.stop());

/** The answer's protobuf bytes, re-encoded from the main-thread decoding. */
function encode(res: object): Buffer {
  const t = loadRoot().lookupType(TYPE);
  return Buffer.from(t.encode(t.fromObject(res)).finish());
}

describe('off-main-thread decoding of analyzer answers', () => {
  it('gives exactly the main-thread decoding: bytes, NaN, -0, int64, strings', async () => {
    const sql = "SELECT b'\\x00\\xff\\x10' AS b, CAST('nan' AS FLOAT64) AS n, CAST('-inf' AS FLOAT64) AS i, -0.0 AS z, 9223372036854775807 AS big, 'é\\u0000x' AS s";
    const res = await analyze(sql);
    expect(res[NORMALIZED]).toBeUndefined(); // small: decoded inline
    const bytes = encode(res);
    const t = loadRoot().lookupType(TYPE);
    const inline = normalize((t.toObject(t.decode(bytes), TO_OBJECT) as { resolvedStatement: unknown }).resolvedStatement);
    const off = await decodeAnswer(new RawAnswer(TYPE, bytes));
    expect(off[NORMALIZED]).toBe(true);
    expect(resolvedStatementOf(off)).toEqual(inline);
    const text = JSON.stringify(off.resolvedStatement, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? `#${v}` : v));
    expect(text).toContain('#NaN');
    expect(text).toContain('#-Infinity');
    expect(text).toContain('9223372036854775807');
  }, 60_000);

  it('an answer too deep to decode is the out-of-stack error', async () => {
    // A TypeProto nested deeper than protobufjs's recursion limit (ARRAY<ARRAY<…>>), written
    // field by field (protobufjs's own fromObject overflows the stack building it).
    const root = loadRoot();
    const typeProto = root.lookupType('zetasql.TypeProto');
    const arrayProto = root.lookupType('zetasql.ArrayTypeProto');
    const kind = (name: string) => (typeProto.fields.typeKind!.resolve().resolvedType as unknown as { values: Record<string, number> }).values[name]!;
    const field = (id: number, body: Uint8Array) => {
      const w = protobuf.Writer.create();
      w.uint32((id << 3) | 2).bytes(body);
      return w.finish();
    };
    const enumField = (id: number, v: number) => protobuf.Writer.create().uint32(id << 3).int32(v).finish();
    let bytes: Uint8Array = enumField(typeProto.fields.typeKind!.id, kind('TYPE_INT64'));
    for (let i = 0; i < 6_000; i++) {
      const arr = field(arrayProto.fields.elementType!.id, bytes);
      bytes = Buffer.concat([enumField(typeProto.fields.typeKind!.id, kind('TYPE_ARRAY')), field(typeProto.fields.arrayType!.id, arr)]);
    }
    await expect(decodeAnswer(new RawAnswer('zetasql.TypeProto', Buffer.from(bytes)))).rejects.toThrow(/nesting depth|call stack/i);
  }, 60_000);

  it('a deep answer of tens of kilobytes is decoded off the main thread too', async () => {
    // 300 nested scalar subqueries: a small text whose resolved AST is deep (decoding and
    // normalising such trees costs far more per byte than flat ones).
    const sql = `SELECT ${'(SELECT '.repeat(300)}1${')'.repeat(300)} AS x`;
    const res = await analyze(sql);
    expect(res[NORMALIZED]).toBe(true);
    expect(resolvedStatementOf(res).kind).toBe('QueryStmt');
    // A small flat answer stays on the main thread (the thread hop would cost more).
    const small = await analyze('SELECT 1 AS x');
    expect(small[NORMALIZED]).toBeUndefined();
  }, 60_000);

  it('a large answer (a 100,000-item IN list) arrives decoded while the event loop keeps turning', async () => {
    const sql = `SELECT 5 IN (${Array.from({ length: 100_000 }, (_, i) => String(i)).join(', ')}) AS hit`;
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const res = await analyze(sql);
    lag.disable();
    expect(res[NORMALIZED]).toBe(true);
    const stmt = resolvedStatementOf(res);
    expect(stmt.kind).toBe('QueryStmt');
    // Its protobuf form is far above the off-thread threshold.
    expect(ANALYZER_OFFTHREAD_DECODE_BYTES).toBeLessThan(1024 * 1024);
    // Decoding it on the main thread took ~1.5 s of one stall (measured); what is left on the
    // main thread is parsing the worker's JSON text. Generous bound for a loaded 2-core machine.
    expect(lag.max / 1e6).toBeLessThan(1000);
  }, 120_000);
});
