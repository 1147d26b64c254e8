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
import { EventLoopSlices } from '../config/limits.js';

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
 * most about `maxChars` characters each, at any depth (no recursion).
 */
export function toFragments(value: unknown, maxChars = FRAGMENT_MAX_CHARS): AnswerFragments {
  const out: AnswerFragments = { fragments: [], holes: [] };
  const emit = (c: Composed): number => {
    out.fragments.push(c.text);
    out.holes.push(c.holes);
    return out.fragments.length - 1;
  };
  const leaf = (holder: unknown, key: string, v: unknown): string | undefined => JSON.stringify(jsonReplacer.call(holder, key, v));
  const composite = (v: unknown): v is object => v !== null && typeof v === 'object' && !(v instanceof Uint8Array);
  // An explicit stack instead of recursion: resolved ASTs nest thousands of levels deep.
  interface Frame {
    node: Record<string | number, unknown>;
    keys: (string | number)[];
    next: number;
    array: boolean;
    parts: string[];
    holes: FragmentHole[];
    chars: number;
    chunks: number[];
  }
  const open = (v: object): Frame => {
    const array = Array.isArray(v);
    const keys: (string | number)[] = array ? Array.from({ length: (v as unknown[]).length }, (_, i) => i) : [];
    if (!array) for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k)) keys.push(k);
    return { node: v as Record<string | number, unknown>, keys, next: 0, array, parts: [], holes: [], chars: 0, chunks: [] };
  };
  /** Adds one member's text (and the holes inside it) to the frame's current piece. */
  const add = (f: Frame, key: string | number, text: string, holes: FragmentHole[]): void => {
    const at = f.array ? f.parts.length : key;
    for (const [p, frag] of holes) f.holes.push([[at, ...p], frag]);
    f.parts.push(f.array ? text : `${JSON.stringify(key)}:${text}`);
    f.chars += text.length + (f.array ? 1 : String(key).length + 4);
    // A wide array is cut into consecutive array fragments.
    if (f.array && f.chars > maxChars && f.next < f.keys.length) {
      f.chunks.push(emit({ text: `[${f.parts.join(',')}]`, holes: f.holes }));
      f.parts = [];
      f.holes = [];
      f.chars = 0;
    }
  };
  const close = (f: Frame): Composed => {
    const c: Composed = { text: f.array ? `[${f.parts.join(',')}]` : `{${f.parts.join(',')}}`, holes: f.holes };
    if (f.chunks.length) {
      f.chunks.push(emit(c));
      return { text: 'null', holes: [[[], f.chunks]] };
    }
    return f.chars > maxChars ? { text: 'null', holes: [[[], emit(c)]] } : c;
  };
  if (!composite(value)) {
    emit({ text: leaf({ '': value }, '', value) ?? 'null', holes: [] });
    return out;
  }
  const small = maxChars / 4;
  const stack: Frame[] = [open(value)];
  for (;;) {
    const f = stack[stack.length - 1];
    let descended = false;
    while (f.next < f.keys.length) {
      const key = f.keys[f.next++];
      const v = f.node[key];
      if (composite(v)) {
        // A small subtree is written whole by one native JSON.stringify instead of a JavaScript
        // step per leaf: cutting a 100,000-literal IN list's answer took 590–623 ms, now 263–275
        // (best of 12, loaded machine); a 3,000-deep chain the same 328–336 ms.
        const text = smallSubtreeText(v, small);
        if (text !== undefined) {
          add(f, key, text, []);
          continue;
        }
        stack.push(open(v));
        descended = true;
        break;
      }
      const text = leaf(f.node, String(key), v);
      if (text !== undefined) add(f, key, text, []);
      else if (f.array) add(f, key, 'null', []);
    }
    if (descended) continue;
    const done = close(stack.pop()!);
    const parent = stack[stack.length - 1];
    if (!parent) {
      // The last fragment is the root (a one-hole 'null' when the root itself was cut out).
      emit(done);
      return out;
    }
    add(parent, parent.keys[parent.next - 1], done.text, done.holes);
  }
}

/** Most composites a subtree may hold to be written whole by {@link smallSubtreeText}. */
const SMALL_SUBTREE_NODES = 32;

/**
 * The JSON text (answer-json.ts's form) of `v` when it is small — at most SMALL_SUBTREE_NODES
 * composites and about `maxChars` characters —, written by one native `JSON.stringify` (with the
 * replacer only when bytes or a number JSON cannot spell are inside); undefined for a larger
 * subtree. The check stops as soon as either bound is passed, so it costs little on a large one.
 */
function smallSubtreeText(v: object, maxChars: number): string | undefined {
  let nodes = 0;
  let chars = 0;
  let special = false;
  const stack: object[] = [v];
  while (stack.length) {
    const o = stack.pop() as Record<string, unknown>;
    if (++nodes > SMALL_SUBTREE_NODES) return undefined;
    const array = Array.isArray(o);
    if (array && (o as unknown as unknown[]).length > maxChars) return undefined;
    chars += 2;
    const values: unknown[] = array ? (o as unknown as unknown[]) : Object.values(o);
    if (!array) for (const k in o) chars += k.length + 4;
    for (let i = 0; i < values.length; i++) {
      const x = values[i];
      if (array) chars += 1;
      if (x === null || x === undefined || typeof x === 'boolean') chars += 5;
      else if (typeof x === 'string') chars += x.length + 2;
      else if (typeof x === 'number') {
        chars += 12;
        if (!Number.isFinite(x) || Object.is(x, -0)) special = true;
      } else if (x instanceof Uint8Array) {
        chars += Math.ceil(x.length * 1.4) + 16;
        special = true;
      } else if (typeof x === 'object') stack.push(x);
    }
    if (chars > maxChars) return undefined;
  }
  return JSON.stringify(v, special ? jsonReplacer : undefined);
}

/**
 * Rebuilds the value of {@link toFragments}, parsing fragment by fragment and yielding to the
 * event loop every few milliseconds.
 * @throws SyntaxError on malformed fragments (a broken decoder).
 */
export async function fromFragments(a: AnswerFragments): Promise<unknown> {
  const values: unknown[] = new Array(a.fragments.length);
  const slices = new EventLoopSlices();
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
    if (slices.due()) await slices.next();
  }
  return values[values.length - 1];
}
