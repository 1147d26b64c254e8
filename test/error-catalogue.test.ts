/**
 * The error catalogue (src/errors/) is the one place errors are constructed: this scans every
 * source file outside it (tests excluded) and fails, listing file:line, on
 * - `new BigQueryError(` (or `new` of the class under an alias) — construction outside the catalogue;
 * - an ErrorProto written as an object literal with a BigQuery reason (`{ reason: 'invalid', … }`);
 * - a catalogued message family's text written at a call site (`Required parameter is missing`,
 *   `Already Exists:`, `Not found:`, `Access Denied:`, `Resources exceeded during query execution`,
 *   `… not supported by bqemu`, …) instead of the family's factory;
 * - more reason-level factory calls with a literal text (`BigQueryError.invalid('…')`) than the
 *   ratchet below allows — the remaining inline texts still to move into family factories. Lower
 *   INLINE_TEXT_LIMIT when you move some; the test names every site when it is exceeded.
 * The scanner itself is tested on snippets that must fail, so the check cannot pass vacuously.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASON_STATUS } from '../src/errors/index.js';

/** Reason-level factories of src/errors/reasons.ts (plus forbiddenRequest): free text in, error out. */
const REASON_FACTORIES = ['invalid', 'invalidQuery', 'runtime', 'notFound', 'duplicate', 'internal', 'outOfRange', 'badRequest', 'forbiddenRequest'];

/** Message families that have a factory in the catalogue: their text must not be written elsewhere. */
const FAMILY_TEXTS: { text: RegExp; factory: string }[] = [
  { text: /^Required parameter is missing/, factory: 'requiredParameterMissing' },
  { text: /^Already Exists: /, factory: 'alreadyExists / rowAccessPolicyAlreadyExists' },
  { text: /^Not found: /, factory: 'resourceNotFound / tableNotFound / datasetNotFound / jobNotFound / …' },
  { text: /^Access Denied: /, factory: 'access-denied.ts' },
  { text: /^Resources exceeded during query execution/, factory: 'resources-exceeded.ts' },
  { text: /^Invalid JSON payload received/, factory: 'invalidJsonPayload' },
  { text: /^Request payload size exceeds/, factory: 'requestTooLarge' },
  { text: /^Job execution was cancelled/, factory: 'cancelled' },
  { text: /^Query statement exceeded the statement timeout/, factory: 'statementTimeout' },
  { text: /not supported by bqemu/, factory: 'notSupported' },
];

/**
 * The number of reason-level factory calls with a literal text still in src/ (the messages not yet
 * moved into a family factory). The test fails when there are more; lower it as sites move.
 */
const INLINE_TEXT_LIMIT = 206;

interface Violation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/**
 * Replaces comments with blanks of the same length (keeps offsets and line numbers); strings and
 * template literals (with their `${…}` parts) are kept, so `'gs://b/*'` starts no comment.
 */
function stripComments(src: string): string {
  const out = src.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const stack: string[] = []; // open template literals (`) and `${` code parts inside them ('{')
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const inTemplate = stack[stack.length - 1] === '`';
    if (inTemplate) {
      if (c === '\\') i += 2;
      else if (c === '`') (stack.pop(), i++);
      else if (c === '$' && src[i + 1] === '{') (stack.push('{'), (i += 2));
      else i++;
    } else if (c === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i);
      blank(i, end < 0 ? src.length : end);
      i = end < 0 ? src.length : end;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      blank(i, end < 0 ? src.length : end + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === "'" || c === '"') {
      i++;
      while (i < src.length && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '`') (stack.push('`'), i++);
    else if (c === '{' && stack.length) (stack.push('{'), i++);
    else if (c === '}' && stack[stack.length - 1] === '{') (stack.pop(), i++);
    else i++;
  }
  return out.join('');
}

const lineOf = (src: string, index: number) => src.slice(0, index).split('\n').length;
const quoteStart = String.raw`\s*(['"\x60])`;

/**
 * Scans one source file's text; `file` names it in the answer. Returns the hard violations
 * (construction outside the catalogue, family texts) and the inline-text sites (ratchet).
 */
