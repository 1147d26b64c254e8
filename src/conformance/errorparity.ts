/**
 * Error parity for error-form fixtures (conformance/README.md "Error parity"): reason, location and
 * HTTP status exact, message by regular-expression search with dot matching newline.
 */
import type { ExpectedError } from './fixtures.js';
import { show, type ActualError, type Diff } from './diff.js';

/**
 * Translate a Python `re` pattern to a JavaScript RegExp with dot-all (conformance/README.md "Error
 * parity": search with dot matching newline). Handles named groups, `\A`/`\Z` and leading inline
 * flags.
 */
export function pythonPatternToRegExp(pattern: string): RegExp {
  let src = pattern;
  let flags = 's';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(src);
  if (inline) {
    src = src.slice(inline[0].length);
    if (inline[1]!.includes('i')) flags += 'i';
    if (inline[1]!.includes('m')) flags += 'm';
  }
  src = src
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$(?![\\s\\S])');
  return new RegExp(src, flags);
}

function normLocation(l: string | null | undefined): string | undefined {
  return l === null || l === undefined || l === '' ? undefined : l;
}

/**
 * Error parity (conformance/README.md "Error parity"): reason, location, http_status exact; message
 * by regex search.
 */
export function compareError(expected: ExpectedError, actual: ActualError): Diff[] {
  const diffs: Diff[] = [];
  if (expected.reason !== actual.reason) {
    diffs.push({ kind: 'error-reason', path: 'error.reason', message: `error.reason: expected ${show(expected.reason)}, got ${show(actual.reason)} (message: ${show(actual.message)})`, cause: `error reason ${expected.reason} vs ${actual.reason ?? '<absent>'}` });
  }
  const el = normLocation(expected.location);
  const al = normLocation(actual.location);
  if (el !== al) {
    diffs.push({ kind: 'error-location', path: 'error.location', message: `error.location: expected ${show(el)}, got ${show(al)}`, cause: `error location ${el ?? '<absent>'} vs ${al ?? '<absent>'}` });
  }
  if (expected.http_status !== actual.httpStatus) {
    diffs.push({ kind: 'error-status', path: 'error.http_status', message: `error.http_status: expected ${expected.http_status}, got ${show(actual.httpStatus)}`, cause: `http status ${expected.http_status} vs ${actual.httpStatus ?? '<absent>'}` });
  }
  let re: RegExp | undefined;
  try {
    re = pythonPatternToRegExp(expected.message_pattern);
  } catch (e) {
    diffs.push({ kind: 'error-message', path: 'error.message', message: `message_pattern does not compile: ${(e as Error).message}`, cause: 'uncompilable message_pattern' });
  }
  if (re && !re.test(actual.message)) {
    diffs.push({ kind: 'error-message', path: 'error.message', message: `error.message ${show(actual.message)} does not match /${expected.message_pattern}/ (recorded: ${show(expected.message_sample)})`, cause: `error message (${expected.reason})` });
  }
  return diffs;
}

