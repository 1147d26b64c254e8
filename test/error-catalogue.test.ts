/**
 * The error catalogue (src/errors/) is the one place errors are constructed: this scans every
 * source file outside it (tests excluded) and fails, listing file:line, on
 * - `new BigQueryError(` (or `new` of the class under an alias, or a subclass) — construction
 *   outside the catalogue;
 * - an ErrorProto written as an object literal with a BigQuery reason (`{ reason: 'invalid', … }`);
 * - a catalogued message family's text written at a call site (`Required parameter is missing`,
 *   `Already Exists:`, `Not found:`, `Access Denied:`, `… not supported by bqemu`, …) instead of
 *   the family's factory;
 * - a reason-level factory (src/errors/reasons.ts: `BigQueryError.invalid(…)`, `.invalidQuery(…)`,
 *   …) given a literal text — those take texts that come from elsewhere (the analyzer, DuckDB, a
 *   family factory); a new message gets its own factory in src/errors/;
 * - a local error helper: a function that passes its own parameter as the text of a reason-level
 *   factory (what the three local `notSupported` helpers were).
 * The scanner itself is tested on snippets that must fail, so the check cannot pass vacuously.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASON_STATUS } from '../src/errors/index.js';
import { BigQueryError } from '../src/errors/bigquery-error.js';

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
 * The first argument of the call whose `(` is at `open`: its text, and whether a string or
 * template literal stands at its top level (not inside a nested call or bracket).
 */
function firstArgument(src: string, open: number): { text: string; literal: boolean } {
  let depth = 0;
  let literal = false;
  let i = open + 1;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === "'" || c === '"' || c === '`') {
      if (depth === 0) literal = true;
      let braces = 0;
      for (i++; i < src.length; i++) {
        if (src[i] === '\\') i++;
        else if (c === '`' && src[i] === '$' && src[i + 1] === '{') (braces++, i++);
        else if (c === '`' && src[i] === '}' && braces > 0) braces--;
        else if (src[i] === c && braces === 0) break;
      }
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) break;
  }
  return { text: src.slice(open + 1, i).trim(), literal };
}