function scan(file: string, source: string): { violations: Violation[]; inline: Violation[] } {
  const src = stripComments(source);
  const violations: Violation[] = [];
  const inline: Violation[] = [];
  const at = (rule: string, index: number, list = violations) =>
    list.push({ file, line: lineOf(src, index), rule, text: source.split('\n')[lineOf(src, index) - 1].trim().slice(0, 160) });

  // Names the catalogue's class and reason factories go by in this file.
  const classNames = new Set(['BigQueryError']);
  const factoryCalls: string[] = REASON_FACTORIES.map((f) => String.raw`\bBigQueryError\.${f}\(`);
  for (const imp of src.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"][^'"]*errors\/[^'"]*['"]/g)) {
    for (const spec of imp[1].split(',')) {
      const m = /^\s*(?:type\s+)?(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(spec);
      if (!m) continue;
      const local = m[2] ?? m[1];
      if (m[1] === 'BigQueryError') classNames.add(local);
      if (REASON_FACTORIES.includes(m[1])) factoryCalls.push(String.raw`(?<![\w.])${local}\(`);
    }
  }
  for (const name of classNames) {
    for (const m of src.matchAll(new RegExp(String.raw`\bnew\s+${name}\s*\(|\bextends\s+${name}\b`, 'g'))) at('an error constructed outside src/errors/', m.index!);
    for (const m of src.matchAll(new RegExp(String.raw`\b${name}\.(\w+)\(` + quoteStart, 'g'))) {
      const text = src.slice(m.index! + m[0].length);
      for (const fam of FAMILY_TEXTS) if (fam.text.test(text.slice(0, text.indexOf(m[2]) < 0 ? 200 : text.indexOf(m[2])))) at(`family text outside the catalogue (use ${fam.factory})`, m.index!);
    }
  }
  const reasons = Object.keys(REASON_STATUS).join('|');
  for (const m of src.matchAll(new RegExp(String.raw`\breason:\s*['"](${reasons})['"]`, 'g'))) at('an ErrorProto literal outside src/errors/', m.index!);
  for (const call of factoryCalls) for (const m of src.matchAll(new RegExp(call + quoteStart, 'g'))) at('inline error text', m.index!, inline);
  return { violations, inline };
}

/** Every .ts source under src/ but the catalogue and tests. */
function sourceFiles(dir = 'src'): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== path.join('src', 'errors')) out.push(...sourceFiles(p));
    } else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const show = (v: Violation[]) => v.map((x) => `${x.file}:${x.line} ${x.rule}: ${x.text}`).join('\n');

describe('error catalogue', () => {
  const results = sourceFiles().map((f) => scan(f, fs.readFileSync(f, 'utf8')));
  const violations = results.flatMap((r) => r.violations);
  const inline = results.flatMap((r) => r.inline);

  it('scans the source tree', () => {
    expect(results.length).toBeGreaterThan(100);
  });

  it('no error is constructed outside src/errors/ and no catalogued family text is written elsewhere', () => {
    expect(violations, show(violations)).toEqual([]);
  });

  it(`at most ${INLINE_TEXT_LIMIT} reason-level factory calls with an inline text remain`, () => {
    expect(inline.length, `${inline.length} inline error texts (limit ${INLINE_TEXT_LIMIT}); move new ones into a family factory in src/errors/:\n${show(inline)}`).toBeLessThanOrEqual(INLINE_TEXT_LIMIT);
  });

  describe('the scanner fails on what it forbids', () => {
    const rules = (snippet: string) => scan('snippet.ts', snippet);

    it('new BigQueryError, also under an alias, and a subclass', () => {
      expect(rules(`throw new BigQueryError('invalid', 'x');`).violations.map((v) => v.line)).toEqual([1]);
      const aliased = `import { BigQueryError as E } from '../errors/errors.js';\n\nthrow new E('invalid', 'x');`;
      expect(rules(aliased).violations).toMatchObject([{ file: 'snippet.ts', line: 3, rule: 'an error constructed outside src/errors/' }]);
      expect(rules(`class Mine extends BigQueryError {}`).violations).toHaveLength(1);
    });

    it('an ErrorProto object literal with a reason', () => {
      expect(rules(`errors.push({ reason: 'invalid', message: m });`).violations).toHaveLength(1);
      expect(rules(`errors.push({ reason: r.reason, message: m });`).violations).toHaveLength(0);
    });

    it('a catalogued family text at a call site, on any factory', () => {
      expect(rules('throw BigQueryError.invalid(`Required parameter is missing: ${f}`, f);').violations).toHaveLength(1);
      expect(rules('throw BigQueryError.duplicate(`Already Exists: Table ${n}`);').violations).toHaveLength(1);
      expect(rules(`throw BigQueryError.notFound(\n  'Not found: Table p:d.t');`).violations).toMatchObject([{ line: 1 }]);
      expect(rules(`throw BigQueryError.invalidQuery('MERGE is not supported by bqemu');`).violations).toHaveLength(1);
      expect(rules(`throw BigQueryError.alreadyExists('Table', name);`).violations).toHaveLength(0);
    });

    it('reason-level factories with a literal text count as inline, whatever they are imported as', () => {
      expect(rules(`throw BigQueryError.invalidQuery('Transaction is already in progress');`).inline).toHaveLength(1);
      expect(rules(`import { invalid as bad } from '../errors/index.js';\nthrow bad(\`x \${y}\`);`).inline).toMatchObject([{ line: 2 }]);
      expect(rules(`throw BigQueryError.invalidQuery(analyzerMessage);`).inline).toHaveLength(0);
    });

    it('ignores comments', () => {
      expect(rules(`// throw new BigQueryError('invalid', 'x');\n/* { reason: 'invalid' } */`).violations).toHaveLength(0);
    });
  });
});
