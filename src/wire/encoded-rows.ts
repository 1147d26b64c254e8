/**
 * Result rows kept as their REST JSON text (`{"f":[{"v":…},…]}`, src/wire/resources.ts cell
 * encoders) in blocks: each block is one string of consecutive row texts joined by `,`, with the
 * offset where each row starts. A page of rows is then one `[` + a few substrings + `]`, and a
 * retained million-row result is ~1,000 strings instead of a million — the garbage collector and
 * the page join both work per block, not per row (paging 1M rows × 3 columns spent most of its
 * server time in GC and in joining 100,000 row strings per page).
 *
 * A block may also be the rows' UTF-8 bytes (built inside DuckDB, src/engine/result-json.ts): a
 * page of such blocks is sent as views of those bytes ({@link EncodedRowsPage.parts}), never
 * decoded into a JavaScript string nor encoded back, and held outside the JavaScript heap.
 */
import type { Value } from '../types/types.js';
import type { CellEncodeOptions } from './rest-values.js';
import { encodeRowStrings, RawJson, type WireField } from './resources.js';

/** Rows per block. */
export const ROWS_PER_BLOCK = 1024;

/** A contiguous range of kept rows: its JSON array text, or each row's text. */
export interface EncodedRowsPage {
  readonly length: number;
  /** `[row,row,…]` — the REST `rows` array text. */
  json(): string;
  /** Each row's text (for callers that rewrite rows, e.g. selectedFields). */
  texts(): string[];
  /**
   * The same text as {@link json}, as pieces (strings, and views of UTF-8 blocks) to send in order.
   * The views stay valid until {@link sent} (the blocks of dropped rows are reused only after it).
   */
  parts(): (string | Uint8Array)[];
  /** The reply holding {@link parts} was sent or abandoned: its views are not read any more. */
  sent(): void;
}

/** A block: rows' texts joined by `,`, as a string or as UTF-8 bytes. */
type Block = string | Buffer;

/** `b`'s text in [from, to) (characters of a string, bytes of a Buffer). */
const textOf = (b: Block, from: number, to: number): string => (typeof b === 'string' ? b.slice(from, to) : b.toString('utf8', from, to));

/**
 * Kept rows as blocks of REST JSON text; see the module comment. Immutable once built.
 *
 * Byte blocks may be given back for reuse when the rows are dropped ({@link drop}): `recycle`
 * receives them once no page of them is still being sent ({@link EncodedRowsPage.parts} to
 * {@link EncodedRowsPage.sent}), the views a reply holds being of those very bytes.
 */
export class EncodedRows {
  /**
   * `recycle`: receives the byte blocks of dropped rows that no reply is sending any more
   * (src/engine/result-slabs.ts takes them into its pool of slabs).
   */
  constructor(private readonly recycle?: (blocks: Buffer[]) => void) {}

  /** Pages whose byte views are being sent (parts handed out, not yet sent). */
  private sending = 0;
  private dropped = false;

  /** Global index of the first row of each block, plus the total at the end. */
  private readonly firstRows: number[] = [0];
  private readonly blocks: Block[] = [];
  /**
   * Per block: the offset of each row's start, plus the block's length + 1 at the end (characters
   * of a string block, bytes of a byte block).
   */
  private readonly starts: Int32Array[] = [];
  private chars = 0;

  /** Rows kept. */
  get length(): number {
    return this.firstRows[this.firstRows.length - 1]!;
  }

  /**
   * Characters of the rows' texts (the retained-bytes ledger's measure, as for one string per
   * row); UTF-8 bytes for rows kept as bytes.
   */
  get bytes(): number {
    return this.chars;
  }

  /** Appends one block of row texts (at least one). */
  pushBlock(texts: readonly string[]): void {
    if (!texts.length) return;
    const starts = new Int32Array(texts.length + 1);
    let at = 0;
    for (let i = 0; i < texts.length; i++) {
      starts[i] = at;
      at += texts[i]!.length + 1;
    }
    starts[texts.length] = at;
    this.blocks.push(texts.join(','));
    this.starts.push(starts);
    this.firstRows.push(this.length + texts.length);
    this.chars += at - texts.length;
  }

