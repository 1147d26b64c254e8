/**
 * Reading a REST request body as text a chunk at a time.
 *
 * Fastify's own string parser keeps the body's Buffers and decodes them in one `toString` when the
 * body ends: for a body near the 10 MB request limit (BigQuery's, src/config/request-limits.ts)
 * that one call blocked the event loop 40–90 ms (a 3-minute fuzz run's CPU profile: 23 such
 * tasks, the most frequent cause of stalls after garbage collection). Here each chunk is decoded
 * as it arrives (`StringDecoder` keeps a multi-byte character split across chunks whole), so the
 * decoding is spread over the chunks' own event-loop turns; the pieces are joined once at the end.
 *
 * Limits and failures are Fastify's, with its error codes, so src/server/rest/framework-errors.ts
 * answers them as before: a declared or received length over the route's body limit →
 * FST_ERR_CTP_BODY_TOO_LARGE; a received length other than the declared `content-length` →
 * FST_ERR_CTP_INVALID_CONTENT_LENGTH; a stream error → that error with status 400.
 */
import { StringDecoder } from 'node:string_decoder';
import type { IncomingMessage } from 'node:http';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * The whole body of `req` as text, decoded as UTF-8 while it arrives.
 * @param payload the request's body stream (Fastify's parser argument)
 * @param limit the largest body accepted, bytes
 * @throws Fastify's FST_ERR_CTP_BODY_TOO_LARGE / FST_ERR_CTP_INVALID_CONTENT_LENGTH, or the stream's error (status 400)
 */
export function readBodyText(req: FastifyRequest, payload: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    const decoder = new StringDecoder('utf8');
    const pieces: string[] = [];
    let received = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limit) {
        stop();
        return reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      }
      pieces.push(decoder.write(bytes));
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop();
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        return reject(err);
      }
      if (!Number.isNaN(declared) && received !== declared) return reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      pieces.push(decoder.end());
      resolve(pieces.length === 1 ? pieces[0] : pieces.join(''));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}
