/**
 * The analyzer codecs the build writes ahead of time (scripts/gen-analyzer-codecs.mjs, installed by
 * src/analyzer/local-service.ts installAnalyzerCodecs) must encode and decode exactly as the codecs
 * protobufjs generates at run time: the same bytes for a real request and a real answer of the
 * analyzer, the same decoded objects, and without protobufjs generating any of them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import protobuf from 'protobufjs';
import { startTestAnalyzer, type TestAnalyzer } from './helpers/analyzer.js';
import { loadRoot, rootOfDescriptor, TO_OBJECT, type AnalyzerCodecTable } from '../src/analyzer/local-service.js';
import { generateAnalyzerCodecs } from '../scripts/gen-analyzer-codecs.mjs';

let analyzer: TestAnalyzer;
let dir: string;
let descriptor: protobuf.INamespace;
let codecs: AnalyzerCodecTable;

beforeAll(async () => {
  analyzer = await startTestAnalyzer();
  // The descriptor as the build writes it (scripts/build.mjs: the .proto files' root as JSON).
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-codecs-'));
  descriptor = loadRoot().toJSON();
  const json = path.join(dir, 'zetasql-protos.json');
  fs.writeFileSync(json, JSON.stringify(descriptor));
  const module = path.join(dir, 'analyzer-codecs.mjs');
  fs.writeFileSync(module, generateAnalyzerCodecs(json));
  ({ ANALYZER_CODECS: codecs } = await import(pathToFileURL(module).href));
}, 60_000);
afterAll(() => {
  analyzer.client.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SQL = "SELECT b'\\x00\\xff' AS b, CAST('nan' AS FLOAT64) AS n, -0.0 AS z, 9223372036854775807 AS big, 'é' AS s, [STRUCT(1 AS a, DATE '2024-01-02' AS d)] AS arr, NUMERIC '1.5' AS num, INTERVAL 1 DAY AS i";

describe('analyzer codecs written at build time', () => {
  it('has an entry for every message type of the analyzer protos', () => {
    expect(Object.keys(codecs)).toContain('.zetasql.local_service.AnalyzeRequest');
    expect(Object.keys(codecs)).toContain('.zetasql.ResolvedQueryStmtProto');
    expect(Object.keys(codecs).length).toBeGreaterThan(500);
  });

  it('encode and decode a request and an answer as protobufjs does, without generating code', async () => {
    const { languageOptions } = analyzer.client;
    const request = {
      options: { languageOptions, defaultTimezone: 'UTC', errorMessageMode: 'ERROR_MESSAGE_ONE_LINE' },
      simpleCatalog: { builtinFunctionOptions: { languageOptions } },
      sqlStatement: SQL,
    };
    const answer = await analyzer.analyze(SQL);
    const stock = rootOfDescriptor(descriptor, {});
    const setup = vi.spyOn(protobuf.Type.prototype, 'setup');
    const ahead = rootOfDescriptor(descriptor, codecs);
    const messages = [
      ['zetasql.local_service.AnalyzeRequest', request],
      ['zetasql.local_service.AnalyzeResponse', answer],
    ] as const;
    const made = messages.map(([name, object]) => {
      const a = ahead.lookupType(name);
      const bytes = Buffer.from(a.encode(a.fromObject(object)).finish());
      return { bytes, decoded: a.toObject(a.decode(bytes), TO_OBJECT) };
    });
    expect(setup).not.toHaveBeenCalled();
    messages.forEach(([name, object], i) => {
      const s = stock.lookupType(name);
      expect(made[i]!.bytes.equals(Buffer.from(s.encode(s.fromObject(object)).finish()))).toBe(true);
      expect(made[i]!.decoded).toEqual(s.toObject(s.decode(made[i]!.bytes), TO_OBJECT));
    });
    expect(setup).toHaveBeenCalled();
    // The answer holds what the request asked for (not an empty message encoded twice alike).
    expect(JSON.stringify(answer)).toContain('9223372036854775807');
    setup.mockRestore();
  }, 60_000);

  it('an entry made from other fields is not used: protobufjs sets that type up', () => {
    const name = '.zetasql.local_service.AnalyzeRequest';
    const stale: AnalyzerCodecTable = { ...codecs, [name]: ['not,these,fields', codecs[name]![1]] };
    const setup = vi.spyOn(protobuf.Type.prototype, 'setup');
    const t = rootOfDescriptor(descriptor, stale).lookupType(name);
    t.encode(t.fromObject({ sqlStatement: 'SELECT 1' }));
    // protobufjs set that type up (and only it: its nested types' entries are still used).
    expect(new Set(setup.mock.contexts.map((c) => (c as protobuf.Type).fullName))).toEqual(new Set([name]));
    setup.mockRestore();
  });
});