  /**
   * Appends one block of `rows` flat rows (cells holding no STRUCT) as their UTF-8 texts joined by
   * `,` (built in bulk by DuckDB, src/engine/result-json.ts), with `starts`: where each row starts
   * and, after them, the block's length + 1 (`rows + 1` offsets).
   */
  pushFlatBytes(block: Buffer, rows: number, starts: Int32Array): void {
    if (rows < 1) return;
    this.blocks.push(block);
    this.starts.push(starts);
    this.firstRows.push(this.length + rows);
    this.chars += block.length - (rows - 1);
  }

  /**
   * The end (exclusive) of a page from row `start` holding at most `end - start` rows and, after
   * its first row, no more than `max` characters of row text (bytes for rows kept as bytes).
   */
  pageEnd(start: number, end: number, max: number): number {
    let size = 0;
    for (let i = start; i < end; ) {
      const b = this.blockOf(i);
      const first = this.firstRows[b]!;
      const blockEnd = this.firstRows[b + 1]!;
      if (i === first && blockEnd <= end) {
        // A whole block within the limit passes at once (no row of it ends the page).
        const whole = this.blocks[b]!.length - (blockEnd - i - 1);
        if (size + whole <= max) {
          size += whole;
          i = blockEnd;
          continue;
        }
      }
      // Within the block, by its row starts: the characters of rows [i, j] are
      // s[j + 1] - s[i] - (j + 1 - i) (each row's start to the next one's, less the `,`), which
      // grows with j, so the first row past the limit is found by bisection.
      const s = this.starts[b]!;
      const last = Math.min(blockEnd, end) - 1;
      const through = (j: number) => s[j + 1 - first]! - s[i - first]! - (j + 1 - i);
      if (size + through(last) <= max) {
        size += through(last);
        i = last + 1;
        continue;
      }
      let lo = i;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (size + through(mid) > max) hi = mid;
        else lo = mid + 1;
      }
      // Row `lo` passes the limit: the page ends before it, but holds at least its first row.
      return lo > start ? lo : lo + 1;
    }
    return end;
  }

  /** Rows kept as `texts` (one JSON text per row), e.g. as persisted. */
  static fromRowTexts(texts: readonly string[]): EncodedRows {
    const out = new EncodedRows();
    for (let i = 0; i < texts.length; i += ROWS_PER_BLOCK) out.pushBlock(texts.slice(i, i + ROWS_PER_BLOCK));
    return out;
  }

  /** The block holding row `i` (0 ≤ i < length). */
  private blockOf(i: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.firstRows[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Characters of row `i`'s text (UTF-8 bytes for rows kept as bytes). */
  rowChars(i: number): number {
    const b = this.blockOf(i);
    const k = i - this.firstRows[b]!;
    const s = this.starts[b]!;
    return s[k + 1]! - s[k]! - 1;
  }

  /**
   * Per block holding rows of [from, to), the range of its text they cover (characters of a string
   * block, bytes of a byte block); a whole block needs no row starts.
   */
  private *ranges(from: number, to: number): Generator<[block: Block, start: number, end: number]> {
    for (let b = from < to ? this.blockOf(from) : this.blocks.length; b < this.blocks.length && this.firstRows[b]! < to; b++) {
      const first = Math.max(from, this.firstRows[b]!) - this.firstRows[b]!;
      const last = Math.min(to, this.firstRows[b + 1]!) - this.firstRows[b]!;
      const block = this.blocks[b]!;
      if (first === 0 && last === this.firstRows[b + 1]! - this.firstRows[b]!) yield [block, 0, block.length];
      else {
        const s = this.starts[b]!;
        yield [block, s[first]!, s[last]! - 1];
      }
    }
  }

  /** The text of rows [from, to) joined by `,` (no brackets), as whole-block substrings. */
  private joined(from: number, to: number): string {
    const parts: string[] = [];
    for (const [block, s, e] of this.ranges(from, to)) parts.push(textOf(block, s, e));
    return parts.join(',');
  }

  /** `[` + {@link joined} + `]` as pieces: substrings of string blocks, views of byte blocks. */
  private pieces(from: number, to: number): (string | Uint8Array)[] {
    const out: (string | Uint8Array)[] = ['['];
    for (const [block, s, e] of this.ranges(from, to)) {
      if (out.length > 1) out.push(',');
      out.push(typeof block === 'string' ? block.slice(s, e) : block.subarray(s, e));
    }
    out.push(']');
    return out;
  }

  /**
   * Drops the rows (their result was evicted or its job deleted): no page of them is made again,
   * and their byte blocks go to `recycle` once no reply is sending views of them (now, or when the
   * last such reply is sent).
   */
  drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    if (!this.sending) this.giveBack();
  }

  private giveBack(): void {
    const bytes = this.blocks.filter((b): b is Buffer => typeof b !== 'string');
    if (bytes.length) this.recycle?.(bytes);
  }

  /**
   * Rows [from, to) as a page.
   * @throws Error when the rows were dropped (their owner stopped keeping them: never read again).
   */
  page(from: number, to: number): EncodedRowsPage {
    if (this.dropped) throw new Error('a page of dropped result rows was asked for');
    const f = Math.max(0, Math.min(from, this.length));
    const t = Math.max(f, Math.min(to, this.length));
    let handedOut = false;
    return {
      length: t - f,
      json: () => `[${this.joined(f, t)}]`,
      texts: () => {
        const out: string[] = [];
        for (let i = f; i < t; i++) {
          const b = this.blockOf(i);
          const k = i - this.firstRows[b]!;
          const s = this.starts[b]!;
          out.push(textOf(this.blocks[b]!, s[k]!, s[k + 1]! - 1));
        }
        return out;
      },
      parts: () => {
        // Views of the blocks leave with the reply: the blocks are not reused until it was sent.
        if (this.dropped) throw new Error('parts of dropped result rows were asked for');
        if (!handedOut) this.sending++;
        handedOut = true;
        return this.pieces(f, t);
      },
      sent: () => {
        if (!handedOut) return;
        handedOut = false;
        this.sending--;
        if (this.dropped && !this.sending) this.giveBack();
      },
    };
  }

  /** Persisted as one text per row (src/jobs/persist.ts; {@link fromRowTexts} reads it back). */
  toJSON(): string[] {
    // Dropped rows are expired results: none are written.
    return this.dropped ? [] : this.page(0, this.length).texts();
  }
}

