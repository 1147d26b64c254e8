/**
 * `tsx bench/float64-text.ts`: µs per value of the REST FLOAT64 text (src/wire/rest-values.ts
 * formatFloat64, Java's Double.toString) for doubles outside [1e-3, 1e7) — the cells written in the
 * exponent form, such as large SUMs and TIMESTAMP seconds — next to the same text built through
 * `toExponential()` and string splits (the implementation before 2026-11-27) and next to JavaScript's
 * own `String(x)`. 1M values, three rounds. Plain timing, no assertions.
 */
import { formatFloat64 } from '../src/wire/rest-values.js';

/** Java's form through toExponential(): the way formatFloat64 was written before (one significant digit aside). */
function viaToExponential(x: number): string {
  const [m, e] = Math.abs(x).toExponential().split('e');
  const digits = m!.replace('.', '');
  return `${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1) || '0'}E${Number(e)}`;
}

const xs: number[] = [];
for (let i = 1; xs.length < 1_000_000; i++) {
  const x = i % 2 ? (i * 7919) / 7 + 1e7 : ((i % 1000) + 0.123456789) * 10 ** -((i % 20) + 4);
  xs.push(x);
}
for (let round = 0; round < 3; round++) {
  const row: string[] = [];
  for (const [name, f] of [['formatFloat64', formatFloat64], ['via toExponential', viaToExponential], ['String(x)', String]] as const) {
    let n = 0;
    const t0 = performance.now();
    for (const x of xs) n += f(x).length;
    row.push(`${name} ${(((performance.now() - t0) * 1000) / xs.length).toFixed(3)} µs`);
    if (n === 0) throw new Error('no text');
  }
  console.log(row.join(' | '));
}
