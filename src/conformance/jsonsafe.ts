/**
 * Big-int-safe JSON reading for corpus files.
 *
 * The recorded `expected.json` files carry INT64 values beyond 2^53 as bare JSON numbers and, in a
 * few FLOAT64 fixtures, the non-standard bare tokens `NaN`, `Infinity` and `-Infinity` (Python's
 * `json` module writes them). `JSON.parse` would round the former and reject the latter.
 */
import { parse as losslessParse, isLosslessNumber, type LosslessNumber } from 'lossless-json';

/** A JSON value as read by {@link parseJsonSafe}: integers outside the safe range become `bigint`. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

const SENTINEL = '\u0000bqemu-nonfinite:';
const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };

function isIdentChar(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9_$]/.test(ch);
}

/** Replace bare NaN / Infinity / -Infinity tokens that stand outside string literals by sentinel strings. */
function quoteNonFiniteTokens(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') {
        out += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (ch === '"') inString = false;
      i++;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      i++;
      continue;
    }
    let matched: string | undefined;
    for (const token of ['-Infinity', 'Infinity', 'NaN']) {
      if (text.startsWith(token, i) && !isIdentChar(text[i - 1]) && !isIdentChar(text[i + token.length])) {
        matched = token;
        break;
      }
    }
    if (matched !== undefined) {
      out += JSON.stringify(SENTINEL + matched);
      i += matched.length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** Number parser: exact `bigint` for integers beyond 2^53, plain `number` otherwise. */
function parseNumberToken(token: string): number | bigint {
  if (/^-?\d+$/.test(token)) {
    const n = Number(token);
    return Number.isSafeInteger(n) ? n : BigInt(token);
  }
  return Number(token);
}

/**
 * Parse JSON text big-int-safely (conformance/README.md "expected.json", conformance/README.md
 * "Recording notes" 2): integers outside ±(2^53−1) come back as `bigint`, bare
 * `NaN`/`Infinity`/`-Infinity` tokens as the numbers. Throws `SyntaxError` on malformed input.
 */
export function parseJsonSafe(text: string): JsonValue {
  const prepared = quoteNonFiniteTokens(text);
  return losslessParse(
    prepared,
    (_key, value) => {
      if (typeof value === 'string' && value.startsWith(SENTINEL)) return NON_FINITE[value.slice(SENTINEL.length)] ?? value;
      return value;
    },
    parseNumberToken,
  ) as JsonValue;
}

/**
 * Parse JSON keeping every number's source text (as a `LosslessNumber`), for value comparison of
 * JSON-typed cells where `3` must equal `3.0` and big integers must not be rounded
 * (conformance/README.md "Tolerances").
 */
export function parseJsonLossless(text: string): unknown {
  return losslessParse(text);
}

export { isLosslessNumber, type LosslessNumber };

/** `JSON.stringify` that writes `bigint` as a bare integer (used for request bodies and reports). */
export function stringifyJson(value: unknown, indent?: number): string {
  const marker = '__bqemu_bigint__:';
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? marker + v.toString() : v), indent);
  return text === undefined ? 'undefined' : text.replace(/"__bqemu_bigint__:(-?\d+)"/g, '$1');
}
