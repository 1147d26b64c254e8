/**
 * Off-main-thread decoding of large analyzer answers. The gRPC client hands an answer larger than
 * ANALYZER_OFFTHREAD_DECODE_BYTES over undecoded (a {@link RawAnswer}, see local-service.ts);
 * {@link decodeAnswer} decodes it in one worker thread (answer-decoder-worker.ts), so that the
 * resolved AST of a huge statement (a 100,000-item IN list: seconds of protobuf decoding and
 * garbage collection) never stalls the other clients of the emulator. The main thread only
 * parses the worker's JSON fragments, yielding between slices (answer-fragments.ts).
 */
import { Worker } from 'node:worker_threads';
import { fromFragments, type AnswerFragments } from './answer-fragments.js';
import { ANSWER_DECODER_HEAP_MB } from '../config/analyzer-limits.js';
import { workerScript } from '../config/worker-script.js';

/** An analyzer answer still in protobuf form: `type` is its fully qualified message name. */
export class RawAnswer {
  constructor(
    readonly type: string,
    readonly bytes: Buffer,
  ) {}
}

/** A decoded answer whose `resolvedStatement` (when present) is already normalised (ast.ts). */
export const NORMALIZED = Symbol('normalized');

/** The worker's script: the compiled .js next to this module, else the .ts through tsx (development). */
interface Waiting {
  resolve: (v: Record<string | symbol, unknown>) => void;
  reject: (e: Error) => void;
}

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, Waiting>();

function failAll(why: string): void {
  for (const w of waiting.values()) w.reject(new Error(why));
  waiting.clear();
}

function decoder(): Worker {
  if (worker) return worker;
  const { script, evalCode } = workerScript(import.meta.url, 'answer-decoder-worker');
  // The main thread's stack size, so an answer too deep to decode there is too deep here too.
  const w = new Worker(script, { eval: evalCode, resourceLimits: { maxOldGenerationSizeMb: ANSWER_DECODER_HEAP_MB, stackSizeMb: 1 } });
  w.unref();
  w.on('message', (m: 'ready' | { id: number; fragments?: AnswerFragments; error?: string }) => {
    if (m === 'ready') return;
    const p = waiting.get(m.id);
    if (!p) return;
    waiting.delete(m.id);
    if (m.error !== undefined) return p.reject(new Error(m.error));
    fromFragments(m.fragments!).then(
      (v) => {
        const o = v as Record<string | symbol, unknown>;
        o[NORMALIZED] = true;
        p.resolve(o);
      },
      (e: Error) => p.reject(e),
    );
  });
  w.on('error', (e: Error) => failAll(`the answer decoder failed: ${e.message}`));
  w.on('exit', () => {
    if (worker !== w) return;
    worker = undefined;
    failAll('the answer decoder stopped');
  });
  worker = w;
  return w;
}

/**
 * Decodes `raw` off the main thread into the proto-loader JSON form (int64 as decimal strings,
 * enums as names, bytes as Buffers); an AnalyzeResponse's `resolvedStatement` comes normalised
 * and the result carries {@link NORMALIZED}.
 * @throws Error with the decoder's message (e.g. protobufjs's "maximum nesting depth exceeded"),
 *   or when the worker runs out of memory/stack and stops.
 */
export function decodeAnswer(raw: RawAnswer): Promise<Record<string | symbol, unknown>> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    const w = decoder();
    w.ref();
    w.postMessage({ id, type: raw.type, bytes: raw.bytes });
  }).finally(() => {
    if (!waiting.size) worker?.unref();
  }) as Promise<Record<string | symbol, unknown>>;
}

/** Stops the decoder thread (tests, shutdown); a later call starts a new one. */
export function stopAnswerDecoder(): void {
  const w = worker;
  worker = undefined;
  failAll('the answer decoder stopped');
  void w?.terminate();
}
