/**
 * JSON text for a decoded analyzer answer that keeps what plain JSON loses: bytes
 * (`Uint8Array`, e.g. a BYTES literal's value) and doubles JSON cannot spell (NaN, ±Infinity,
 * -0, e.g. `CAST('nan' AS FLOAT64)` folded into a literal). Such values travel as one-key marker
 * objects and are restored by {@link parseAnswerJson}; text without markers parses at
 * `JSON.parse`'s full speed (no reviver).
 */

const BYTES = '\u0000bytes';
const NUMBER = '\u0000number';
/** How a marker key appears in the JSON text. */
const MARKER_TEXT = '"\\u0000';

/** `JSON.stringify` replacer: bytes and non-JSON numbers become marker objects. */
export function jsonReplacer(this: unknown, key: string, v: unknown): unknown {
  // `v` of a Buffer is already its toJSON() form: read the raw holder value instead.
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Uint8Array) return { [BYTES]: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') };
  if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return { [NUMBER]: Object.is(v, -0) ? '-0' : String(v) };
  return v;
}

function reviver(_key: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o[BYTES] === 'string') return Buffer.from(o[BYTES] as string, 'base64');
    if (typeof o[NUMBER] === 'string') return Number(o[NUMBER]);
  }
  return v;
}

/** Parses text written with {@link jsonReplacer}, restoring bytes (as Buffers) and special numbers. */
export function parseAnswerJson(text: string): unknown {
  return text.includes(MARKER_TEXT) ? JSON.parse(text, reviver) : JSON.parse(text);
}
