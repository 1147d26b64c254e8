import { describe, expect, it } from 'vitest';
import type { Fixture } from './fixtures.js';
import {
  expandFixture,
  expandJson,
  expandString,
  PlaceholderError,
  RUNNER_GCS_BUCKET,
  RUNNER_GROUP,
  RUNNER_OTHER_PRINCIPAL,
  RUNNER_PRINCIPAL,
} from './placeholders.js';

const V = { project: 'proj-1', datasetId: 'ds_9' };

describe('expandString', () => {
  it('expands every known placeholder', () => {
    expect(expandString('`${DATASET}.t`', V)).toBe('`proj-1.ds_9.t`');
    expect(expandString('/projects/${PROJECT}/datasets/${DATASET_ID}/tables', V)).toBe('/projects/proj-1/datasets/ds_9/tables');
    expect(expandString('${PRINCIPAL}|${GROUP}|${OTHER_PRINCIPAL}|${GCS_BUCKET}', V)).toBe(
      `${RUNNER_PRINCIPAL}|${RUNNER_GROUP}|${RUNNER_OTHER_PRINCIPAL}|${RUNNER_GCS_BUCKET}`,
    );
    expect(RUNNER_PRINCIPAL.startsWith('user:')).toBe(true);
    expect(RUNNER_GROUP.startsWith('group:')).toBe(true);
    expect(RUNNER_OTHER_PRINCIPAL.startsWith('serviceAccount:')).toBe(true);
  });
  it('uses overridden identity values', () => {
    expect(expandString('${PRINCIPAL}', { ...V, principal: 'user:a@b.c' })).toBe('user:a@b.c');
  });
  it('expands adjacent and repeated placeholders', () => {
    expect(expandString('${DATASET_ID}_views ${DATASET_ID}${DATASET_ID}', V)).toBe('ds_9_views ds_9ds_9');
  });
  it('rejects lower-case variants, unknown names and empty tokens', () => {
    expect(() => expandString('${dataset}', V)).toThrow(PlaceholderError);
    expect(() => expandString('SELECT 1 FROM ${Dataset}.t', V)).toThrow(/unknown placeholder \$\{Dataset\}/);
    expect(() => expandString('${TABLE}', V)).toThrow(PlaceholderError);
    expect(() => expandString('${}', V)).toThrow(PlaceholderError);
    expect(() => expandString('${ DATASET }', V)).toThrow(PlaceholderError);
  });
  it('leaves text without ${...} untouched', () => {
    expect(expandString("SELECT '$5', '{x}', '$ {DATASET}'", V)).toBe("SELECT '$5', '{x}', '$ {DATASET}'");
  });
});

describe('expandJson', () => {
  it('expands strings recursively through objects, arrays and keys', () => {
    const out = expandJson({ a: ['${PROJECT}', { b: '${DATASET}', n: 5, t: true, z: null }], '${DATASET_ID}': 'k' }, V);
    expect(out).toEqual({ a: ['proj-1', { b: 'proj-1.ds_9', n: 5, t: true, z: null }], ds_9: 'k' });
  });
  it('throws on an unknown token deep inside', () => {
    expect(() => expandJson({ a: [{ b: ['ok', '${project}'] }] }, V)).toThrow(PlaceholderError);
  });
  it('keeps bigint values', () => {
    expect(expandJson([12345678901234567890n], V)).toEqual([12345678901234567890n]);
  });
});

describe('expandFixture', () => {
  const base: Fixture = {
    id: 'p/n',
    phase: 'p',
    name: 'n',
    dir: '/x',
    query: 'SELECT * FROM `${DATASET}.t`',
    setupSql: 'CREATE TABLE `${DATASET}.t` (x INT64);',
    setupRest: [{ method: 'POST', path: '/bigquery/v2/projects/${PROJECT}/datasets', body: { datasetReference: { datasetId: '${DATASET_ID}_v' } } }],
    headers: { 'X-Bqemu-Caller': '${PRINCIPAL}' },
    parameters: { mode: 'named', parameters: [{ name: 's', type: 'STRING', value: '${DATASET_ID}' }] },
    jobConfig: { destination: '${PROJECT}.${DATASET_ID}.target' },
    expected: { schema: [], rows: [{ s: '${DATASET}' }] },
  };
  it('expands every file but expected.json', () => {
    const fx = expandFixture(base, V);
    expect(fx.query).toBe('SELECT * FROM `proj-1.ds_9.t`');
    expect(fx.setupSql).toBe('CREATE TABLE `proj-1.ds_9.t` (x INT64);');
    expect(fx.setupRest?.[0]?.path).toBe('/bigquery/v2/projects/proj-1/datasets');
    expect(fx.setupRest?.[0]?.body).toEqual({ datasetReference: { datasetId: 'ds_9_v' } });
    expect(fx.headers?.['X-Bqemu-Caller']).toBe(RUNNER_PRINCIPAL);
    expect(fx.parameters?.parameters[0]?.value).toBe('ds_9');
    expect(fx.jobConfig?.destination).toBe('proj-1.ds_9.target');
    expect(fx.expected.rows?.[0]?.s).toBe('${DATASET}');
  });
  it('fails on an authoring error in any file', () => {
    expect(() => expandFixture({ ...base, headers: { 'X-Bqemu-Caller': '${principal}' } }, V)).toThrow(/headers\.json/);
    expect(() => expandFixture({ ...base, setupSql: 'SELECT ${X};' }, V)).toThrow(/setup\.sql/);
    expect(() => expandFixture({ ...base, jobConfig: { labels: { a: '${LABEL}' } } }, V)).toThrow(/job_config/);
  });
});
