// The committed corpus under conformance/ (issue 3): imported recordings are byte-identical to the
// shared source and carry their provenance; authored fixtures say so and carry no job id; every
// fixture qualifies (contract §1.5); registry and pending ids name real fixtures or are explained.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SOURCE, importFixtures, sha256 } from '../../conformance/import.js';
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

  it.skipIf(!existsSync(DEFAULT_SOURCE))('matches the shared source byte for byte', () => {
    expect(importFixtures(DEFAULT_SOURCE, ROOT, true).problems).toEqual([]);
  });

  it('has authored fixtures that cite their source and carry no job id', () => {
    const authored = fixtures.filter((f) => provenance(f.dir).source === 'authored');
    expect(authored.length).toBeGreaterThan(0);
    for (const f of authored) {
      const p = provenance(f.dir);
      expect(Array.isArray(p.cites) && p.cites.length > 0, f.id).toBe(true);
      const exp = parseJsonSafe(readFileSync(join(f.dir, 'expected.json'), 'utf8')) as { bigquery?: { job_id?: unknown } }; // NaN tokens allowed (corpus README note 2)
      // No job id: the `bigquery` block is absent, or names project `authored` with `job_id: null`.
      expect(exp.bigquery?.job_id ?? undefined, f.id).toBeUndefined();
      expect(() => loadFixture(f.dir)).not.toThrow();
    }
    expect(fixtures.every((f) => ['recorded', 'authored'].includes(provenance(f.dir).source))).toBe(true);
  });

  it('every fixture qualifies (contract §1.5)', () => {
    expect(checkQualification(fixtures)).toEqual([]);
  });

  it('registry and pending list are disjoint; pending names existing fixtures only', () => {
    const lists = loadStrictLists(DEFAULT_DIVERGENCES, DEFAULT_PENDING);
    const ids = new Set(fixtures.map((f) => f.id));
    expect(Object.keys(lists.pending).filter((id) => !ids.has(id))).toEqual([]);
    // Registry entries may name kept-back fixtures the contract lists (§6.4), nothing else.
    expect(Object.keys(lists.divergences).filter((id) => !ids.has(id)).sort()).toEqual(['specialized_types/st_area_continental', 'specialized_types/st_length_continental']);
  });
});
