/**
 * The analyzer's protos as the build writes them. Its descriptor split in a core and the rest
 * (scripts/split-analyzer-protos.mjs, src/analyzer/analyzer-protos.ts loadCoreRoot) must give, once
 * completed, the same root as the whole descriptor, and the core alone the types of the emulator's
 * own calls. The analyzer codecs the build writes ahead of time (scripts/gen-analyzer-codecs.mjs, installed by
 * src/analyzer/analyzer-protos.ts installAnalyzerCodecs) must encode and decode exactly as the codecs
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
import { TO_OBJECT } from '../src/analyzer/local-service.js';
import { loadCoreRoot, loadRoot, rootOfDescriptor, type AnalyzerCodecTable } from '../src/analyzer/analyzer-protos.js';
import { generateAnalyzerCodecs } from '../scripts/gen-analyzer-codecs.mjs';
import { splitAnalyzerDescriptor } from '../scripts/split-analyzer-protos.mjs';

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

describe('the language options every request carries', () => {
  it('are one message, passed through unconverted and encoded as their JSON form', () => {
    const { languageOptions } = analyzer.client;
    const type = (Object.getPrototypeOf(languageOptions) as { $type?: protobuf.Type }).$type;
    expect(type?.fullName).toBe('.zetasql.LanguageOptionsProto');
    const json = (languageOptions as unknown as protobuf.Message).toJSON();
    // The BigQuery options, not an empty message (src/analyzer/options.ts).
    expect(json.productMode).toBe('PRODUCT_EXTERNAL');
    expect((json.enabledLanguageFeatures as string[]).length).toBeGreaterThan(100);
    const request = type!.root.lookupType('zetasql.local_service.AnalyzeRequest');
    const converted = request.fromObject({ options: { languageOptions }, sqlStatement: 'SELECT 1' }) as unknown as { options: { languageOptions: unknown } };
    expect(converted.options.languageOptions).toBe(languageOptions);
    const bytes = (options: object) => Buffer.from(request.encode(request.fromObject({ options: { languageOptions: options }, sqlStatement: 'SELECT 1' })).finish());
    expect(bytes(languageOptions).equals(bytes(json))).toBe(true);
    expect(Object.isFrozen(languageOptions)).toBe(true);
    expect(Object.isFrozen((languageOptions as { enabledLanguageFeatures: unknown }).enabledLanguageFeatures)).toBe(true);
  });
});

describe('the analyzer descriptor split in a core and the rest', () => {
  /** Key-sorted JSON (the completed root adds the rest's entries after the core's). */
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;

  it('the core has the types of the emulator calls, and completed it is the whole root with its codecs', () => {
    const split = splitAnalyzerDescriptor(loadRoot());
    fs.writeFileSync(path.join(dir, 'zetasql-protos-core.json'), JSON.stringify(split.core));
    fs.writeFileSync(path.join(dir, 'zetasql-protos-rest.json'), JSON.stringify(split.rest));
    const { root, complete } = loadCoreRoot(dir, codecs);
    expect(root.lookup('zetasql.local_service.AnalyzeResponse')).toBeInstanceOf(protobuf.Type);
    expect(root.lookup('zetasql.ResolvedQueryStmtProto')).toBeInstanceOf(protobuf.Type);
    expect(root.lookup('zetasql.local_service.ParseResponse')).toBeNull();
    complete();
    expect(root.lookup('zetasql.local_service.ParseResponse')).toBeInstanceOf(protobuf.Type);
    expect(canonical(root.toJSON())).toEqual(canonical(rootOfDescriptor(descriptor, {}).toJSON()));
    // A type of the rest takes its codecs from the table too (no protobufjs code generation).
    const setup = vi.spyOn(protobuf.Type.prototype, 'setup');
    const t = root.lookupType('zetasql.local_service.ParseRequest');
    const bytes = t.encode(t.fromObject({ sqlStatement: 'SELECT 1' })).finish();
    // TO_OBJECT names the member set of each oneof (`target`: sql_statement or parse_resume_location).
    expect(t.toObject(t.decode(bytes), TO_OBJECT)).toEqual({ sqlStatement: 'SELECT 1', target: 'sqlStatement' });
    expect(setup).not.toHaveBeenCalled();
    setup.mockRestore();
  });
});