/**
 * A page's rows as the REST `rows` of a reply: its {@link EncodedRowsPage.parts}, with
 * {@link EncodedRowsPage.sent} called once the reply was sent or abandoned (src/server/server.ts).
 */
export function pageRowsJson(page: EncodedRowsPage): RawJson {
  return RawJson.fromParts(page.parts(), () => page.sent());
}

/** Encodes `rows` into `out` a block at a time, yielding after each block. */
function* encodeBlocks(out: EncodedRows, fields: WireField[], rows: readonly Value[][], opts: CellEncodeOptions): Generator<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_BLOCK) {
    out.pushBlock(encodeRowStrings(fields, rows.slice(i, i + ROWS_PER_BLOCK), opts));
    yield;
  }
}

/**
 * Encodes `rows` (domain values in `fields` order) into {@link EncodedRows}, returning to the event
 * loop whenever a stretch took longer than `yieldMs` (a 1M-row result took ~1.2 s in one
 * synchronous loop before).
 */
export async function encodeRowBlocks(fields: WireField[], rows: readonly Value[][], opts: CellEncodeOptions, yieldMs: number): Promise<EncodedRows> {
  const out = new EncodedRows();
  let since = performance.now();
  for (const _ of encodeBlocks(out, fields, rows, opts)) {
    if (performance.now() - since > yieldMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return out;
}

/** {@link encodeRowBlocks} in one synchronous pass (small results). */
export function encodeRowBlocksSync(fields: WireField[], rows: readonly Value[][], opts: CellEncodeOptions): EncodedRows {
  const out = new EncodedRows();
  for (const _ of encodeBlocks(out, fields, rows, opts));
  return out;
}
