/**
 * BigQuery's text analyzers, as its Text analysis page describes them
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/text-analysis): the JavaScript
 * side of TEXT_ANALYZE (src/functions/text-analysis.ts).
 *
 * - `NO_OP_ANALYZER`: the whole text is one term, untouched; it takes no options.
 * - `LOG_ANALYZER` (the default): the text is cut at every delimiter (the longest delimiter matching
 *   at a position wins, so `%21` before `%`), delimiters are dropped and so are empty terms; the
 *   default delimiters are the page's list (`\s` being the space); a term keeps no surrounding white
 *   space (the page's `delimiters` example). Option `delimiters`: a JSON array
 *   of ASCII strings of at most 16 characters replacing that list.
 * - `PATTERN_ANALYZER`: the terms are the successive matches of a regular expression, searched from
 *   the end of the previous match (an empty match moves on one character); default `\b\w{2,}\b`
 *   (ASCII word characters, as in RE2). Option `patterns`: a JSON array holding one expression.
 * - Token filters (option `token_filters`, both tokenizing analyzers), applied in order: `normalizer`
 *   with `mode` NONE, LOWER (ASCII), UNICODE_LOWER, or ICU_NORMALIZE (`icu_normalize_mode` NFC, NFKC
 *   (default), NFD or NFKD, then `icu_case_folding`, default true); `stop_words` removing terms.
 *   Without `token_filters` the terms are ASCII lowercased.
 * Errors are thrown as `TextAnalyzerError` with the option at fault.
 */

/** An invalid analyzer name or option (the caller turns it into the query's error). */
export class TextAnalyzerError extends Error {}

/** LOG_ANALYZER's default delimiters (the page's list; `\s` is the space). */
const LOG_DELIMITERS = [
  '[', ']', '<', '>', '(', ')', '{', '}', '|', '!', ';', ',', "'", '"', '*', '&', '?', '+', '/', ':', '=', '@', '.', '-', '$', '%', '\\', '_',
  '\n', '\r', ' ', '\t', '%21', '%26', '%2526', '%3B', '%3b', '%7C', '%7c', '%20', '%2B', '%2b', '%3D', '%3d', '%2520', '%5D', '%5d',
  '%5B', '%5b', '%3A', '%3a', '%0A', '%0a', '%2C', '%2c', '%28', '%29',
];

const DEFAULT_PATTERN = '\\b\\w{2,}\\b';

/** NFKC/NFC/NFD/NFKD normalization followed, when asked, by case folding (NORMALIZE_AND_CASEFOLD's rule). */
function icuNormalize(s: string, mode: string, fold: boolean): string {
  const f = mode as 'NFC';
  const n = s.normalize(f);
  return fold ? n.toUpperCase().toLowerCase().normalize(f) : n;
}

const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (ch) => ch.toLowerCase());

type Filter = (terms: string[]) => string[];

function normalizerFilter(spec: unknown): Filter {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new TextAnalyzerError('normalizer must be a JSON object');
  const o = spec as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['mode', 'icu_normalize_mode', 'icu_case_folding'].includes(k)) throw new TextAnalyzerError(`Unknown normalizer option: ${k}`);
  const mode = o.mode ?? 'LOWER';
  if (mode === 'NONE') return (t) => t;
  if (mode === 'LOWER') return (t) => t.map(asciiLower);
  if (mode === 'UNICODE_LOWER') return (t) => t.map((s) => s.toLowerCase());
  if (mode !== 'ICU_NORMALIZE') throw new TextAnalyzerError(`Invalid normalizer mode: ${String(mode)}`);
  const nf = o.icu_normalize_mode ?? 'NFKC';
  if (typeof nf !== 'string' || !['NFC', 'NFKC', 'NFD', 'NFKD'].includes(nf)) throw new TextAnalyzerError(`Invalid icu_normalize_mode: ${String(nf)}`);
  const fold = o.icu_case_folding ?? true;
  if (typeof fold !== 'boolean') throw new TextAnalyzerError('icu_case_folding must be a JSON boolean');
  return (t) => t.map((s) => icuNormalize(s, nf, fold));
}

