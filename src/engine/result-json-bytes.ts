/**
 * What JavaScript finishes in the REST row texts DuckDB built (src/engine/result-json.ts), on the
 * bytes copied out of DuckDB before they are kept: the two cell forms whose SQL cost DuckDB more to
 * plan than the rows cost to fix here (the case of the hex digits of escaped control characters;
 * FLOAT64 cells in Java's exponent form). Both are rare in data and found with one `indexOf` pass.
 */
import { formatFloat64 } from '../wire/rest-values.js';

/** The bytes of `\u00`, which starts the escape of a control character in DuckDB's JSON text. */
const CONTROL_ESCAPE = Buffer.from('\\u00', 'latin1');

/**
 * Puts in lower case, in place, the hex digits of every `\u00XX` escape in `bytes` (row texts
 * `restRowsSql` built; UTF-8), as JSON.stringify writes them (`\u001f`, where DuckDB's `to_json`
 * writes `\u001F`). A `\u00` whose backslash is the second of an escaped `\\` (an odd
 * number of backslashes before it) is text, not an escape, and is left as it is. The length of
 * every row is unchanged.
 */
export function lowerHexEscapes(bytes: Uint8Array): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = b.indexOf(CONTROL_ESCAPE); at >= 0; at = b.indexOf(CONTROL_ESCAPE, at + 4)) {
    let before = at;
    while (before > 0 && b[before - 1] === 0x5c) before--;
    if ((at - before) % 2) continue;
    for (const i of [at + 4, at + 5]) if (b[i]! >= 0x41 && b[i]! <= 0x46) b[i] = b[i]! + 0x20;
  }
}

/**
 * The byte written before the DuckDB text of a FLOAT64 cell whose REST text is Java's exponent form
 * (|x| outside [10^-3, 10^7), not 0); {@link javaFloatCells} replaces the text in JavaScript. It
 * never occurs in a row's JSON otherwise: strings' control characters are escaped.
 */
export const JAVA_FLOAT_MARK = 0x01;

/**
 * Replaces, in the row texts `text` (rows of byte lengths `lengths`, which are updated), each
 * FLOAT64 cell marked with {@link JAVA_FLOAT_MARK} — the mark, then DuckDB's shortest round-trip
 * text of the double (`1e+20`, `-1.5e-05`, `12345678.9`) up to the cell's closing quote — by the
 * REST text of the same double (`formatFloat64`, Java's `1.0E20`). Returns `text` itself when no
 * cell is marked, else new bytes. (Building Java's form inside DuckDB took a ~4,000-character
 * expression whose planning cost ~20 ms per FLOAT64 column for every bulk-encoded result.)
 */
export function javaFloatCells(text: Uint8Array, lengths: Int32Array): Uint8Array {
  const b = Buffer.from(text.buffer, text.byteOffset, text.length);
  let at = b.indexOf(JAVA_FLOAT_MARK);
  if (at < 0) return text;
  const pieces: Buffer[] = [];
  let from = 0;
  let row = 0;
  let rowEnd = lengths[0]!;
  while (at >= 0) {
    const end = b.indexOf(0x22, at);
    const java = Buffer.from(formatFloat64(Number(b.toString('latin1', at + 1, end))), 'latin1');
    while (rowEnd <= at) rowEnd += lengths[++row]!;
    lengths[row]! += java.length - (end - at);
    pieces.push(b.subarray(from, at), java);
    from = end;
    at = b.indexOf(JAVA_FLOAT_MARK, end);
  }
  pieces.push(b.subarray(from));
  return Buffer.concat(pieces);
}
