/** Documentation examples: comparing a run with the documented result (docs.ts). */
import { fieldType, renderValue, type DisplayField } from './docs-render.js';
import { cellMatches } from './docs-match.js';
import { normaliseCause } from './report.js';
import type { DocActual, DocCase } from './docs-model.js';

/** A documented error text that only says that an error happens (no message to compare). */
export function genericErrorText(text: string): boolean {
  const t = text.trim();
  if (/^(error|errors?\.?|throws an error\.?|produces an error\.?|returns an error\.?)$/i.test(t)) return true;
  if (/^(an error is (thrown|returned|produced|raised)|this produces an error|this returns an error|this throws an error|throws an error|produces an error)\b(?!\s*:)/i.test(t)) return true;
  return false;
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'are', 'was', 'not', 'this', 'that', 'with', 'error', 'has', 'have', 'can', 'cannot', 'cant', 'but', 'be', 'is', 'in', 'of', 'to', 'an', 'at']);

function words(s: string): string[] {
  return s
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^\p{L}\p{N}_]+/gu, ' ')
    .split(' ')
    .filter((w) => w.length >= 2 && !STOP_WORDS.has(w));
}

/**
 * Loose error-message comparison: the docs quote a fragment (`Error: Unequal array length`).
 * Passes when the normalised fragment is contained in the message, or at least half of its
 * significant words (or two of three or more) appear in it; documented prose that only says an
 * error happens accepts any error.
 */
export function errorMessageMatches(documented: string, actual: string): boolean {
  if (genericErrorText(documented)) return true;
  const frag = documented
    .trim()
    .replace(/^(an error is (returned|thrown)\s*:|error\s*[:.]|error(?=\s))\s*/i, '')
    .replace(/\.$/, '');
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  if (norm(actual).includes(norm(frag))) return true;
  const fw = [...new Set(words(frag))];
  if (fw.length === 0) return true;
  const aw = new Set(words(actual));
  const shared = fw.filter((w) => aw.has(w)).length;
  return shared / fw.length >= 0.5 || (fw.length >= 3 && shared >= 2);
}

function rowMatches(expected: string[], actual: unknown[], fields: DisplayField[], order: number[]): boolean {
  return order.every((ai, ei) => cellMatches(expected[ei]!, actual[ai], fields[ai]!));
}

/** Maximum bipartite matching of expected rows onto actual rows (multiset comparison). */
function multisetMatch(expected: string[][], actual: unknown[][], fields: DisplayField[], order: number[]): number[] | undefined {
  const adj = expected.map((e) => actual.map((a) => rowMatches(e, a, fields, order)));
  const owner = new Array<number>(actual.length).fill(-1);
  const tryRow = (ei: number, seen: boolean[]): boolean => {
    for (let ai = 0; ai < actual.length; ai++) {
      if (!adj[ei]![ai] || seen[ai]) continue;
      seen[ai] = true;
      if (owner[ai] === -1 || tryRow(owner[ai]!, seen)) {
        owner[ai] = ei;
        return true;
      }
    }
    return false;
  };
  const unmatched: number[] = [];
  for (let ei = 0; ei < expected.length; ei++) if (!tryRow(ei, new Array<boolean>(actual.length).fill(false))) unmatched.push(ei);
  return unmatched.length ? unmatched : undefined;
}

/** Column order: the actual column for each documented one (by name when the names are a permutation). */
function columnOrder(c: DocCase, fields: DisplayField[]): number[] {
  const identity = fields.map((_f, i) => i);
  const cols = c.columns;
  if (!cols || cols.length !== fields.length) return identity;
  const names = fields.map((f) => f.name.toLowerCase());
  const wanted = cols.map((n) => n.toLowerCase());
  if (new Set(names).size !== names.length) return identity;
  const idx = wanted.map((n) => names.indexOf(n));
  if (idx.some((i) => i < 0) || new Set(idx).size !== idx.length) return identity;
  return idx;
}

/**
 * Some pages print a STRUCT column as one column per field (`nested.first`, `nested.second`): when
 * the documented names ask for it, flatten those STRUCT columns the same way.
 */
export function flattenForColumns(columns: string[] | null | undefined, fields: DisplayField[], rows: unknown[][]): { fields: DisplayField[]; rows: unknown[][] } {
  if (!columns || columns.length === fields.length || !columns.some((c) => c.includes('.'))) return { fields, rows };
  const wanted = new Set(columns.map((c) => c.toLowerCase()));
  const plan: { field: DisplayField; from: number; sub?: string }[] = [];
  fields.forEach((f, i) => {
    const isStruct = fieldType(f) === 'STRUCT' && (f.mode ?? '').toUpperCase() !== 'REPEATED';
    const subs = isStruct ? (f.fields ?? []).filter((sf) => wanted.has(`${f.name}.${sf.name}`.toLowerCase())) : [];
    if (isStruct && subs.length === (f.fields ?? []).length && subs.length > 0) {
      for (const sf of subs) plan.push({ field: { ...sf, name: `${f.name}.${sf.name}` }, from: i, sub: sf.name });
    } else plan.push({ field: f, from: i });
  });
  return {
    fields: plan.map((p) => p.field),
    rows: rows.map((r) => plan.map((p) => (p.sub === undefined ? r[p.from] : ((r[p.from] ?? {}) as Record<string, unknown>)[p.sub] ?? null))),
  };
}

