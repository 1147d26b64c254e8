/**
 * Authored fixtures from GoogleSQL's documented behaviour: writes
 * `conformance/fixtures/docs_functions/<name>/` — `query.sql`, `expected.json`, `provenance.json` —
 * from the worked examples of the GoogleSQL reference (google/zetasql `docs/*.md`, rev 2d8f7b7; the
 * same examples appear in BigQuery's reference), as collected in
 * `conformance/docs-examples/visible.jsonl` (a verbatim copy; conformance/README.md).
 *
 *   npx tsx conformance/author-docs.ts [--cases FILE] [--dest DIR] [--check]
 *
 * Every case (conformance/author-docs-specs.ts) was chosen and reviewed by hand: a self-contained,
 * deterministic example (no flag set in the corpus), a single result row or an ORDER BY that fixes the row order (no ties
 * among distinct rows), no default-time-zone assumption, no float printed with fewer digits than
 * the 1e-12 tolerance needs, and a function BigQuery documents. The query is copied verbatim. The
 * column types come from the functions' documented return types and are written there, per case;
 * the cell values come from the documented result table, converted from the docs' display style
 * into the recorded form of `expected.json` (conformance/README.md "Recording notes" 2: the Python
 * client's decoded form — INT64/FLOAT64 as JSON numbers, NUMERIC as strings, DATE `YYYY-MM-DD`,
 * DATETIME `YYYY-MM-DDTHH:MM:SS[.ffffff]`, TIMESTAMP `…+00:00`, BYTES base64, INTERVAL as
 * `relativedelta(…)` text, RANGE as `{start, end}`, ARRAY as lists, STRUCT as objects). Where the
 * display form needs interpretation the case carries explicit `rows` (and says why in its note).
 * Nothing here is taken from the emulator's output.
 *
 * `expected.json` is fixture_version 2 with a `bigquery` block of project `authored`, no job id
 * (`job_id: null`: not a recording), location US and zero bytes. Re-running rewrites the files
 * (idempotent); `--check` writes nothing and exits 1 when a file would change.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPECS, type Spec, type Val } from './author-docs-specs.js';
import { convert, parseType, schemaField, stringify } from './author-docs-values.js';

export { SPECS } from './author-docs-specs.js';
export { bytesDisplayToBase64, convert, intervalToRelativedelta, parseType, stringify } from './author-docs-values.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_CASES = resolve(HERE, 'docs-examples/visible.jsonl');
const DEFAULT_DEST = resolve(HERE, 'fixtures/docs_functions');
const REV = '2d8f7b7';

/** One line of visible.jsonl (the fields used here). */
interface DocCase {
  id: string;
  doc: string;
  section: string;
  line: number;
  query: string;
  kind: string;
  columns: string[] | null;
  rows: string[][] | null;
  ordered: boolean;
  flags: Record<string, boolean | undefined>;
  headerless?: boolean;
  marked_bad?: boolean;
  truncated?: boolean;
}

function cloudPage(doc: string): string {
  return `https://cloud.google.com/bigquery/docs/reference/standard-sql/${doc.replace(/\.md$/, '')}`;
}

interface Built {
  name: string;
  files: Record<string, string>;
}

export function build(spec: Spec, c: DocCase): Built {
  if (c.kind !== 'result') throw new Error(`${spec.id}: not a result case`);
  const bad = Object.entries(c.flags).filter(([, v]) => v).map(([k]) => k);
  if (bad.length) throw new Error(`${spec.id}: flags set: ${bad.join(', ')}`);
  if (c.headerless || c.marked_bad || c.truncated) throw new Error(`${spec.id}: headerless/marked_bad/truncated`);
  const columns = c.columns ?? [];
  const docRows = c.rows ?? [];
  if (!c.ordered && docRows.length > 1) throw new Error(`${spec.id}: unordered multi-row result`);
  if (c.ordered && !/\border\s+by\b/i.test(c.query)) throw new Error(`${spec.id}: ordered without ORDER BY`);
  if (spec.types.length !== columns.length) throw new Error(`${spec.id}: ${spec.types.length} types for ${columns.length} columns`);
  if (new Set(columns).size !== columns.length) throw new Error(`${spec.id}: duplicate column names`);
  const tys = spec.types.map(parseType);
  const schema = columns.map((name, i) => schemaField(name, tys[i]!));
  const rows: Record<string, Val>[] =
    spec.rows ??
    docRows.map((r, ri) => {
      if (r.length !== columns.length) throw new Error(`${spec.id}: row ${ri} has ${r.length} cells`);
      const o: Record<string, Val> = {};
      columns.forEach((name, i) => {
        try {
          o[name] = convert(tys[i]!, r[i]!);
        } catch (e) {
          throw new Error(`${spec.id}: row ${ri} ${name}: ${(e as Error).message}`);
        }
      });
      return o;
    });
  if (spec.rows && spec.rows.length !== docRows.length) throw new Error(`${spec.id}: explicit rows ${spec.rows.length} vs documented ${docRows.length}`);
  const expected = {
    fixture_version: 2,
    bigquery: { project: 'authored', job_id: null, location: 'US', total_bytes_processed: 0, total_bytes_billed: 0 },
    schema,
    rows,
    row_count: rows.length,
  };
  const provenance = {
    source: 'authored',
    cites: [`google/zetasql docs/${c.doc} rev ${REV} line ${c.line} (${c.section})`, spec.page ?? cloudPage(c.doc)],
    note:
      `GoogleSQL documentation example ${c.id} (shared/corpus/docs-examples): query verbatim; expected values are the documented result ` +
      `converted to the recorded form, types from the documented return types.${spec.note ? ` ${spec.note}` : ''}`,
  };
  return {
    name: spec.name,
    files: {
      'query.sql': c.query.endsWith('\n') ? c.query : `${c.query}\n`,
      'expected.json': `${stringify(expected)}\n`,
      'provenance.json': `${stringify(provenance)}\n`,
    },
  };
}

function main(argv: string[]): number {
  const arg = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const casesFile = resolve(arg('--cases') ?? DEFAULT_CASES);
  const dest = resolve(arg('--dest') ?? DEFAULT_DEST);
  const check = argv.includes('--check');
  const cases = new Map<string, DocCase>();
  for (const line of readFileSync(casesFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const c = JSON.parse(line) as DocCase;
    cases.set(c.id, c);
  }
  const names = new Set<string>();
  let changed = 0;
  let problems = 0;
  for (const spec of SPECS) {
    const c = cases.get(spec.id);
    if (!c) {
      console.error(`missing docs case ${spec.id}`);
      problems++;
      continue;
    }
    if (names.has(spec.name)) throw new Error(`duplicate fixture name ${spec.name}`);
    names.add(spec.name);
    let built: Built;
    try {
      built = build(spec, c);
    } catch (e) {
      console.error((e as Error).message);
      problems++;
      continue;
    }
    const dir = join(dest, built.name);
    for (const [file, text] of Object.entries(built.files)) {
      const p = join(dir, file);
      const same = existsSync(p) && readFileSync(p, 'utf8') === text;
      if (same) continue;
      changed++;
      if (check) {
        console.error(`would change: ${p}`);
        continue;
      }
      mkdirSync(dir, { recursive: true });
      writeFileSync(p, text);
    }
  }
  console.log(`${SPECS.length} cases, ${SPECS.length - problems} built, ${changed} file(s) ${check ? 'would change' : 'written'}, ${problems} problem(s)`);
  return problems > 0 || (check && changed > 0) ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
