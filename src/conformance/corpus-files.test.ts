// The committed corpus under conformance/ (conformance/README.md "Where the fixtures come from"):
// imported recordings are byte-identical to the shared source and carry their provenance; authored
// fixtures say so and carry no job id; every fixture qualifies (conformance/README.md
// "Qualification"); registry and pending ids name real fixtures or are explained. The wire
// recordings and documentation examples (conformance/wire/, conformance/docs-examples/) match their
// provenance.json. Comparing with the corpus itself is `npm run corpus:verify`
// (conformance/README.md): the tests read only the repository.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COPIES, copyTree, verifyCopy } from '../../conformance/copies.js';
import { importFixtures, sha256 } from '../../conformance/import.js';
import { discoverFixtures, loadFixture } from './fixtures.js';
import { parseJsonSafe } from './jsonsafe.js';
import { checkQualification } from './qualify.js';
import { DEFAULT_DIVERGENCES, DEFAULT_PENDING, loadStrictLists } from './strict.js';

const ROOT = resolve(__dirname, '../../conformance/fixtures');
const fixtures = discoverFixtures(ROOT);
const provenance = (dir: string) => JSON.parse(readFileSync(join(dir, 'provenance.json'), 'utf8'));

describe('conformance/fixtures', () => {
  it('holds the 728 imported recordings, each with its provenance and unmodified bytes', () => {
    const recorded = fixtures.filter((f) => provenance(f.dir).source === 'recorded');
    expect(recorded).toHaveLength(728);
    for (const f of recorded) {
      const p = provenance(f.dir);
      expect(p).toMatchObject({ repository: 'github.com/jjviscomi/bqemulator', commit: 'a8fcd56f', license: 'Apache-2.0' });
      expect(p.path).toBe(`tests/conformance/sql_corpus/${f.id}`);
      const files = readdirSync(f.dir).filter((x) => x !== 'provenance.json').sort();
      expect(files, f.id).toEqual(Object.keys(p.sha256).sort());
      for (const file of files) expect(sha256(readFileSync(join(f.dir, file))), `${f.id}/${file}`).toBe(p.sha256[file]);
    }
  });

  it('the import check (npm run corpus:verify) passes on identical bytes and names a changed file', () => {
    const source = mkdtempSync(join(tmpdir(), 'bqemu-import-'));
    for (const id of ['standard_functions/bound_int64_max', 'rest_crud/error_table_not_found']) {
      const dir = join(source, id);
      mkdirSync(dir, { recursive: true });
      for (const f of Object.keys(provenance(join(ROOT, id)).sha256)) cpSync(join(ROOT, id, f), join(dir, f));
    }
    expect(importFixtures(source, ROOT, true)).toMatchObject({ fixtures: 2, problems: [] });
    writeFileSync(join(source, 'rest_crud/error_table_not_found/query.sql'), 'SELECT 1');
    expect(importFixtures(source, ROOT, true).problems).toEqual([
      'rest_crud/error_table_not_found/query.sql: differs from the source (the import never overwrites)',
      'rest_crud/error_table_not_found/provenance.json: missing or stale',
    ]);
    rmSync(source, { recursive: true, force: true });
  });

  it('has authored fixtures that cite their source and carry no job id', () => {
    const authored = fixtures.filter((f) => provenance(f.dir).source === 'authored');
    expect(authored.length).toBeGreaterThan(0);
    for (const f of authored) {
      const p = provenance(f.dir);
      expect(Array.isArray(p.cites) && p.cites.length > 0, f.id).toBe(true);
      const exp = parseJsonSafe(readFileSync(join(f.dir, 'expected.json'), 'utf8')) as { bigquery?: { job_id?: unknown } }; // NaN tokens allowed (conformance/README.md "Recording notes" 2)
      // No job id: the `bigquery` block is absent, or names project `authored` with `job_id: null`.
      expect(exp.bigquery?.job_id ?? undefined, f.id).toBeUndefined();
      expect(() => loadFixture(f.dir)).not.toThrow();
    }
    expect(fixtures.every((f) => ['recorded', 'authored'].includes(provenance(f.dir).source))).toBe(true);
  });

  it('every fixture qualifies (conformance/README.md "Qualification")', () => {
    expect(checkQualification(fixtures)).toEqual([]);
  });

  it('registry and pending list are disjoint; pending names existing fixtures only', () => {
    const lists = loadStrictLists(DEFAULT_DIVERGENCES, DEFAULT_PENDING);
    const ids = new Set(fixtures.map((f) => f.id));
    expect(Object.keys(lists.pending).filter((id) => !ids.has(id))).toEqual([]);
    // Registry entries may name kept-back fixtures (conformance/README.md "Running"), nothing else.
    expect(Object.keys(lists.divergences).filter((id) => !ids.has(id)).sort()).toEqual(['specialized_types/st_area_continental', 'specialized_types/st_length_continental']);
  });
});

describe('conformance/wire and conformance/docs-examples', () => {
  it('hold the files their provenance.json lists, unmodified, and nothing else', () => {
    expect(COPIES.map((c) => c.name)).toEqual(['wire', 'docs-examples']);
    for (const c of COPIES) {
      const p = JSON.parse(readFileSync(join(c.root, 'provenance.json'), 'utf8'));
      expect(p.imported_from, c.name).toBe(`shared/corpus/${c.from}`);
      expect(Object.keys(p.sha256).length, c.name).toBeGreaterThan(0);
      expect(verifyCopy(c), c.name).toEqual([]);
    }
  });

  it('the copy check (npm run corpus:verify) passes on identical bytes and names changed, missing and extra files', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'bqemu-copies-'));
    for (const c of COPIES) {
      const files = Object.keys(JSON.parse(readFileSync(join(c.root, 'provenance.json'), 'utf8')).sha256);
      for (const f of files) {
        mkdirSync(join(corpus, c.from, f, '..'), { recursive: true });
        cpSync(join(c.data, f), join(corpus, c.from, f));
      }
      expect(copyTree(c, corpus, true), c.name).toMatchObject({ files: files.length, unchanged: files.length, problems: [] });
    }
    const wire = COPIES[0]!;
    writeFileSync(join(corpus, wire.from, 'job_cancel/request.json'), '{}');
    cpSync(join(corpus, wire.from, 'job_cancel'), join(corpus, wire.from, 'job_cancel_new'), { recursive: true });
    rmSync(join(corpus, wire.from, 'job_cancel/setup_requests.json'));
    expect(copyTree(wire, corpus, true).problems.sort()).toEqual([
      'wire/job_cancel/request.json: differs from the source (the import never overwrites)',
      'wire/job_cancel/setup_requests.json: not in the source',
      'wire/job_cancel_new/expected_response.json: missing',
      'wire/job_cancel_new/request.json: missing',
      'wire/job_cancel_new/setup_requests.json: missing',
      'wire/provenance.json: missing or stale',
    ]);
    rmSync(corpus, { recursive: true, force: true });
  });
});
