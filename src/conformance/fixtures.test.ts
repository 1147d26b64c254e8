import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFilter, discoverFixtures, FixtureError, loadFixture, splitSetupSql, validateExpected } from './fixtures.js';
import { parseJsonSafe, stringifyJson } from './jsonsafe.js';

/** The in-repository corpus: the recorded fixtures plus authored ones (provenance.json says which). */
const CORPUS = resolve(__dirname, '../../conformance/fixtures');
const isRecorded = (dir: string) => JSON.parse(readFileSync(join(dir, 'provenance.json'), 'utf8')).source === 'recorded';

describe('parseJsonSafe', () => {
  it('keeps INT64 beyond 2^53 exact as bigint', () => {
    const v = parseJsonSafe('{"n": 9223372036854775807, "m": -9223372036854775808, "s": 42}') as Record<string, unknown>;
    expect(v.n).toBe(9223372036854775807n);
    expect(v.m).toBe(-9223372036854775808n);
    expect(v.s).toBe(42);
  });
  it('does not turn 2^53+1 into 2^53', () => {
    const v = parseJsonSafe('[9007199254740993]') as unknown[];
    expect(v[0]).toBe(9007199254740993n);
    expect(v[0]).not.toBe(BigInt(9007199254740992));
  });
  it('accepts bare NaN / Infinity / -Infinity tokens', () => {
    const v = parseJsonSafe('{"a": NaN, "b": Infinity, "c": -Infinity, "d": [1.5, NaN]}') as Record<string, unknown>;
    expect(Number.isNaN(v.a)).toBe(true);
    expect(v.b).toBe(Number.POSITIVE_INFINITY);
    expect(v.c).toBe(Number.NEGATIVE_INFINITY);
    expect((v.d as number[])[0]).toBe(1.5);
  });
  it('leaves NaN inside strings alone', () => {
    const v = parseJsonSafe('{"a": "NaN and Infinity", "b": "say \\"NaN\\""}') as Record<string, unknown>;
    expect(v.a).toBe('NaN and Infinity');
    expect(v.b).toBe('say "NaN"');
  });
  it('still rejects malformed JSON and identifiers that merely contain the tokens', () => {
    expect(() => parseJsonSafe('{"a": NaNx}')).toThrow();
    expect(() => parseJsonSafe('{"a": }')).toThrow();
  });
  it('stringifyJson writes bigint as a bare integer', () => {
    expect(stringifyJson({ n: 9223372036854775807n, s: 'x' })).toBe('{"n":9223372036854775807,"s":"x"}');
  });
});

describe('corpus files', () => {
  it('reads the NaN and big-int fixtures of the recorded corpus', () => {
    const nan = loadFixture(join(CORPUS, 'standard_functions/bound_float64_nan'));
    expect(nan.id).toBe('standard_functions/bound_float64_nan');
    expect(nan.phase).toBe('standard_functions');
    expect(Number.isNaN(nan.expected.rows![0]!.x)).toBe(true);
    const neg = loadFixture(join(CORPUS, 'standard_functions/bound_float64_neg_inf'));
    expect(neg.expected.rows![0]!.x).toBe(Number.NEGATIVE_INFINITY);
    const big = loadFixture(join(CORPUS, 'standard_functions/bound_int64_max'));
    expect(big.expected.rows![0]!.n).toBe(9223372036854775807n);
  });
  it('loads every recorded fixture without an authoring error', () => {
    const all = discoverFixtures(CORPUS).filter((f) => isRecorded(f.dir));
    expect(all.length).toBe(728);
    const bad = all.filter((f) => {
      try {
        loadFixture(f.dir);
        return false;
      } catch {
        return true;
      }
    });
    expect(bad).toEqual([]);
  });
  it('reads error-form baselines with null location', () => {
    const fx = loadFixture(join(CORPUS, 'rest_crud/error_table_not_found'));
    expect(fx.expected.error?.reason).toBe('notFound');
    expect(fx.expected.error?.http_status).toBe(404);
    expect(fx.expected.error?.location).toBeNull();
    expect(fx.expected.rows).toBeUndefined();
  });
});

