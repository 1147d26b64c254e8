/**
 * One-shot import of the shared real-BigQuery recordings into `conformance/fixtures/<phase>/<name>/`
 * (conformance/README.md "Fixture files" and "Test data copied from the reference corpus"). Every
 * file is copied byte for byte — an `expected.json` is never edited — and a `provenance.json`
 * naming the source is written beside it.
 *
 *   npm run corpus:import -- [--corpus DIR] [--source DIR] [--dest DIR]
 *   npm run corpus:verify -- [--corpus DIR]          (same as corpus:import with --check)
 *
 * `--corpus` is the reference corpus root, default `../shared/corpus` (relative to the repository);
 * `--source` the SQL recordings, default `<corpus>/bigquery-recorded/sql`; `--dest` the fixture
 * root, default `conformance/fixtures`. The same run also copies the wire recordings and the
 * documentation examples the tests read (`conformance/copies.ts`: `conformance/wire/`,
 * `conformance/docs-examples/`, and the Storage Read API recordings `conformance/grpc/storage_read/`). Re-running is idempotent; a destination file whose bytes differ
 * from the source is an error (the import never overwrites). `--check` writes nothing and exits 1
 * when any imported file or provenance entry is missing or differs.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_COPIES, copyTree, sha256 } from './copies.js';

export { sha256 };

/** Where the recordings come from (conformance/README.md "Where the fixtures come from"). */
export const RECORDED_SOURCE = {
  source: 'recorded',
  repository: 'github.com/jjviscomi/bqemulator',
  commit: 'a8fcd56f',
  license: 'Apache-2.0',
  /** Directory of the SQL corpus in that repository; the fixture's `<phase>/<name>` follows. */
  root: 'tests/conformance/sql_corpus',
} as const;

/** `provenance.json` of an imported fixture. */
export interface RecordedProvenance {
  source: 'recorded';
  repository: string;
  commit: string;
  license: string;
  /** Path of the fixture directory in the source repository. */
  path: string;
  /** Path inside the shared corpus it was copied from. */
  imported_from: string;
  /** sha256 of every copied file, by file name (lets a test prove the bytes are unmodified). */
  sha256: Record<string, string>;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The reference corpus root beside the repository (`--corpus`); its SQL recordings are `bigquery-recorded/sql`. */
export const DEFAULT_CORPUS = resolve(REPO_ROOT, '../shared/corpus');
/** Where the SQL fixtures are imported to (`--dest`). */
export const DEFAULT_DEST = resolve(REPO_ROOT, 'conformance/fixtures');

/** Every `<phase>/<name>` directory of the source that holds a `query.sql`, sorted. */
export function listSourceFixtures(source: string): { phase: string; name: string; dir: string }[] {
  const out: { phase: string; name: string; dir: string }[] = [];
  for (const phase of readdirSync(source).sort()) {
    const pdir = join(source, phase);
    if (!statSync(pdir).isDirectory()) continue;
    for (const name of readdirSync(pdir).sort()) {
      const dir = join(pdir, name);
      if (statSync(dir).isDirectory() && existsSync(join(dir, 'query.sql'))) out.push({ phase, name, dir });
    }
  }
  return out;
}

/** The provenance record of one fixture (files hashed from the source). */
export function provenanceFor(phase: string, name: string, dir: string): RecordedProvenance {
  const files = readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile()).sort();
  const hashes: Record<string, string> = {};
  for (const f of files) hashes[f] = sha256(readFileSync(join(dir, f)));
  return {
    source: 'recorded',
    repository: RECORDED_SOURCE.repository,
    commit: RECORDED_SOURCE.commit,
    license: RECORDED_SOURCE.license,
    path: `${RECORDED_SOURCE.root}/${phase}/${name}`,
    imported_from: `shared/corpus/bigquery-recorded/sql/${phase}/${name}`,
    sha256: hashes,
  };
}

export interface ImportResult {
  fixtures: number;
  filesCopied: number;
  unchanged: number;
  problems: string[];
}

/**
 * Copy every source fixture into `dest` byte for byte and write its `provenance.json`. With
 * `check`, nothing is written and every difference is listed in `problems`.
 */
export function importFixtures(source: string, dest: string, check = false): ImportResult {
  const res: ImportResult = { fixtures: 0, filesCopied: 0, unchanged: 0, problems: [] };
  for (const fx of listSourceFixtures(source)) {
    res.fixtures++;
    const target = join(dest, fx.phase, fx.name);
    if (!check) mkdirSync(target, { recursive: true });
    const prov = provenanceFor(fx.phase, fx.name, fx.dir);
    for (const f of Object.keys(prov.sha256)) {
      const from = join(fx.dir, f);
      const to = join(target, f);
      if (existsSync(to)) {
        if (sha256(readFileSync(to)) === prov.sha256[f]) {
          res.unchanged++;
          continue;
        }
        res.problems.push(`${fx.phase}/${fx.name}/${f}: differs from the source (the import never overwrites)`);
        continue;
      }
      if (check) {
        res.problems.push(`${fx.phase}/${fx.name}/${f}: missing`);
        continue;
      }
      copyFileSync(from, to);
      res.filesCopied++;
    }
    const provText = JSON.stringify(prov, null, 2) + '\n';
    const provFile = join(target, 'provenance.json');
    if (check) {
      if (!existsSync(provFile) || readFileSync(provFile, 'utf8') !== provText) res.problems.push(`${fx.phase}/${fx.name}/provenance.json: missing or stale`);
    } else {
      writeFileSync(provFile, provText);
    }
  }
  return res;
}

function main(argv: string[]): number {
  const arg = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const corpus = resolve(arg('--corpus') ?? DEFAULT_CORPUS);
  const source = resolve(arg('--source') ?? join(corpus, 'bigquery-recorded/sql'));
  const dest = resolve(arg('--dest') ?? DEFAULT_DEST);
  const check = argv.includes('--check');
  const verb = check ? 'checked' : 'imported';
  for (const dir of [source, ...ALL_COPIES.map((c) => join(corpus, c.from))]) {
    if (!existsSync(dir)) {
      console.error(`import: source not found: ${dir}`);
      return 2;
    }
  }
  const r = importFixtures(source, dest, check);
  for (const p of r.problems) console.error(`import: ${p}`);
  console.log(`${verb} ${r.fixtures} fixtures from ${source} into ${dest}: ${r.filesCopied} files copied, ${r.unchanged} unchanged, ${r.problems.length} problems`);
  let problems = r.problems.length;
  for (const c of ALL_COPIES) {
    const cr = copyTree(c, corpus, check);
    for (const p of cr.problems) console.error(`import: ${p}`);
    console.log(`${verb} ${c.name}: ${cr.files} files from ${join(corpus, c.from)} into ${c.data}: ${cr.filesCopied} files copied, ${cr.unchanged} unchanged, ${cr.problems.length} problems`);
    problems += cr.problems.length;
  }
  return problems ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