function tokenFilters(spec: unknown): Filter[] {
  if (!Array.isArray(spec)) throw new TextAnalyzerError('token_filters must be a JSON array');
  return spec.map((f) => {
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw new TextAnalyzerError('A token filter must be a JSON object');
    const o = f as Record<string, unknown>;
    if ('normalizer' in o) return normalizerFilter(o.normalizer);
    if ('stop_words' in o) {
      const words = o.stop_words;
      if (!Array.isArray(words) || !words.length || words.some((w) => typeof w !== 'string')) throw new TextAnalyzerError('stop_words must be a non-empty JSON array of strings');
      const stop = new Set(words as string[]);
      return (t) => t.filter((s) => !stop.has(s));
    }
    throw new TextAnalyzerError(`Unknown token filter: ${Object.keys(o).join(', ')}`);
  });
}

function splitAtDelimiters(text: string, delimiters: readonly string[]): string[] {
  const byLength = [...delimiters].sort((a, b) => b.length - a.length);
  const terms: string[] = [];
  let cur = '';
  // A term keeps no surrounding white space (the page's `delimiters` example: ' you like' → 'you like').
  const push = () => {
    const t = cur.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
    if (t) terms.push(t);
    cur = '';
  };
  for (let i = 0; i < text.length; ) {
    const d = byLength.find((x) => x.length && text.startsWith(x, i));
    if (d) {
      push();
      i += d.length;
    } else {
      cur += text[i];
      i += 1;
    }
  }
  push();
  return terms;
}

function patternTerms(text: string, pattern: string): string[] {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'g');
  } catch {
    throw new TextAnalyzerError(`Invalid regular expression in patterns: ${pattern}`);
  }
  const terms: string[] = [];
  for (const m of text.matchAll(re)) if (m[0]) terms.push(m[0]);
  return terms;
}

/**
 * The terms of `text` under `analyzer` (LOG_ANALYZER, NO_OP_ANALYZER, PATTERN_ANALYZER) and the
 * JSON `options` (null: none).
 * @throws TextAnalyzerError for an unknown analyzer, options that are not JSON, an option the
 *   analyzer does not take, or an invalid option value
 */
export function analyzeText(text: string, analyzer: string, options: string | null): string[] {
  let o: Record<string, unknown> = {};
  if (options !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(options);
    } catch {
      throw new TextAnalyzerError(`Invalid analyzer_options: ${options}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TextAnalyzerError('analyzer_options must be a JSON object');
    o = parsed as Record<string, unknown>;
  }
  const allowed = analyzer === 'LOG_ANALYZER' ? ['delimiters', 'token_filters'] : analyzer === 'PATTERN_ANALYZER' ? ['patterns', 'token_filters'] : [];
  if (!['LOG_ANALYZER', 'PATTERN_ANALYZER', 'NO_OP_ANALYZER'].includes(analyzer)) throw new TextAnalyzerError(`Invalid analyzer: ${analyzer}`);
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw new TextAnalyzerError(`${analyzer} does not support the analyzer option ${k}`);
  if (analyzer === 'NO_OP_ANALYZER') return [text];
  let terms: string[];
  if (analyzer === 'LOG_ANALYZER') {
    let delimiters = LOG_DELIMITERS;
    if ('delimiters' in o) {
      const d = o.delimiters;
      if (!Array.isArray(d) || d.some((x) => typeof x !== 'string' || x.length > 16 || !/^[\x00-\x7f]*$/.test(x)))
        throw new TextAnalyzerError('delimiters must be a JSON array of ASCII strings of at most 16 characters');
      delimiters = d as string[];
    }
    terms = splitAtDelimiters(text, delimiters);
  } else {
    let pattern = DEFAULT_PATTERN;
    if ('patterns' in o) {
      const p = o.patterns;
      if (!Array.isArray(p) || p.length !== 1 || typeof p[0] !== 'string') throw new TextAnalyzerError('patterns must be a JSON array holding one string');
      pattern = p[0];
    }
    terms = patternTerms(text, pattern);
  }
  const filters = 'token_filters' in o ? tokenFilters(o.token_filters) : [normalizerFilter({ mode: 'LOWER' })];
  for (const f of filters) terms = f(terms);
  return terms;
}
