/**
 * The repository is self-contained: comments, docstrings, test titles and strings cite in-repo
 * documents (docs/ARCHITECTURE.md §N, conformance/README.md sections, README.md sections, source
 * files, fixture ids) or public BigQuery/GoogleSQL pages — never a document that exists only beside
 * the repository (a design note, an API contract, the reference corpus README, a ticket number).
 *
 * This scans every source file under src/, test/, scripts/, bench/ and the top level of
 * conformance/ (plus the repository's CI and tool configuration) line by line — comments, strings
 * and code alike, since none of the patterns below is ever an identifier — and fails listing
 * `file:line` for each line that cites such a document. Generated files (`src/**\/generated/**`) and
 * this file are not scanned. The only allowed mentions are the tools' documented defaults listed in
 * ALLOWED, each of which must still exist (so the list cannot go stale).
 *
 * In-repo citations must resolve too: a repository path a comment names (`src/…/x.ts`,
 * `test/…`, `conformance/…`) exists, a `conformance/README.md "Heading"` citation names one of
 * that file's headings, and a `docs/ARCHITECTURE.md §N` citation names one of its ten sections.
 * Each scanner is also run on snippets that must fail, so the checks cannot pass vacuously.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = 'test/self-contained.test.ts';

/** Citations of documents outside the repository, each with what to cite instead. */
const PATTERNS: { rule: string; re: RegExp }[] = [
  { rule: 'design note (cite docs/ARCHITECTURE.md §N)', re: /\bDESIGN(?:\.md\b| ?§)/ },
  { rule: 'API contract (cite conformance/README.md or a BigQuery REST reference page)', re: /\bcontract ?§|conformance-and-api-contract|\bspec ?§/i },
  { rule: 'ticket number (say what the behaviour is, not which ticket added it)', re: /\bissues? #?[0-9]/i },
  { rule: 'path outside the repository', re: /\.\.\/shared\b|\/work\/shared\b|shared\/spec\// },
  { rule: 'reference corpus README (cite conformance/README.md "Recording notes")', re: /\bcorpus README\b/i },
];

/**
 * Mentions that are allowed: the documented default of `npm run corpus:import` / `corpus:verify`
 * (`--corpus`, the reference corpus checked out beside the repository; conformance/README.md
 * "Test data copied from the reference corpus"). `file` is repository-relative, `text` a substring
 * of the allowed line.
 */
const ALLOWED: { file: string; text: string }[] = [
  { file: 'conformance/import.ts', text: "export const DEFAULT_CORPUS = resolve(REPO_ROOT, '../shared/corpus');" },
  { file: 'conformance/import.ts', text: '`--corpus` is the reference corpus root, default `../shared/corpus`' },
  { file: 'conformance/copies.ts', text: '/** Directory inside the corpus root (`../shared/corpus`) that is copied. */' },
];

/** Extensions of the files scanned. */
const SOURCE_EXT = /\.(?:[cm]?ts|[cm]?js)$/;

interface Finding {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/**
 * Lines of `text` that cite a document outside the repository. `file` is the repository-relative
 * path used in the findings and to look up ALLOWED entries. Returns one finding per offending line
 * (the first rule that matches).
 */
function findOutsideCitations(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, i) => {
    if (ALLOWED.some((a) => a.file === file && line.includes(a.text))) return;
    const hit = PATTERNS.find((p) => p.re.test(line));
    if (hit) found.push({ file, line: i + 1, rule: hit.rule, text: line.trim() });
  });
  return found;
}

/** Repository-relative paths of the source files under `dir` (recursive), generated files excluded. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'generated') walk(child);
      } else if (SOURCE_EXT.test(e.name)) out.push(child);
    }
  };
  walk(dir);
  return out;
}

/** Every file the check covers. */
function scannedFiles(): string[] {
  const files = ['src', 'test', 'scripts', 'bench'].flatMap(sourceFiles);
  for (const e of fs.readdirSync(path.join(ROOT, 'conformance'), { withFileTypes: true })) {
    if (e.isFile() && SOURCE_EXT.test(e.name)) files.push(`conformance/${e.name}`);
  }
  for (const f of ['package.json', '.ci/run', '.dependency-cruiser.cjs', 'vitest.config.ts', 'tsconfig.json', 'tsconfig.build.json']) {
    if (fs.existsSync(path.join(ROOT, f))) files.push(f);
  }
  return files.filter((f) => f !== SELF);
}

/** The comment part of one source line: the whole line for a comment line, else what follows ` // `. */
function commentOf(line: string): string {
  const t = line.trim();
  if (/^(?:\*|\/\*|\/\/)/.test(t)) return t;
  const k = line.indexOf(' // ');
  return k >= 0 ? line.slice(k) : '';
}

/** Repository paths named in comments (`src/…`, `test/…`, `scripts/…`, `bench/…`, `conformance/…` with an extension). */
const CITED_PATH = /(?<![\w/.@-])((?:src|test|scripts|bench|conformance)\/[\w./-]*\.(?:ts|mjs|cjs|json|jsonl|md|proto|sql))(?![\w/])/g;
/** `conformance/README.md "A", "B" and "C"`: the quoted headings cited. */
const README_CITATION = /conformance\/README\.md((?:(?:,|;)? ?(?:and )?"[^"]+")+)/g;
/** `docs/ARCHITECTURE.md §N` and the `§M` that follow it in the same list. */
const ARCHITECTURE_CITATION = /docs\/ARCHITECTURE\.md`? ?((?:§\d+(?:\.\d+)?(?:, | and )?)+)/g;
/** Number of sections of docs/ARCHITECTURE.md (§1 The pipeline … §10 Conformance and tests). */
const ARCHITECTURE_SECTIONS = 10;

/** Headings of conformance/README.md, Markdown marks and backticks removed. */
function readmeHeadings(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((l) => /^#{1,4} /.test(l))
    .map((l) => l.replace(/^#+ /, '').replace(/`/g, '').trim());
}

