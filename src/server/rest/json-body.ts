/**
 * JSON request bodies: parsed only after a linear, non-recursive scan has checked their nesting
 * depth, so a pathological body (a 5,000-deep array as a label value) is a 400 before
 * `JSON.parse`, the validator or any recursive handler sees it — and can never be stored.
 */
import { BigQueryError } from '../../errors/errors.js';
import { MAX_JSON_DEPTH } from '../../config/request-limits.js';
import { yieldIfLongText } from '../../config/limits.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * When `text` nests deeper than `maxDepth` arrays/objects: the last object key read before the
 * limit was passed (`''` if none); `undefined` when the text stays within the limit. One pass over
 * the characters, strings skipped; malformed JSON is left to `JSON.parse`.
 */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let key = '';
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      // The closing quote: the next '"' not escaped by an odd run of backslashes.
      i = text.indexOf('"', start);
      while (i > 0) {
        let b = 0;
        while (text.charCodeAt(i - 1 - b) === BACKSLASH) b++;
        if (b % 2 === 0) break;
        i = text.indexOf('"', i + 1);
      }
      if (i < 0) return undefined;
      // A string followed by ':' is an object key: remember the latest one for the error text.
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (j < n && text.charCodeAt(j) === COLON) key = text.slice(start, Math.min(i, start + 100));
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return key;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return undefined;
}

/**
 * Parses a JSON request body (an empty body is `{}`).
 * @throws BigQueryError 400 invalid `Invalid JSON payload received. Message too deep. Max
 *   recursion depth reached for key '…'` past {@link MAX_JSON_DEPTH} levels (the protobuf JSON
 *   parser's wording and limit), or `Invalid JSON payload received. <complaint>` with the
 *   excerpt and caret for text that is not JSON.
 */
export function parseJsonBody(body: string): unknown {
  if (!body || !body.trim()) return {};
  checkDepth(body);
  return parseChecked(body);
}

/**
 * {@link parseJsonBody} with a turn of the event loop before each of its two passes over a long
 * body (LONG_TEXT_CHARS or more): joining, depth-scanning and parsing a 10 MB body back to back held
 * the event loop for tens of milliseconds.
 * @throws BigQueryError as parseJsonBody.
 */
export async function parseJsonBodyYielding(body: string): Promise<unknown> {
  if (!body || !body.trim()) return {};
  await yieldIfLongText(body);
  checkDepth(body);
  await yieldIfLongText(body);
  return parseChecked(body);
}

function checkDepth(body: string): void {
  const key = tooDeepAt(body);
  if (key !== undefined) throw BigQueryError.invalidJsonPayload(`Message too deep. Max recursion depth reached for key '${key}'`);
}

function parseChecked(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (e) {
    throw BigQueryError.invalidJsonPayload(syntaxErrorText(body, (e as Error).message));
  }
}

/** V8's JSON.parse complaints → the protobuf JSON parser's wording (Google's front ends). */
const SYNTAX_TEXTS: [RegExp, string][] = [
  [/^Unexpected end of JSON input/, 'Unexpected end of string.'],
  [/^Unterminated string/, 'Closing quote expected in string.'],
  [/^Bad (escaped character|Unicode escape|control character)/, 'Invalid escape sequence.'],
  [/^Expected ':' after property name/, 'Expected : between key:value pair.'],
  [/^Expected ',' or '}' after property value/, 'Expected , or } after key:value pair.'],
  [/^Expected ',' or ']' after array element/, 'Expected , or ] after array value.'],
  [/^Expected (double-quoted )?property name/, 'Expected an object key or }.'],
  [/^Unexpected non-whitespace character after JSON/, 'Parsing terminated before end of input.'],
];

/**
 * The front end's text for JSON that does not parse: the complaint, then the line of input around
 * the error and a caret under it, e.g. `Expected , or } after key:value pair.\n{"a": 1 "b": 2}\n        ^`
 * (https://github.com/r-dbi/bigrquery/issues/361 shows the `Invalid JSON payload received.` family).
 */
function syntaxErrorText(body: string, v8Message: string): string {
  const complaint = SYNTAX_TEXTS.find(([re]) => re.test(v8Message))?.[1] ?? 'Unexpected token.';
  const at = /at position (\d+)/.exec(v8Message);
  const pos = at ? Number(at[1]) : v8Message.startsWith('Unexpected end') ? body.length : undefined;
  if (pos === undefined) return complaint;
  const from = Math.max(0, pos - 40);
  const excerpt = body.slice(from, pos + 40).replace(/[\r\n\t]/g, ' ');
  return `${complaint}\n${excerpt}\n${' '.repeat(pos - from)}^`;
}
