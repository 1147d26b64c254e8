/**
 * A decoded analyzer answer as JSON text cut into small fragments, so the main thread can parse a
 * huge resolved AST a slice at a time instead of in one `JSON.parse` that blocks every client.
 *
 * Measured before (3-minute fuzz run, CPU profile of the emulator): `JSON.parse` of whole answers
 * (resolved ASTs of 100,000-item IN lists, 4,000-term chains, deeply nested calls) took 2.5–3.0 s
 * of the event loop, all of it inside stalls of 50 ms or more.
 *
 * Shape: `fragments[i]` is JSON text (written like answer-json.ts, so bytes and non-JSON numbers
 * survive) of one subtree, with the subtrees cut out of it replaced by `null` and listed in
 * `holes[i]` as `[path, fragment]` (the fragment's value goes at `path`) or `[path, [f1, f2, …]]`
 * (the concatenation of those array fragments goes there, for wide arrays). Fragments come
 * children first; the last one is the root.
 */
import { jsonReplacer, parseAnswerJson } from './answer-json.js';

/** Where a cut-out subtree goes: a path from the fragment's root, and its fragment(s). */
export type FragmentHole = [path: (string | number)[], fragment: number | number[]];

/** An answer cut into fragments (see the module comment). */
export interface AnswerFragments {
  fragments: string[];
  holes: FragmentHole[][];
}

/** Largest fragment, in characters: parsing one takes well under a millisecond. */
export const FRAGMENT_MAX_CHARS = 64 * 1024;

interface Composed {
  text: string;
  holes: FragmentHole[];
}

/**
 * Cuts `value` (plain JSON data; Uint8Array and non-finite numbers allowed) into fragments of at
 * most about `maxChars` characters each; a value nested too deep for that (thousands of levels)
 * becomes one fragment.
 * @throws RangeError when the value nests deeper than even `JSON.stringify` allows.
 */
export function toFragments(value: unknown, maxChars = FRAGMENT_MAX_CHARS): AnswerFragments {
  const out: AnswerFragments = { fragments: [], holes: [] };
  const emit = (c: Composed): number => {
    out.fragments.push(c.text);
    out.holes.push(c.holes);
    return out.fragments.length - 1;
  };
  const leaf = (holder: unknown, key: string, v: unknown): string | undefined => JSON.stringify(jsonReplacer.call(holder, key, v));
  const compose = (v: unknown): Composed | undefined => {
    if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return undefined;
    if (Array.isArray(v)) {
      const chunks: number[] = [];
      let parts: string[] = [];
      let holes: FragmentHole[] = [];
      let chars = 0;
      for (let i = 0; i < v.length; i++) {
        const c = compose(v[i]);
        const text = c ? c.text : (leaf(v, String(i), v[i]) ?? 'null');
        if (c) for (const [p, f] of c.holes) holes.push([[parts.length, ...p], f]);
        parts.push(text);
        chars += text.length + 1;
        if (chars > maxChars && i < v.length - 1) {
          chunks.push(emit({ text: `[${parts.join(',')}]`, holes }));
          parts = [];
          holes = [];
          chars = 0;
        }
      }
      const c: Composed = { text: `[${parts.join(',')}]`, holes };
      if (!chunks.length) return chars > maxChars ? { text: 'null', holes: [[[], emit(c)]] } : c;
      chunks.push(emit(c));
      return { text: 'null', holes: [[[], chunks]] };
    }
    const o = v as Record<string, unknown>;
    const parts: string[] = [];
    const holes: FragmentHole[] = [];
    let chars = 0;
    for (const k in o) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
      const c = compose(o[k]);
      const text = c ? c.text : leaf(o, k, o[k]);
      if (text === undefined) continue;
      if (c) for (const [p, f] of c.holes) holes.push([[k, ...p], f]);
      parts.push(`${JSON.stringify(k)}:${text}`);
      chars += text.length + k.length + 4;
    }
    const c: Composed = { text: `{${parts.join(',')}}`, holes };
    return chars > maxChars ? { text: 'null', holes: [[[], emit(c)]] } : c;
  };
  try {
    // The last fragment is the root (a one-hole 'null' when the root itself was cut out).
    emit(compose(value) ?? { text: leaf({ '': value }, '', value) ?? 'null', holes: [] });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    // Nested deeper than compose's stack allows (JSON.stringify goes deeper): one fragment.
    return { fragments: [JSON.stringify(value, jsonReplacer)], holes: [[]] };
  }
  return out;
}

/** Longest stretch in ms of parsing before {@link fromFragments} lets other work run. */
const PARSE_SLICE_MS = 4;

/**
 * Rebuilds the value of {@link toFragments}, parsing fragment by fragment and yielding to the
 * event loop every few milliseconds.
 * @throws SyntaxError on malformed fragments (a broken decoder).
 */
export async function fromFragments(a: AnswerFragments): Promise<unknown> {
  const values: unknown[] = new Array(a.fragments.length);
  let since = performance.now();
  for (let i = 0; i < a.fragments.length; i++) {
    let v = parseAnswerJson(a.fragments[i]);
    for (const [path, f] of a.holes[i]) {
      const sub = Array.isArray(f) ? f.flatMap((j) => values[j] as unknown[]) : values[f];
      if (!path.length) {
        v = sub;
        continue;
      }
      let at = v as Record<string | number, unknown>;
      for (let k = 0; k < path.length - 1; k++) at = at[path[k]] as Record<string | number, unknown>;
      at[path[path.length - 1]] = sub;
    }
    values[i] = v;
    if (performance.now() - since > PARSE_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return values[values.length - 1];
}
