/**
 * The memory that row texts built inside DuckDB (src/engine/result-json.ts) are kept in: buffers of
 * {@link SLAB_BYTES} gathering many chunks' runs ({@link Slab}), SharedArrayBuffers that V8 does not
 * count towards its next full collection, reused for the next large result once a kept result is
 * dropped and no reply is sending its bytes any more ({@link recycleSlabs}).
 *
 * Measured (bench/results/2026-11-28-shared-slabs.md, paging 1M rows × 3 columns, each query
 * evicting the last result): kept in plain ArrayBuffers, a million rows' 64 MB brought 5–6
 * mark-compacts; in SharedArrayBuffers freed by a forced collection, 3; reused, with dead young
 * ArrayBuffers swept within the scavenge (src/config/limits.ts sweepArrayBuffersInPause), 0–1.
 */
import { noteDroppedBytes } from './duckdb/native-memory.js';

/** Bytes of the buffers that runs of row texts are gathered into ({@link Slab}). */
const SLAB_BYTES = 1024 * 1024;

/**
 * Runs of row texts (each row followed by `,`) gathered into buffers of {@link SLAB_BYTES}, each
 * handed to `seal` as one block without its last `,` once the next run does not fit. A million
 * rows are then ~64 kept buffers instead of ~3,000 (the copies out of DuckDB die young), and a page
 * is a few large pieces to send.
 *
 * The buffers are SharedArrayBuffers, whose memory V8 does not count towards its next full
 * collection: kept in plain ArrayBuffers, the 64 MB of a million rows brought 5–6 mark-compacts
 * (one every ~15 MB of growth), a third of the server's CPU for paging them
 * (bench/results/2026-11-28-paging-gc.md); in SharedArrayBuffers, none. A dropped result's slabs
 * come back through {@link recycleSlabs}; memory not reused is counted as dropped
 * (src/engine/duckdb/native-memory.ts noteDroppedBytes), so a quiet heap still collects it.
 */
export class Slab {
  private buf: Buffer | undefined;
  private used = 0;
  private rows = 0;
  /** Where each gathered row starts in `buf` (EncodedRows' row starts; grown as rows come). */
  private starts = new Int32Array(4096);
  constructor(private readonly emit: (block: Buffer, rows: number, starts: Int32Array) => void) {}

  /** Appends `text` (`rows` rows' texts, each followed by `,`; `lengths`: each one's bytes with its `,`). */
  add(text: Uint8Array, rows: number, lengths: Int32Array): void {
    if (this.buf && this.used + text.length > this.buf.length) this.seal();
    if (text.length >= SLAB_BYTES) {
      this.emit(sharedCopy(text.subarray(0, text.length - 1)), rows, rowStarts(lengths, 0, new Int32Array(rows + 1), 0));
      return;
    }
    this.buf ??= slabPool.take();
    this.buf.set(text, this.used);
    if (this.rows + rows + 1 > this.starts.length) {
      const grown = new Int32Array(Math.max(2 * this.starts.length, this.rows + rows + 1));
      grown.set(this.starts.subarray(0, this.rows));
      this.starts = grown;
    }
    rowStarts(lengths, this.used, this.starts, this.rows);
    this.used += text.length;
    this.rows += rows;
  }

  /** Hands over the rows gathered so far (a partly filled buffer is copied to its size). */
  seal(): void {
    if (this.buf && this.rows) {
      const starts = this.starts.slice(0, this.rows + 1);
      starts[this.rows] = this.used;
      if (this.used > SLAB_BYTES / 2) {
        this.emit(this.buf.subarray(0, this.used - 1), this.rows, starts);
        this.buf = undefined;
      } else this.emit(sharedCopy(this.buf.subarray(0, this.used - 1)), this.rows, starts);
    }
    this.clear();
  }

  /** Drops what was gathered (a slab not handed over goes back to the pool). */
  clear(): void {
    if (this.buf) slabPool.give([this.buf]);
    this.buf = undefined;
    this.used = 0;
    this.rows = 0;
  }
}

/** `bytes` copied into a SharedArrayBuffer of their size ({@link Slab}: memory V8 does not count). */
function sharedCopy(bytes: Uint8Array): Buffer {
  const out = Buffer.from(new SharedArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

/**
 * Writes into `out` from index `first` where each of the rows of `lengths` (bytes, each with its
 * `,`) starts, the first at byte `at`, and after them the end of the last one (its `,` included,
 * so a block without its final `,` has that end at its length + 1, as EncodedRows keeps it).
 */
function rowStarts(lengths: Int32Array, at: number, out: Int32Array, first: number): Int32Array {
  for (let i = 0; i < lengths.length; i++) {
    out[first + i] = at;
    at += lengths[i]!;
  }
  out[first + lengths.length] = at;
  return out;
}

/** Slabs kept for reuse at most (64 MB). */
const POOL_MAX_SLABS = 64;

/** Pooled slabs unused this long are dropped (ms): an idle server does not keep them. */
const POOL_IDLE_MS = 30_000;

/**
 * Whole slabs of dropped results, handed to the next {@link Slab}: no fresh memory to fault in, and
 * no full collection needed to free the old ones. Past {@link POOL_MAX_SLABS}, or after
 * {@link POOL_IDLE_MS} unused, slabs are left to the collector and counted as dropped
 * (noteDroppedBytes).
 */
class SlabPool {
  private free: Buffer[] = [];
  private idle: NodeJS.Timeout | undefined;

  /** A slab of {@link SLAB_BYTES}: a pooled one, else a new SharedArrayBuffer. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.from(new SharedArrayBuffer(SLAB_BYTES));
  }

  /** Takes back the memory of `blocks` (views of slabs, each slab at most once). */
  give(blocks: readonly Uint8Array[]): void {
    const seen = new Set<ArrayBufferLike>();
    let dropped = 0;
    for (const b of blocks) {
      if (seen.has(b.buffer)) continue;
      seen.add(b.buffer);
      if (b.buffer instanceof SharedArrayBuffer && b.buffer.byteLength === SLAB_BYTES && this.free.length < POOL_MAX_SLABS) this.free.push(Buffer.from(b.buffer));
      else dropped += b.buffer.byteLength;
    }
    noteDroppedBytes(dropped);
    clearTimeout(this.idle);
    if (this.free.length) {
      this.idle = setTimeout(() => {
        noteDroppedBytes(this.free.length * SLAB_BYTES);
        this.free = [];
      }, POOL_IDLE_MS);
      this.idle.unref();
    }
  }

  /** Slabs pooled now (a test seam). */
  get size(): number {
    return this.free.length;
  }
}

const slabPool = new SlabPool();

/**
 * Gives the byte blocks of a dropped result (src/wire/encoded-rows.ts EncodedRows `recycle`: none of
 * them is being sent) back: whole slabs to the pool for the next large result, the rest counted as
 * dropped for a full collection to free.
 */
export function recycleSlabs(blocks: readonly Uint8Array[]): void {
  slabPool.give(blocks);
}

/** Slabs pooled for reuse now (a test seam). */
export function pooledSlabs(): number {
  return slabPool.size;
}