/**
 * In-repo citations in the comments of `text` that do not resolve: a cited path `exists(path)`
 * denies, a conformance/README.md heading not in `headings` (a cited name matches a heading it
 * starts), a docs/ARCHITECTURE.md section outside 1–10.
 */
function findBrokenCitations(file: string, text: string, exists: (p: string) => boolean, headings: string[]): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, i) => {
    const c = commentOf(line);
    const add = (rule: string) => found.push({ file, line: i + 1, rule, text: line.trim() });
    for (const m of c.matchAll(CITED_PATH)) if (!exists(m[1])) add(`cites ${m[1]}, which does not exist`);
    for (const m of c.matchAll(README_CITATION)) {
      for (const q of m[1].matchAll(/"([^"]+)"/g)) {
        if (!headings.some((h) => h.startsWith(q[1]))) add(`cites conformance/README.md "${q[1]}", which is not a heading there`);
      }
    }
    for (const m of c.matchAll(ARCHITECTURE_CITATION)) {
      for (const n of m[1].matchAll(/§(\d+)/g)) {
        const k = Number(n[1]);
        if (k < 1 || k > ARCHITECTURE_SECTIONS) add(`cites docs/ARCHITECTURE.md §${k}, which has §1–§${ARCHITECTURE_SECTIONS}`);
      }
    }
  });
  return found;
}

