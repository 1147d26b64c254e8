/**
 * Verbatim copies of the reference corpus's wire recordings and GoogleSQL documentation examples,
 * kept in the repository so that the tests run the same with or without the corpus beside it
 * (`conformance/README.md`, "Where the test data comes from").
 *
 * Each copy is one directory tree copied byte for byte, with a `provenance.json` at the copy's root
 * naming its origin, the date it was copied and the sha256 of every file (path relative to the
 * copy's data directory). {@link copyTree} writes or checks one copy; `conformance/import.ts` runs
 * it for every entry of {@link COPIES} (`npm run corpus:import`, `npm run corpus:verify`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** One verbatim copy: where it comes from in the corpus, where it lives here, what it is. */
export interface CorpusCopy {
  /** Short name used in messages. */
  name: string;
  /** Directory inside the corpus root (`../shared/corpus`) that is copied. */
  from: string;
  /** Directory of the copy's root in the repository (holds `provenance.json`). */
  root: string;
  /** Directory under `root` the files are copied into. */
  data: string;
  /**
   * What the files are and where they were recorded or collected (conformance/README.md "Test data
   * copied from the reference corpus").
   */
  what: string;
  /** Origin of the data before the corpus: repository, revision, license. */
  origin: { repository: string; revision: string; license: string };
  /** Day the copy was made (UTC, YYYY-MM-DD). */
  copied: string;
}

/** The copies the tests and tools read (`test/helpers/wire-fixtures.ts`, `src/conformance/docs*.ts`). */
export const COPIES: readonly CorpusCopy[] = [
  {
    name: 'wire',
    from: 'bigquery-recorded/http/jobs',
    root: resolve(REPO_ROOT, 'conformance/wire'),
    data: resolve(REPO_ROOT, 'conformance/wire/jobs'),
    what:
      'Wire-level REST fixtures recorded from real BigQuery: request.json ({method, path, body} or body_bin), optional setup.sql and ' +
      'setup_requests.json, expected_response.json ({http_status, headers, body} as recorded). Per test/jobs-wire-fixtures.test.ts, ' +
      'twelve upload_* fixtures are hand-written baselines of another emulator, not recordings.',
    origin: { repository: 'github.com/jjviscomi/bqemulator', revision: 'a8fcd56f', license: 'Apache-2.0' },
    copied: '2026-11-26',
  },
  {
    name: 'docs-examples',
    from: 'docs-examples',
    root: resolve(REPO_ROOT, 'conformance/docs-examples'),
    data: resolve(REPO_ROOT, 'conformance/docs-examples'),
    what:
      'Every worked example (query and printed result table) of the GoogleSQL reference documentation, one JSON object per line ' +
      '(visible.jsonl: id, doc, section, line, query, kind, columns, rows, ordered, truncated, error, flags).',
    origin: { repository: 'github.com/google/zetasql (docs/*.md)', revision: '2d8f7b7 (2025-11-12)', license: 'Apache-2.0' },
    copied: '2026-11-26',
  },
];

/**
 * The Storage Read API recordings (gRPC), copied like {@link COPIES} and replayed by
 * `src/conformance/grpc-replay.ts` (`test/storage-read-corpus.test.ts`, `npm run corpus:grpc`).
 * Kept apart from {@link COPIES} because that list is the REST-side copies.
 */
export const GRPC_COPIES: readonly CorpusCopy[] = [
  {
    name: 'grpc-storage-read',
    from: 'bigquery-recorded/grpc/storage_read',
    root: resolve(REPO_ROOT, 'conformance/grpc/storage_read'),
    data: resolve(REPO_ROOT, 'conformance/grpc/storage_read'),
    what:
      'BigQuery Storage Read API (google.cloud.bigquery.storage.v1.BigQueryRead) calls recorded from real BigQuery, one directory per ' +
      'fixture: setup.sql (GoogleSQL run before the calls), request.json ({fixture_version, calls: [{method, request, capture?}]}) and ' +
      'expected_response.json ({fixture_version, bigquery, calls: [{method, status, response | responses}]}), proto field names in ' +
      'snake_case, "<*>" for run-dependent values.',
    origin: { repository: 'github.com/jjviscomi/bqemulator', revision: 'a8fcd56f', license: 'Apache-2.0' },
    copied: '2026-11-26',
  },
];

/**
 * The Storage Write API recordings (gRPC), copied like {@link GRPC_COPIES} and replayed by the same
 * harness (`test/storage-write-corpus.test.ts`, `npm run corpus:grpc`).
 */
