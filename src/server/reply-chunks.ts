/**
 * Large REST answers sent as a stream of UTF-8 chunks instead of one string. For a string body
 * fastify measures its byte length and Node encodes it into one buffer, each a synchronous pass
 * over the whole text on the event loop: in the fuzz run, multi-megabyte `jobs.list` and resource
 * answers spent 6.4 s in `Buffer.byteLength` and 13.5 s in socket `writev` inside event-loop
 * stalls. As a stream, the text is encoded 256 KiB at a time as the socket drains (chunked
 * transfer encoding; every HTTP client reads it the same), so no single step blocks other
 * clients for more than a few milliseconds.
 */
import { Readable } from 'node:stream';

/** Answers longer than this (characters) are streamed; shorter ones are sent as they are. */
export const STREAMED_REPLY_MIN_CHARS = 1024 * 1024;

/** Characters encoded per chunk. */
const CHUNK_CHARS = 256 * 1024;

/**
 * The UTF-8 bytes of `text` as a stream of chunks of about CHUNK_CHARS characters, never
 * splitting a surrogate pair (each chunk encodes on its own). Concatenated, the chunks are
 * exactly `Buffer.from(text, 'utf8')`.
 */
export function utf8Chunks(text: string, chunkChars = CHUNK_CHARS): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + chunkChars);
      // A high surrogate at the cut belongs with the low one after it.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      // Back to the event loop between chunks: a socket that keeps accepting would otherwise pull
      // the whole text through promise callbacks without other clients getting a turn.
      if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      yield Buffer.from(text.slice(at, end), 'utf8');
      at = end;
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 4 * chunkChars });
}

/**
 * fastify `onSend` hook: a serialised answer of at least STREAMED_REPLY_MIN_CHARS characters
 * becomes a {@link utf8Chunks} stream; anything else passes unchanged.
 */
export async function streamLargeReplies(_req: unknown, _reply: unknown, payload: unknown): Promise<unknown> {
  return typeof payload === 'string' && payload.length >= STREAMED_REPLY_MIN_CHARS ? utf8Chunks(payload) : payload;
}