describe('self-contained repository: no citation of documents outside it', () => {
  it('scans a real tree (src, test, scripts, bench, conformance/*.ts)', () => {
    const files = scannedFiles();
    for (const dir of ['src/', 'test/', 'scripts/', 'bench/', 'conformance/']) {
      expect(files.some((f) => f.startsWith(dir)), dir).toBe(true);
    }
    expect(files.length).toBeGreaterThan(200);
    expect(files.some((f) => f.includes('/generated/'))).toBe(false);
  });

  it('no comment, string or test title cites a design note, contract, ticket or ../shared', () => {
    const findings = scannedFiles().flatMap((f) => findOutsideCitations(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    const listing = findings.map((f) => `${f.file}:${f.line}: ${f.rule}: ${f.text}`).join('\n');
    expect(listing, `cite docs/ARCHITECTURE.md, conformance/README.md, an in-repo file or a public page instead:\n${listing}`).toBe('');
  });

  it('every allowed mention still exists (the allow list cannot go stale)', () => {
    for (const a of ALLOWED) {
      expect(fs.readFileSync(path.join(ROOT, a.file), 'utf8').includes(a.text), `${a.file}: ${a.text}`).toBe(true);
    }
  });

  it('the scanner fails on snippets citing outside documents, with file:line', () => {
    const snippet = [
      '/**',
      ' * Lowers scans (DESIGN §2.5) and reads DESIGN.md.',
      ' * Knobs of contract §4.3 and Contract §6.2, per conformance-and-api-contract.md.',
      ' */',
      "const x = 1; // added for issue 5, deliverable 3",
      "it('sessions (Issue 6)', () => {});",
      "const dir = '../shared/corpus';",
      "const spec = '/work/shared/spec/x.md';",
      '// corpus README note 8',
      '// spec §6.2 tolerances',
      '// fine: docs/ARCHITECTURE.md §4 and https://cloud.google.com/bigquery/docs/reference/rest/v2/Job',
    ].join('\n');
    const found = findOutsideCitations('src/example.ts', snippet);
    expect(found.map((f) => f.line)).toEqual([2, 3, 5, 6, 7, 8, 9, 10]);
    expect(found[0]).toMatchObject({ file: 'src/example.ts', line: 2 });
    expect(found[0].rule).toMatch(/design note/);
    expect(found[2].rule).toMatch(/ticket/);
    expect(found[4].rule).toMatch(/outside the repository/);
  });

  it('every in-repo citation in a comment resolves (paths, conformance/README.md headings, ARCHITECTURE sections)', () => {
    const headings = readmeHeadings(fs.readFileSync(path.join(ROOT, 'conformance/README.md'), 'utf8'));
    const exists = (p: string) => fs.existsSync(path.join(ROOT, p));
    const findings = scannedFiles().flatMap((f) => findBrokenCitations(f, fs.readFileSync(path.join(ROOT, f), 'utf8'), exists, headings));
    const listing = findings.map((f) => `${f.file}:${f.line}: ${f.rule}`).join('\n');
    expect(listing, `broken in-repo citations:\n${listing}`).toBe('');
  });

  it('the citation checker fails on snippets with broken in-repo citations, with file:line', () => {
    const snippet = [
      '/**',
      ' * Lives in src/scripting/session-state.ts (moved) beside src/engine/engine.ts (exists).',
      ' * Compared under conformance/README.md "Tolerances" and "No such heading".',
      ' * Flow: docs/ARCHITECTURE.md §3, §11.',
      ' */',
      "const p = 'src/nowhere.ts'; // code strings are not citations: see test/missing.test.ts",
    ].join('\n');
    const exists = (p: string) => p === 'src/engine/engine.ts' || p === 'conformance/README.md';
    const found = findBrokenCitations('src/example.ts', snippet, exists, ['Tolerances', 'Running: bqemu corpus run']);
    expect(found.map((f) => [f.line, f.rule])).toEqual([
      [2, 'cites src/scripting/session-state.ts, which does not exist'],
      [3, 'cites conformance/README.md "No such heading", which is not a heading there'],
      [4, 'cites docs/ARCHITECTURE.md §11, which has §1–§10'],
      [6, 'cites test/missing.test.ts, which does not exist'],
    ]);
    expect(findBrokenCitations('x.ts', '// see conformance/README.md "Running"', exists, ['Running: bqemu corpus run'])).toEqual([]);
  });

  it('an allowed default is allowed only in its own file', () => {
    const line = "export const DEFAULT_CORPUS = resolve(REPO_ROOT, '../shared/corpus');";
    expect(findOutsideCitations('conformance/import.ts', line)).toEqual([]);
    expect(findOutsideCitations('src/other.ts', line)).toHaveLength(1);
  });
});
