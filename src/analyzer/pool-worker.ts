/**
 * A worker of the analyzer pool (src/analyzer/pool.ts): one ZetaSQL analyzer process
 * (src/analyzer/process.ts), its shared gRPC connection and the dedicated connections of resent
 * calls, and the calls in flight on them. The pool decides what to send where and when to replace
 * a worker; this module only holds the process and its connections.
 */
import * as grpc from '@grpc/grpc-js';
import type { AnalyzerProcess } from './process.js';
import { serviceConstructor } from './local-service.js';
import { CatalogRegistry, type CatalogRef } from './registered-catalogs.js';
import { ANALYZER_MAX_RECEIVE_BYTES, ANALYZER_MAX_SEND_BYTES, ANALYZER_START_TIMEOUT_MS, ANALYZER_SUSPECT_MIN_CHARS } from '../config/analyzer-limits.js';

/** A unary gRPC call's completion callback. */
type Callback = (e: grpc.ServiceError | null, res: unknown) => void;
/** The analyzer's gRPC client: one unary method per ZetaSQL LocalService RPC. */
export type GrpcClient = grpc.Client & Record<string, (req: object, md: grpc.Metadata, o: grpc.CallOptions, cb: Callback) => grpc.ClientUnaryCall>;

/** One call on its way: resent when its process is replaced, settled once. */
export interface Pending {
  method: string;
  req: object;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  deadlineAt: number;
  /** Times the call was lost with its process (see AnalyzerPool.lost). */
  losses: number;
  /** Characters of SQL the request carries (a call with few cannot be a culprit). */
  textChars: number;
  /** The request's `simpleCatalog` may be replaced by this registered catalog (registered-catalogs.ts). */
  catalogRef?: CatalogRef;
  /** The current attempt named a registered catalog instead of sending it. */
  usedRegistered?: boolean;
  worker?: Worker;
  /** The connection the current attempt uses (its process's shared one, or its own when resent). */
  conn?: Connection;
  call?: grpc.ClientUnaryCall;
  /** When the current attempt was sent (undefined while its process starts). */
  sentAt?: number;
  done: boolean;
  cleanup?: () => void;
}

/** Polls `client` until it answers a real RPC; resolves with the maximum language options. */
async function waitReady(client: GrpcClient, exited: () => boolean): Promise<unknown> {
  const deadline = Date.now() + ANALYZER_START_TIMEOUT_MS;
  for (;;) {
    try {
      return await new Promise((resolve, reject) =>
        client.getLanguageOptions({ maximumFeatures: true }, new grpc.Metadata(), { deadline: Date.now() + 1000 }, (e, r) => (e ? reject(e) : resolve(r))),
      );
    } catch (e) {
      if (exited()) throw new Error('the analyzer process exited while starting');
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** A request a new analyzer process answers before it is ready (AnalyzerPool.warmUp). */
export interface WarmUp {
  method: string;
  req: object;
}

/** Longest a warm-up request may take (ms); a process that is slower is used anyway. */
const WARM_UP_DEADLINE_MS = 5000;

/** Sends `w` once and waits for its answer or failure (either way the process is then warm enough). */
function warm(client: GrpcClient, w: WarmUp): Promise<void> {
  return new Promise((resolve) => {
    try {
      client[w.method].call(client, w.req, new grpc.Metadata(), { deadline: Date.now() + WARM_UP_DEADLINE_MS }, () => resolve());
    } catch {
      resolve();
    }
  });
}

/** One gRPC channel (one HTTP/2 connection) to an analyzer process, with the calls it carries. */
export class Connection {
  readonly client: GrpcClient;
  readonly inflight = new Set<Pending>();
  lastAnswer = Date.now();
  probing = false;
  closed = false;

  constructor(address: string, readonly dedicated: boolean) {
    const Ctor = serviceConstructor();
    this.client = new Ctor(address, grpc.credentials.createInsecure(), {
      'grpc.max_send_message_length': ANALYZER_MAX_SEND_BYTES,
      'grpc.max_receive_message_length': ANALYZER_MAX_RECEIVE_BYTES,
      'grpc.initial_reconnect_backoff_ms': 20,
      'grpc.max_reconnect_backoff_ms': 200,
    }) as unknown as GrpcClient;
  }

  close(): void {
    this.closed = true;
    try {
      this.client.close();
    } catch {
      // grpc-js throws only when the channel is already closed: the state wanted.
    }
  }
}

/**
 * One analyzer process with its shared connection, plus one connection of its own for each resent
 * call (so a resent call that wedges its connection again takes no other call with it). No
 * connection outlives its process.
 */
export class Worker {
  readonly shared: Connection;
  readonly dedicated = new Set<Connection>();
  readonly ready: Promise<unknown>;
  readonly inflight = new Set<Pending>();
  isReady = false;
  dead = false;
  /** Lowered in priority for a long call (see ANALYZER_HEAVY_CALL_MS): new calls go elsewhere. */
  heavy = false;
  /** Catalogs registered in this process (src/analyzer/registered-catalogs.ts). */
  readonly catalogs = new CatalogRegistry();

  /**
   * @param warmUp the request a new process answers once before it takes calls (see
   *   AnalyzerPool.warmUp), if any yet.
   */
  constructor(readonly proc: AnalyzerProcess, delayMs: number, warmUp?: WarmUp) {
    // Spawn first: the child boots while the protos load (the first connection loads them).
    if (!delayMs) proc.start();
    this.shared = new Connection(proc.address, false);
    const exited = () => this.dead;
    this.ready = new Promise((r) => setTimeout(r, delayMs))
      .then(() => {
        if (this.dead) throw new Error('the analyzer process was stopped');
        proc.start();
        return waitReady(this.shared.client, exited);
      })
      .then(async (opts) => {
        if (warmUp && !this.dead) await warm(this.shared.client, warmUp);
        this.isReady = true;
        this.shared.lastAnswer = Date.now();
        return opts;
      });
    // Marks the rejection handled here: the pool reacts to it (spawn: replace; send: fails or resends the call).
    this.ready.catch(() => undefined);
  }

  /**
   * The connection for a call: the shared one, or a new one of its own for a resent call and for a
   * long text (ANALYZER_SUSPECT_MIN_CHARS or more: its request, and the answer or error, can fill
   * the HTTP/2 connection's flow-control window, and a short call behind it on the shared
   * connection waited for the stall watch — ~2.1 s in the fuzz run).
   */
  connectionFor(p: Pending): Connection {
    if (!p.losses && p.textChars < ANALYZER_SUSPECT_MIN_CHARS) return this.shared;
    const c = new Connection(this.proc.address, true);
    this.dedicated.add(c);
    return c;
  }

  /** Closes a call's own connection once its call is over. */
  release(c: Connection): void {
    if (!c.dedicated) return;
    this.dedicated.delete(c);
    c.close();
  }

  /** Kills the process and closes its connections. */
  close(): void {
    this.dead = true;
    this.catalogs.close();
    this.proc.stop();
    this.shared.close();
    for (const c of this.dedicated) c.close();
    this.dedicated.clear();
  }
}
