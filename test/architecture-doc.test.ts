/**
 * docs/ARCHITECTURE.md names files of the repository in backquotes (`src/…`, `test/…`, `scripts/…`);
 * every one of them must exist, so the document cannot silently drift from the tree. A path with a
 * `*` must match at least one file. The second case proves the check fails on a made-up path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = path.join(ROOT, 'docs', 'ARCHITECTURE.md');

/** Every `src/…`, `test/…` or `scripts/…` path inside an inline code span (fenced blocks are not read). */
function pathsInDoc(markdown: string): string[] {
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');
  const out = new Set<string>();
  for (const span of codeSpans(text)) {
    for (const m of span.matchAll(/(?:^|[\s(])((?:src|test|scripts)\/[^\s`,;()]*)/g)) out.add(m[1].replace(/[.:]$/, ''));
  }
  return [...out];
}

/**
 * The inline code spans of markdown text, as CommonMark reads them: a run of n backquotes opens a
 * span that the next run of exactly n backquotes closes (so ``` `` `p`.d.t `` ``` is one span).
 */
function codeSpans(text: string): string[] {
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ at: m.index, len: m[0].length }));
  const spans: string[] = [];
  for (let i = 0; i < runs.length; i++) {
    const close = runs.findIndex((r, j) => j > i && r.len === runs[i].len);
    if (close < 0) continue; // an unmatched run is literal text
    spans.push(text.slice(runs[i].at + runs[i].len, runs[close].at));
    i = close;
  }
  return spans;
}

/** Every file under `dir`, as paths relative to the repository root with `/` separators. */
function filesUnder(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true }) as string[]).map((f) => `${dir}/${f.split(path.sep).join('/')}`);
}

/** A glob (`*` within a segment, `**` across segments) as a regular expression. */
function globRegExp(glob: string): RegExp {
  const re = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${re}$`);
}

/** The named paths that do not exist (a glob: that matches no file). */
function missingPaths(paths: string[]): string[] {
  return paths.filter((p) => {
    if (!p.includes('*')) return !fs.existsSync(path.join(ROOT, p));
    const re = globRegExp(p);
    return !filesUnder(p.split('/')[0]).some((f) => re.test(f));
  });
}

describe('docs/ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const paths = pathsInDoc(fs.readFileSync(DOC, 'utf8'));
    // The document walks the code file by file: far more than a handful of paths.
    expect(paths.length).toBeGreaterThan(100);
    expect(paths).toContain('src/server/rest/jobs.ts');
    expect(paths).toContain('test/lowering/*.golden.sql');
    expect(missingPaths(paths)).toEqual([]);
  });

  it('keeps the numbered section headings other files cite as "docs/ARCHITECTURE.md §N"', () => {
    const headings = fs.readFileSync(DOC, 'utf8').match(/^## \d+\. .*$/gm) ?? [];
    expect(headings.map((h) => h.replace(/ —.*$/, ''))).toEqual([
      '## 1. The pipeline',
      '## 2. Layers',
      '## 3. One jobs.query request, file by file',
      '## 4. BigQuery semantics DuckDB gets wrong',
      '## 5. Wire rules (REST)',
      '## 6. Robustness and security rules',
      '## 7. How the real clients connect',
      '## 8. Measured facts',
      '## 9. How to add things',
      '## 10. Conformance and tests',
    ]);
  });

  it('fails on a made-up path, plain or glob, and ignores fenced blocks', () => {
    const doc = [
      'Real: `src/server/rest/jobs.ts`, `(see test/helpers/emulator.ts)`, `src/functions/*.test.ts`.',
      'Made up: `src/engine/no-such-module.ts`, `test/nowhere/*.golden.sql`, `scripts/missing.ts`.',
      '```',
      'src/inside-a-fence-is-not-read.ts `src/not-read-either.ts`',
      '```',
    ].join('\n');
    const paths = pathsInDoc(doc);
    expect(paths).toEqual([
      'src/server/rest/jobs.ts',
      'test/helpers/emulator.ts',
      'src/functions/*.test.ts',
      'src/engine/no-such-module.ts',
      'test/nowhere/*.golden.sql',
      'scripts/missing.ts',
    ]);
    expect(missingPaths(paths)).toEqual(['src/engine/no-such-module.ts', 'test/nowhere/*.golden.sql', 'scripts/missing.ts']);
  });
});