describe('loadFixture', () => {
  const mk = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'bqemu-fx-'));
    const dir = join(root, 'myphase', 'myname');
    mkdirSync(dir, { recursive: true });
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
    return dir;
  };
  it('reads all optional files', () => {
    const dir = mk({
      'query.sql': 'SELECT @a',
      'setup.sql': 'CREATE TABLE t (x INT64);',
      'setup_rest.json': '[{"method":"post","path":"/bigquery/v2/projects/${PROJECT}/datasets","body":{"a":1}}]',
      'headers.json': '{"X-Bqemu-Caller":"${PRINCIPAL}"}',
      'parameters.json': '{"mode":"named","parameters":[{"name":"a","type":"INT64","value":12345678901234567890}]}',
      'job_config.json': '{"dry_run":true}',
      'expected.json': '{"fixture_version":1,"schema":[{"name":"a","type":"INTEGER"}],"rows":[{"a":1}]}',
    });
    const fx = loadFixture(dir);
    expect(fx.id).toBe('myphase/myname');
    expect(fx.setupSql).toContain('CREATE TABLE');
    expect(fx.setupRest?.[0]?.method).toBe('POST');
    expect(fx.headers?.['X-Bqemu-Caller']).toBe('${PRINCIPAL}');
    expect(fx.parameters?.parameters[0]?.value).toBe(12345678901234567890n);
    expect(fx.jobConfig?.dry_run).toBe(true);
  });
  it('rejects a fixture without expected.json or with both forms', () => {
    expect(() => loadFixture(mk({ 'query.sql': 'SELECT 1' }))).toThrow(FixtureError);
    expect(() => validateExpected(parseJsonSafe('{"error":{"reason":"x","http_status":400,"message_pattern":"."},"rows":[]}'))).toThrow(/both/);
  });
  it('rejects named parameters without a name', () => {
    const dir = mk({ 'query.sql': 'SELECT 1', 'expected.json': '{"schema":[],"rows":[]}', 'parameters.json': '{"mode":"named","parameters":[{"type":"INT64","value":1}]}' });
    expect(() => loadFixture(dir)).toThrow(/name/);
  });
});

describe('splitSetupSql', () => {
  it('ends a statement on a line whose code ends in ;', () => {
    const sql = 'CREATE TABLE t (x INT64);\nINSERT INTO t VALUES\n  (1),\n  (2);\n';
    expect(splitSetupSql(sql)).toEqual(['CREATE TABLE t (x INT64);', 'INSERT INTO t VALUES\n  (1),\n  (2);']);
  });
  it('looks only at the text before -- and keeps the comment with the statement', () => {
    const sql = 'CREATE TABLE a (x INT64); -- first\nSELECT 1 -- no end here;\n, 2;\n';
    expect(splitSetupSql(sql)).toEqual(['CREATE TABLE a (x INT64); -- first', 'SELECT 1 -- no end here;\n, 2;']);
  });
  it('does not split on a ; in the middle of a line', () => {
    expect(splitSetupSql("SELECT ';' AS s; SELECT 2\n;")).toEqual(["SELECT ';' AS s; SELECT 2\n;"]);
  });
  it('drops comment-only chunks and keeps a final statement without ;', () => {
    const sql = '-- header comment\n-- more\nSELECT 1 AS placeholder;\n-- trailing comment\n';
    expect(splitSetupSql(sql)).toEqual(['-- header comment\n-- more\nSELECT 1 AS placeholder;']);
    expect(splitSetupSql('SELECT 1;\nSELECT 2')).toEqual(['SELECT 1;', 'SELECT 2']);
  });
  it('splits a procedure body on inner lines (the recorder rule, not SQL parsing)', () => {
    expect(splitSetupSql('BEGIN\n  SELECT 1;\nEND;')).toHaveLength(2);
  });
});

describe('compileFilter', () => {
  it('matches globs on the whole id and substrings otherwise', () => {
    const f = compileFilter('rest_crud/*,nan');
    expect(f('rest_crud/select_1')).toBe(true);
    expect(f('standard_functions/bound_float64_nan')).toBe(true);
    expect(f('standard_functions/bound_int64_max')).toBe(false);
    expect(compileFilter('rest_*')('x/rest_crud')).toBe(false);
    expect(compileFilter(undefined)('anything')).toBe(true);
  });
});