export const GRPC_WRITE_COPIES: readonly CorpusCopy[] = [
  {
    name: 'grpc-storage-write',
    from: 'bigquery-recorded/grpc/storage_write',
    root: resolve(REPO_ROOT, 'conformance/grpc/storage_write'),
    data: resolve(REPO_ROOT, 'conformance/grpc/storage_write'),
    what:
      'BigQuery Storage Write API (google.cloud.bigquery.storage.v1.BigQueryWrite) calls recorded from real BigQuery, one directory per ' +
      'fixture: setup.sql, request.json ({fixture_version, calls: [{method, request, capture?}]}) and expected_response.json ' +
      '({fixture_version, bigquery, calls: [{method, status, response | error_message}]}), proto field names in snake_case as the ' +
      'Python client writes them (`type_` for WriteStream.type, an Int64Value offset as its value), "<*>" for run-dependent values.',
    origin: { repository: 'github.com/jjviscomi/bqemulator', revision: 'a8fcd56f', license: 'Apache-2.0' },
    copied: '2026-11-26',
  },
];

/** Every verbatim copy: {@link COPIES}, {@link GRPC_COPIES} and {@link GRPC_WRITE_COPIES} (what `npm run corpus:import` / `corpus:verify` walk). */
export const ALL_COPIES: readonly CorpusCopy[] = [...COPIES, ...GRPC_COPIES, ...GRPC_WRITE_COPIES];

/** Files the copy itself adds beside the data (never part of the source). */
const OWN_FILES = new Set(['provenance.json', 'README.md']);

/** `provenance.json` of a copy. */
export interface CopyProvenance {
  what: string;
  origin: CorpusCopy['origin'];
  /** Path inside the corpus it was copied from. */
  imported_from: string;
  copied: string;
  /** sha256 of every copied file, by path relative to the data directory ('/'-separated). */
  sha256: Record<string, string>;
}

/** Hex sha256 of a buffer. */
export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

/** Every regular file under `dir`, as '/'-separated paths relative to it, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** The provenance record of `copy` with the hashes of the files under `sourceDir`. */
export function copyProvenance(copy: CorpusCopy, sourceDir: string): CopyProvenance {
  const hashes: Record<string, string> = {};
  for (const f of listFiles(sourceDir)) hashes[f] = sha256(readFileSync(join(sourceDir, f)));
  return { what: copy.what, origin: copy.origin, imported_from: `shared/corpus/${copy.from}`, copied: copy.copied, sha256: hashes };
}

/** Outcome of {@link copyTree}. */
export interface CopyResult {
  files: number;
  filesCopied: number;
  unchanged: number;
  /** One line per difference (missing, differing or extra file, stale provenance). */
  problems: string[];
}

/**
 * Copies the files of `corpusRoot/<copy.from>` into `copy.data` byte for byte and writes
 * `provenance.json` in `copy.root`. A destination file whose bytes differ from the source is a
 * problem (never overwritten). With `check`, nothing is written and every difference is listed,
 * including files in the copy that the source no longer has.
 */
export function copyTree(copy: CorpusCopy, corpusRoot: string, check = false): CopyResult {
  const source = join(corpusRoot, copy.from);
  const res: CopyResult = { files: 0, filesCopied: 0, unchanged: 0, problems: [] };
  const prov = copyProvenance(copy, source);
  for (const [f, hash] of Object.entries(prov.sha256)) {
    res.files++;
    const to = join(copy.data, f);
    if (existsSync(to)) {
      if (sha256(readFileSync(to)) === hash) res.unchanged++;
      else res.problems.push(`${copy.name}/${f}: differs from the source (the import never overwrites)`);
      continue;
    }
    if (check) {
      res.problems.push(`${copy.name}/${f}: missing`);
      continue;
    }
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, readFileSync(join(source, f)));
    res.filesCopied++;
  }
  const extra = existsSync(copy.data) ? listFiles(copy.data).filter((f) => !(f in prov.sha256) && !(copy.data === copy.root && OWN_FILES.has(f))) : [];
  for (const f of extra) res.problems.push(`${copy.name}/${f}: not in the source`);
  const provText = JSON.stringify(prov, null, 2) + '\n';
  const provFile = join(copy.root, 'provenance.json');
  if (check) {
    if (!existsSync(provFile) || readFileSync(provFile, 'utf8') !== provText) res.problems.push(`${copy.name}/provenance.json: missing or stale`);
  } else {
    mkdirSync(copy.root, { recursive: true });
    writeFileSync(provFile, provText);
  }
  return res;
}

/**
 * Checks a copy against its own `provenance.json` (no corpus needed): every listed file is present
 * with the recorded sha256 and no other file is in the data directory. Returns the differences.
 */
export function verifyCopy(copy: CorpusCopy): string[] {
  const prov = JSON.parse(readFileSync(join(copy.root, 'provenance.json'), 'utf8')) as CopyProvenance;
  const problems: string[] = [];
  for (const [f, hash] of Object.entries(prov.sha256)) {
    const p = join(copy.data, f);
    if (!existsSync(p)) problems.push(`${copy.name}/${f}: missing`);
    else if (sha256(readFileSync(p)) !== hash) problems.push(`${copy.name}/${f}: modified`);
  }
  for (const f of listFiles(copy.data)) if (!(f in prov.sha256) && !(copy.data === copy.root && OWN_FILES.has(f))) problems.push(`${copy.name}/${f}: not listed in provenance.json`);
  return problems;
}
