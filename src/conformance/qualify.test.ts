// Fixture qualification rules of conformance/README.md "Qualification": positive and negative cases
// for each rule.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './jsonsafe.js';
import { checkQualification, qualifyFixture, stripSql } from './qualify.js';

const rules = (query: string, extra: Partial<Parameters<typeof qualifyFixture>[0]> = {}) => qualifyFixture({ query, ...extra }).map((i) => i.rule);

describe('stripSql', () => {
  it('drops comments and literals, keeps backtick contents', () => {
    expect(stripSql("SELECT 'CURRENT_DATE' -- now()\n, `region-us`.x /* rand() */ # uuid")).toBe("SELECT ''  \n, region-us.x    ");
    expect(stripSql("SELECT r'\\'' , '''a\n'b'''")).toBe("SELECT '' , ''");
  });
});

describe('qualifyFixture: determinism rules', () => {
  it('flags wall-clock inputs with and without parentheses', () => {
    expect(rules('SELECT CURRENT_TIMESTAMP()')).toEqual(['wall-clock']);
    expect(rules('SELECT current_date')).toEqual(['wall-clock']);
    expect(rules('SELECT CURRENT_DATETIME("UTC"), CURRENT_TIME()')).toEqual(['wall-clock', 'wall-clock']);
    expect(rules('SELECT NOW()')).toEqual(['wall-clock']);
  });
  it('does not flag look-alikes: literals, comments, longer identifiers, field access', () => {
    expect(rules("SELECT 'CURRENT_DATE' AS s -- CURRENT_TIMESTAMP()")).toEqual([]);
    expect(rules('SELECT cs_current_date, i_brand, t.current_date, operand(1) FROM t')).toEqual([]);
    expect(rules("SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'")).toEqual([]);
  });
  it('flags RAND, SESSION_USER and GENERATE_UUID but not their look-alikes', () => {
    expect(rules('SELECT RAND() < 2')).toEqual(['random']);
    expect(rules('SELECT SESSION_USER()')).toEqual(['session-user']);
    expect(rules('SELECT GENERATE_UUID()')).toEqual(['uuid']);
    expect(rules('SELECT brand(1), my_rand(2), "GENERATE_UUID()"')).toEqual([]);
  });
  it('flags job-history reads in every spelling', () => {
    expect(rules('SELECT * FROM `region-us`.INFORMATION_SCHEMA.JOBS')).toEqual(['job-history']);
    expect(rules('SELECT * FROM `p.region-us.INFORMATION_SCHEMA.JOBS_BY_USER`')).toEqual(['job-history']);
    expect(rules('SELECT * FROM region-us.INFORMATION_SCHEMA.JOBS_TIMELINE_BY_PROJECT')).toEqual(['job-history']);
    expect(rules('SELECT * FROM `${DATASET}`.INFORMATION_SCHEMA.TABLES')).toEqual([]);
  });
  it('flags relative and static time travel', () => {
    const rel = qualifyFixture({ query: 'SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 1 HOUR)' });
    expect(rel.map((i) => i.rule).sort()).toEqual(['time-travel', 'wall-clock']);
    expect(rel.find((i) => i.rule === 'time-travel')!.detail).toMatch(/^relative/);
    const lit = qualifyFixture({ query: "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 00:00:00+00'" });
    expect(lit).toEqual([{ rule: 'time-travel', file: 'query.sql', detail: expect.stringMatching(/^static/) }]);
    expect(rules('SELECT * FROM t')).toEqual([]);
  });
  it('looks into setup.sql and view queries of setup_rest.json', () => {
    expect(rules('SELECT 1', { setupSql: 'CREATE OR REPLACE TABLE `${DATASET}`.t AS SELECT CURRENT_DATE() AS d;' })).toEqual(['wall-clock']);
    const rest: JsonValue = [{ method: 'POST', path: '/bigquery/v2/projects/${PROJECT}/datasets/${DATASET_ID}/tables', body: { view: { query: 'SELECT RAND() AS r' } } }];
    expect(rules('SELECT 1', { setupRest: rest })).toEqual(['random']);
  });
});

