/**
 * List pages (`jobs.list`, `datasets.list`, `tables.list`, `routines.list`): the JSON array of a
 * page's items, built item by item between event-loop turns, with the UTF-8 bytes of items that
 * no longer change kept and sent as they are.
 *
 * Why bytes: a page can hold megabytes per item (a `friendlyName` or a job's query text of up to
 * the 10 MB request limit, src/config/request-limits.ts). Kept as JS strings, every call re-joined
 * them into one string and re-encoded it to UTF-8 on the event loop (a 3-minute fuzz run's CPU
 * profile: 4.7 s in serialising list pages and 1.9 s in encoding them, out of 95 s of event-loop
 * work, with datasets.list and jobs.list answering 260 MB and 217 MB). A kept item is now bytes that
 * go to the socket without being touched, and the page is streamed piece by piece
 * (RawJson.fromParts, src/wire/resources.ts serializeReply).
 */
import { joinPieces, RawJson } from './resources.js';
import { EventLoopSlices } from '../config/limits.js';

/**
 * Largest list page, in bytes of JSON: a page stops there even when `maxResults` allows more items
 * (at least one item is always listed) and `nextPageToken` continues after the last item listed —
 * the way BigQuery caps a page of rows at 10 MB (https://cloud.google.com/bigquery/docs/paging-results).
 * Without it a default `jobs.list` page (1,000 jobs, each up to a 1 MB query text) could be a gigabyte.
 */
export const LIST_PAGE_MAX_CHARS = 10 * 1024 * 1024;

/** A list page's items as JSON array pieces, and how many of the offered items it holds. */
export class ListPageJson extends RawJson {
  constructor(
    parts: readonly (string | Uint8Array)[],
    readonly count: number,
  ) {
    super('', parts);
  }

  /** The page's JSON text in one string (tests, small answers). */
  get text(): string {
    return joinPieces(this.parts!);
  }
}

/** Where {@link jsonArrayYielding} finds and keeps the JSON bytes of items that no longer change. */
export interface ListItemCache<T> {
  /** The item's kept UTF-8 JSON bytes, or undefined. */
  get(item: T): Uint8Array | undefined;
  /** Offers the item's JSON text (the cache keeps its bytes only for an item that no longer changes). */
  set(item: T, text: string): Uint8Array | undefined;
}

/**
 * The JSON array of `items.map(toItem)` for a list page, built item by item and yielding to the
 * event loop whenever a stretch took more than a few milliseconds, so a page of multi-megabyte
 * resources does not block every other client for the whole serialisation. Stops after the item
 * that reaches `maxBytes` (LIST_PAGE_MAX_CHARS): `count` says how many were listed. Items found in
 * `cache` are sent as their kept bytes; the others are serialised and offered to it.
 */
export async function jsonArrayYielding<T>(items: readonly T[], toItem: (x: T) => unknown, maxBytes = LIST_PAGE_MAX_CHARS, cache?: ListItemCache<T>): Promise<ListPageJson> {
  const parts: (string | Uint8Array)[] = ['['];
  let bytes = 0;
  let count = 0;
  const slices = new EventLoopSlices();
  for (let i = 0; i < items.length && bytes < maxBytes; i++) {
    let piece: string | Uint8Array | undefined = cache?.get(items[i]);
    if (piece === undefined) {
      const text = JSON.stringify(toItem(items[i]));
      piece = cache?.set(items[i], text) ?? text;
    }
    if (count) parts.push(',');
    parts.push(piece);
    count++;
    // A string's length undercounts its UTF-8 bytes by at most 3×; close enough for a page bound.
    bytes += (typeof piece === 'string' ? piece.length : piece.byteLength) + 1;
    if (slices.due()) await slices.next();
  }
  parts.push(']');
  return new ListPageJson(parts, count);
}

/**
 * A {@link ListItemCache} of at most `maxBytes` bytes of JSON, oldest dropped first; `key` names the
 * variant of an item's text (e.g. the list's projection), `immutable` says whether an item may be
 * kept (a record that is replaced, never changed in place, once it may be kept). A `jobs.list`
 * page of DONE jobs is serialised once, not on every call: in the fuzz run, multi-megabyte job
 * configurations re-serialised by every `jobs.list` took 2.0 s of the event loop in 3 minutes.
 */
export class ListItemJsonCache<T extends object> {
  private readonly kept = new Map<T, { key: string; bytes: Uint8Array }>();
  private size = 0;

  constructor(
    private readonly immutable: (item: T) => boolean,
    readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The view of the cache for one list call whose texts are variant `key`. */
  forKey(key: string): ListItemCache<T> {
    return {
      get: (item) => {
        const e = this.kept.get(item);
        return e && e.key === key ? e.bytes : undefined;
      },
      set: (item, text) => {
        if (!this.immutable(item) || text.length > this.maxBytes / 4) return undefined;
        const bytes = Buffer.from(text, 'utf8');
        if (bytes.byteLength > this.maxBytes / 4) return undefined;
        const old = this.kept.get(item);
        if (old) {
          this.size -= old.bytes.byteLength;
          this.kept.delete(item);
        }
        this.kept.set(item, { key, bytes });
        this.size += bytes.byteLength;
        for (const [k, e] of this.kept) {
          if (this.size <= this.maxBytes) break;
          this.kept.delete(k);
          this.size -= e.bytes.byteLength;
        }
        return bytes;
      },
    };
  }
}