/** First differing cell, for the failure detail. */
function firstCellDiff(expected: string[], actual: unknown[], fields: DisplayField[], order: number[]): { col: string; type: string; expected: string; got: string } | undefined {
  for (let ei = 0; ei < expected.length; ei++) {
    const ai = order[ei]!;
    if (!cellMatches(expected[ei]!, actual[ai], fields[ai]!)) {
      const f = fields[ai]!;
      const type = (f.mode ?? '').toUpperCase() === 'REPEATED' ? `ARRAY<${fieldType(f)}>` : fieldType(f);
      return { col: f.name, type, expected: expected[ei]!, got: renderValue(actual[ai], f) };
    }
  }
  return undefined;
}

/** Failure categories for emulator errors, so similar messages group together. */
export function errorCause(message: string): string {
  const m = message.replace(/\s+/g, ' ').trim();
  const unsupported = /^(Function|Operator|Function operator) (\S+) is not supported/i.exec(m);
  if (unsupported) return `not supported: ${unsupported[1]} ${unsupported[2]}`;
  const notFound = /^Function not found: ([\w.]+)/i.exec(m);
  if (notFound) return `function not found (analyzer): ${notFound[1]}`;
  return normaliseCause(m.replace(/ at \[\d+:\d+\]/g, ''));
}

/** Compare one case's actual outcome with its documented one. Pure. */
export function compareDocCase(c: DocCase, actual: DocActual): { pass: boolean; cause?: string; detail?: string } {
  if (c.kind === 'error') {
    if (actual.kind === 'result') return { pass: false, cause: 'expected an error, got a result', detail: `documented: ${c.error ?? ''}` };
    if (errorMessageMatches(c.error ?? '', actual.message)) return { pass: true };
    return { pass: false, cause: 'error message differs', detail: `documented: ${c.error ?? ''} | got: ${actual.message}` };
  }
  if (actual.kind === 'error') return { pass: false, cause: `emulator error: ${errorCause(actual.message)}`, detail: actual.message };
  const expRows = c.rows ?? [];
  const { fields, rows } = flattenForColumns(c.columns, actual.fields, actual.rows);
  const width = expRows[0]?.length ?? c.columns?.length ?? fields.length;
  if (expRows.length > 0 && width !== fields.length) {
    return { pass: false, cause: 'column count', detail: `expected ${width} columns [${(c.columns ?? []).join(', ')}], got ${fields.length} [${fields.map((f) => f.name).join(', ')}]` };
  }
  if (expRows.length !== rows.length) {
    return { pass: false, cause: 'row count', detail: `expected ${expRows.length} rows, got ${rows.length}: ${rows.slice(0, 3).map((r) => `[${r.map((v, i) => renderValue(v, fields[i]!)).join(' | ')}]`).join(' ')}` };
  }
  const order = columnOrder(c, fields);
  const unmatched = multisetMatch(expRows, rows, fields, order);
  if (c.ordered) {
    let firstDiff: { row: number; d: NonNullable<ReturnType<typeof firstCellDiff>> } | undefined;
    for (let i = 0; i < expRows.length && !firstDiff; i++) {
      const d = firstCellDiff(expRows[i]!, rows[i]!, fields, order);
      if (d) firstDiff = { row: i, d };
    }
    if (!firstDiff) return { pass: true };
    // Same rows, another order: ties of the sort key may come in any order. Accept when some column
    // (the sort key) shows the documented sequence position by position.
    if (!unmatched) {
      const keyCol = order.some((ai, ei) => expRows.every((r, i) => cellMatches(r[ei]!, rows[i]![ai], fields[ai]!)));
      if (keyCol) return { pass: true };
      return { pass: false, cause: 'row order', detail: `row ${firstDiff.row + 1} ${firstDiff.d.col}: expected ${JSON.stringify(firstDiff.d.expected)}, got ${JSON.stringify(firstDiff.d.got)}` };
    }
  }
  if (!unmatched) return { pass: true };
  const ei = unmatched[0]!;
  // Report the closest actual row: the one sharing most cells with the documented row.
  let best = 0;
  let bestScore = -1;
  rows.forEach((r, ai) => {
    const score = order.filter((a, e) => cellMatches(expRows[ei]![e]!, r[a], fields[a]!)).length;
    if (score > bestScore) {
      best = ai;
      bestScore = score;
    }
  });
  const d = firstCellDiff(expRows[ei]!, rows[best]!, fields, order);
  const type = d?.type ?? 'row';
  return {
    pass: false,
    cause: `value mismatch: ${type}`,
    detail: d ? `row ${ei + 1} ${d.col}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.got)}` : `documented row ${ei + 1} not found`,
  };
}