describe('qualifyFixture: idempotent setup', () => {
  it('accepts CREATE OR REPLACE, IF NOT EXISTS and TEMP anywhere', () => {
    expect(rules('SELECT 1', { setupSql: 'CREATE OR REPLACE TABLE fixed.t (a INT64);\nCREATE TABLE IF NOT EXISTS fixed.u (a INT64);' })).toEqual([]);
    expect(rules('CREATE TEMP TABLE t AS SELECT 1 AS a; SELECT * FROM t;')).toEqual([]);
  });
  it('accepts a plain CREATE TABLE in the fresh per-fixture dataset', () => {
    expect(rules('SELECT 1', { setupSql: 'CREATE TABLE `${DATASET}`.t (a INT64);\nINSERT INTO `${DATASET}`.t VALUES (1);' })).toEqual([]);
    expect(rules('SELECT 1', { setupSql: 'CREATE TABLE ${PROJECT}.${DATASET_ID}.t (a INT64);' })).toEqual([]);
  });
  it('rejects a plain CREATE in a fixed dataset, or in the per-fixture dataset when none is created', () => {
    expect(rules('SELECT 1', { setupSql: 'CREATE TABLE fixed_ds.t (a INT64);' })).toEqual(['non-idempotent-setup']);
    expect(rules('CREATE TABLE `${DATASET}`.t (a INT64)')).toEqual(['non-idempotent-setup']);
    expect(rules('SELECT 1', { setupSql: 'CREATE SCHEMA fixed_ds;' })).toEqual(['non-idempotent-setup']);
    expect(rules('SELECT 1', { setupSql: 'CREATE VIEW `p.fixed.v` AS SELECT 1 AS a;' })).toEqual(['non-idempotent-setup']);
  });
  it('does not count a CREATE in an error-expected canonical query (it creates nothing)', () => {
    expect(rules('CREATE TABLE `${DATASET}`.t (a INT64)', { expectsError: true })).toEqual([]);
  });
  it('rejects DML into a fixed dataset, accepts it into the per-fixture one', () => {
    expect(rules('SELECT 1', { setupSql: 'INSERT INTO fixed.t (a) VALUES (1);' })).toEqual(['non-idempotent-setup']);
    expect(rules('SELECT 1', { setupSql: 'INSERT INTO `${DATASET}`.t (a) VALUES (1);\nUPDATE `${DATASET}`.t SET a = 2 WHERE TRUE;' })).toEqual([]);
    expect(rules('MERGE `${DATASET}`.t T USING `${DATASET}`.s S ON T.a = S.a WHEN MATCHED THEN UPDATE SET a = S.a WHEN NOT MATCHED THEN INSERT (a) VALUES (S.a)', { setupSql: 'CREATE TABLE `${DATASET}`.t (a INT64);' })).toEqual([]);
  });
  it('rejects REST writes into a fixed dataset the fixture did not create', () => {
    const own: JsonValue = [
      { method: 'POST', path: '/bigquery/v2/projects/${PROJECT}/datasets', body: { datasetReference: { datasetId: '${DATASET_ID}_views' } } },
      { method: 'POST', path: '/bigquery/v2/projects/${PROJECT}/datasets/${DATASET_ID}_views/tables', body: {} },
    ];
    expect(rules('SELECT 1', { setupRest: own })).toEqual([]);
    const fixed: JsonValue = [{ method: 'POST', path: '/bigquery/v2/projects/${PROJECT}/datasets/shared_ds/tables', body: {} }];
    expect(rules('SELECT 1', { setupRest: fixed })).toEqual(['non-idempotent-setup']);
  });
});

describe('checkQualification', () => {
  it('lists only the fixtures that do not qualify, with their issues', () => {
    const root = mkdtempSync(join(tmpdir(), 'bqemu-qual-'));
    const mk = (id: string, query: string) => {
      mkdirSync(join(root, id), { recursive: true });
      writeFileSync(join(root, id, 'query.sql'), query);
      writeFileSync(join(root, id, 'expected.json'), '{"schema":[],"rows":[]}');
      return { id, dir: join(root, id) };
    };
    const fx = [mk('p/good', 'SELECT 1'), mk('p/clock', 'SELECT CURRENT_TIMESTAMP()')];
    expect(checkQualification(fx)).toEqual([{ id: 'p/clock', issues: [{ rule: 'wall-clock', file: 'query.sql', detail: 'CURRENT_TIMESTAMP' }] }]);
  });
});