/** Scans one source file's text; `file` names it in the answer. */
function scan(file: string, source: string): Violation[] {
  const src = stripComments(source);
  const violations: Violation[] = [];
  const at = (rule: string, index: number) =>
    violations.push({ file, line: lineOf(src, index), rule, text: source.split('\n')[lineOf(src, index) - 1].trim().slice(0, 160) });

  // Names the catalogue's class and reason factories go by in this file.
  const classNames = new Set(['BigQueryError']);
  const factoryCalls: string[] = [String.raw`\bBigQueryError\.(?:${REASON_FACTORIES.join('|')})\(`];
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
    for (const m of src.matchAll(new RegExp(String.raw`\b${name}\.\w+\(`, 'g'))) {
      const arg = firstArgument(src, m.index! + m[0].length - 1);
      const text = arg.text.replace(/^['"`]/, '');
      for (const fam of FAMILY_TEXTS) if (arg.literal && fam.text.test(text)) at(`family text outside the catalogue (use ${fam.factory})`, m.index!);
    }
  }
  const reasons = Object.keys(REASON_STATUS).join('|');
  for (const m of src.matchAll(new RegExp(String.raw`\breason:\s*['"](${reasons})['"]`, 'g'))) at('an ErrorProto literal outside src/errors/', m.index!);
  for (const call of factoryCalls) {
    for (const m of src.matchAll(new RegExp(call, 'g'))) {
      const arg = firstArgument(src, m.index! + m[0].length - 1);
      if (arg.literal) at('inline error text (give the message a factory in src/errors/)', m.index!);
    }
    // A local helper passing its own parameter on as the text: `function f(what: string) { return BigQueryError.invalid(what`
    // or `const f = (what: string) => BigQueryError.invalid(what`.
    const helper = new RegExp(String.raw`(?:function\s+\w+\s*\(([^)]*)\)[^{;]*\{\s*(?:return|throw)\s+|\(([^)]*)\)\s*(?::\s*[\w<>[\]| ]+)?\s*=>\s*\{?\s*(?:return\s+|throw\s+)?)(?:new\s+\w+\(\s*)?` + call + String.raw`\s*(\w+)\s*[,)]`, 'g');
    for (const m of src.matchAll(helper)) {
      const params = (m[1] ?? m[2] ?? '').split(',').map((p) => p.trim().split(/[?:\s=]/)[0]);
      if (params.includes(m[3])) at('a local error helper (move it into src/errors/)', m.index!);
    }
  }
  return violations;
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
  const files = sourceFiles();
  const violations = files.flatMap((f) => scan(f, fs.readFileSync(f, 'utf8')));

  it('scans the source tree', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('no error is constructed, and no error text written, outside src/errors/', () => {
    expect(violations, show(violations)).toEqual([]);
  });

  describe('the scanner fails on what it forbids', () => {
    const rules = (snippet: string) => scan('snippet.ts', snippet).map((v) => ({ line: v.line, rule: v.rule.split(' (')[0] }));

    it('new BigQueryError, also under an alias, and a subclass', () => {
      expect(rules(`throw new BigQueryError('invalid', 'x');`)).toEqual([{ line: 1, rule: 'an error constructed outside src/errors/' }]);
      const aliased = `import { BigQueryError as E } from '../errors/errors.js';\n\nthrow new E('invalid', 'x');`;
      expect(scan('snippet.ts', aliased)).toMatchObject([{ file: 'snippet.ts', line: 3, rule: 'an error constructed outside src/errors/' }]);
      expect(rules(`class Mine extends BigQueryError {}`)).toHaveLength(1);
    });

    it('an ErrorProto object literal with a reason', () => {
      expect(rules(`errors.push({ reason: 'invalid', message: m });`)).toEqual([{ line: 1, rule: 'an ErrorProto literal outside src/errors/' }]);
      expect(rules(`errors.push({ reason: r.reason, message: m });`)).toEqual([]);
    });

    it('a catalogued family text at a call site, on any factory', () => {
      expect(rules('throw BigQueryError.invalid(`Required parameter is missing: ${f}`, f);')).toContainEqual({ line: 1, rule: 'family text outside the catalogue' });
      expect(rules('throw BigQueryError.duplicate(`Already Exists: Table ${n}`);')).toContainEqual({ line: 1, rule: 'family text outside the catalogue' });
      expect(rules(`throw BigQueryError.notFound(\n  'Not found: Table p:d.t');`)).toContainEqual({ line: 1, rule: 'family text outside the catalogue' });
      expect(rules(`throw BigQueryError.somethingNew('MERGE is not supported by bqemu');`)).toEqual([{ line: 1, rule: 'family text outside the catalogue' }]);
      expect(rules(`throw BigQueryError.alreadyExists('Table', name);`)).toEqual([]);
    });

    it('a reason-level factory with a literal text, whatever it is imported as, wherever the literal stands', () => {
      expect(rules(`throw BigQueryError.invalidQuery('Transaction is already in progress');`)).toEqual([{ line: 1, rule: 'inline error text' }]);
      expect(rules(`import { invalid as bad } from '../errors/index.js';\nthrow bad(\`x \${y}\`);`)).toEqual([{ line: 2, rule: 'inline error text' }]);
      expect(rules(`throw BigQueryError.invalid(t ? \`Invalid value for t: \${t}\` : 'T is required.', 't');`)).toEqual([{ line: 1, rule: 'inline error text' }]);
      expect(rules(`throw BigQueryError.runtime('Array cannot have a null element ' + name);`)).toEqual([{ line: 1, rule: 'inline error text' }]);
      expect(rules(`throw BigQueryError.invalidQuery(analyzerMessage);`)).toEqual([]);
      expect(rules(`return BigQueryError.runtime(msg.replace(/^[A-Za-z ]+ Error: /, ''));`)).toEqual([]);
      expect(rules(`throw BigQueryError.invalid(e.message, 'rows');`)).toEqual([]);
    });

    it('a local helper passing its parameter on as the text', () => {
      expect(rules(`const notSupported = (what: string) => BigQueryError.invalid(what);`)).toEqual([{ line: 1, rule: 'a local error helper' }]);
      expect(rules(`function badType(what: string, location?: string): BigQueryError {\n  return BigQueryError.invalid(what, location);\n}`)).toEqual([{ line: 1, rule: 'a local error helper' }]);
      expect(rules(`function wrap(e: unknown): BigQueryError {\n  return BigQueryError.invalid(String(e));\n}`)).toEqual([]);
    });

    it('ignores comments, and strings that only look like comments', () => {
      expect(rules(`// throw new BigQueryError('invalid', 'x');\n/* { reason: 'invalid' } */`)).toEqual([]);
      expect(rules(`const u = 'gs://b/*';\nthrow new BigQueryError('invalid', u); // */`)).toEqual([{ line: 2, rule: 'an error constructed outside src/errors/' }]);
    });
  });
});

describe('stack traces', () => {
  it('a client mistake (4xx) captures none; a server-side error (5xx) keeps its stack', () => {
    const client = new BigQueryError('invalid', 'bad request');
    expect(client.stack).toBe('Error: bad request');
    const server = new BigQueryError('backendError', 'internal');
    expect(server.stack?.split('\n').length).toBeGreaterThan(1);
    expect(Error.stackTraceLimit).toBeGreaterThan(0); // restored
  });
});
