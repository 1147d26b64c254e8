/**
 * Worker thread of answer-decoder.ts: decodes a large analyzer answer (protobuf bytes) into the
 * proto-loader JSON form, normalises a resolved statement (ast.ts), and posts the result back as
 * JSON text cut into small fragments (answer-fragments.ts) that the main thread parses a slice
 * at a time. Decoding and normalising a resolved AST of ~100,000 nodes (a 100,000-item IN list)
 * takes seconds of CPU and garbage collection; here it runs off the emulator's main thread,
 * which only parses the JSON fragments (several times faster than the decode).
 *
 * Messages in: `{ id, type, bytes }` (`type` is the fully qualified response message name).
 * Messages out: `{ id, fragments }` (AnswerFragments) or `{ id, error }` (the decoder's message, e.g. protobufjs's
 * "maximum nesting depth exceeded").
 */
import { parentPort } from 'node:worker_threads';
import { loadRoot, TO_OBJECT } from './local-service.js';
import { normalize } from './ast.js';
import { toFragments } from './answer-fragments.js';
import { lowerWorkerThreadPriority } from '../config/limits.js';

// Below the main thread and the analyzer (src/config/limits.ts WORKER_THREAD_NICE).
lowerWorkerThreadPriority();

interface DecodeRequest {
  id: number;
  type: string;
  bytes: Uint8Array;
}

const root = loadRoot();

parentPort!.on('message', (m: DecodeRequest) => {
  try {
    const t = root.lookupType(m.type);
    const o = t.toObject(t.decode(m.bytes), TO_OBJECT) as Record<string, unknown>;
    // The resolved statement of an AnalyzeResponse arrives normalised (see answer-decoder.ts).
    if (o.resolvedStatement) o.resolvedStatement = normalize(o.resolvedStatement);
    parentPort!.postMessage({ id: m.id, fragments: toFragments(o) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
parentPort!.postMessage('ready');
