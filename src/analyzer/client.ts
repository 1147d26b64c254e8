/**
 * Client of the ZetaSQL local service (gRPC over the supervised child's unix socket).
 *
 * Loads the protos once (protobufjs, ~130 ms), waits until a real RPC answers, retries a
 * call once after the child restarted, and turns analyzer errors into BigQuery's
 * `invalidQuery` errors with BigQuery's location marker (`[at 1:8]` → `at [1:8]`, DESIGN §2.4).
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnalyzerProcess, reapOrphans, takePrespawned, zetasqlDir } from './process.js';
import { bigQueryLanguageOptions } from './options.js';
import { normalize, type Node } from './ast.js';
import { BigQueryError } from '../errors/errors.js';

type Rpc = (req: object, cb: (err: grpc.ServiceError | null, res: any) => void) => void;

let cachedService: grpc.ServiceClientConstructor | undefined;
/** How messages become plain objects (the "proto-loader JSON form" the analyzer code reads). */
const TO_OBJECT: protobuf.IConversionOptions = { oneofs: true, longs: String, enums: String, defaults: false };

/**
 * protobufjs refuses messages nested deeper than 100 levels ("maximum nesting depth exceeded"),
 * and a resolved AST spends several levels per expression: `SELECT 1+1+…` with 30 terms or 25
 * nested function calls failed. The query text check (src/engine/query-text-limits.ts) bounds the
 * nesting the analyzer sees; this bound lets every such tree decode.
 */
const PROTO_RECURSION_LIMIT = 50_000;
protobuf.util.recursionLimit = PROTO_RECURSION_LIMIT;
protobuf.Reader.recursionLimit = PROTO_RECURSION_LIMIT;
const SERVICE = 'zetasql.local_service.ZetaSqlLocalService';

/**
 * The analyzer's protos: the JSON descriptor the build writes next to this module
 * (dist/analyzer/zetasql-protos.json), else the package's .proto files parsed at start.
 */
function loadRoot(): protobuf.Root {
  const json = path.join(path.dirname(fileURLToPath(import.meta.url)), 'zetasql-protos.json');
  if (fs.existsSync(json)) return protobuf.Root.fromJSON(JSON.parse(fs.readFileSync(json, 'utf8')));
  const root = new protobuf.Root();
  const dirs = [path.join(zetasqlDir(), 'protos'), path.dirname(createRequire(import.meta.url).resolve('protobufjs/package.json'))];
  root.resolvePath = (_origin, target) => dirs.map((d) => path.join(d, target)).find((p) => fs.existsSync(p)) ?? target;
  return root.loadSync('local_service.proto', { keepCase: false });
}

/**
 * The gRPC client class of the local service, built straight from protobufjs types (grpc's
 * generic client constructor; serialize = fromObject + encode, deserialize = decode + toObject):
 * @grpc/proto-loader's package definition also builds a file descriptor per type, which cost
 * ~110 ms of every start. Methods are reachable as `Analyze` and `analyze`.
 */
function serviceConstructor(): grpc.ServiceClientConstructor {
  if (cachedService) return cachedService;
  const service = loadRoot().lookupService(SERVICE);
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const m of service.methodsArray) {
    m.resolve();
    const req = m.resolvedRequestType!;
    const res = m.resolvedResponseType!;
    const method: grpc.MethodDefinition<object, object> = {
      path: `/${SERVICE}/${m.name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: (o: object) => Buffer.from(req.encode(req.fromObject(o)).finish()),
      requestDeserialize: (b: Buffer) => req.toObject(req.decode(b), TO_OBJECT),
      responseSerialize: (o: object) => Buffer.from(res.encode(res.fromObject(o)).finish()),
      responseDeserialize: (b: Buffer) => res.toObject(res.decode(b), TO_OBJECT),
    };
    def[m.name] = method;
    def[m.name[0].toLowerCase() + m.name.slice(1)] = method;
  }
  cachedService = grpc.makeGenericClientConstructor(def, 'ZetaSqlLocalService');
  return cachedService;
}

/** Rewrites ZetaSQL's `… [at 1:8]` location marker into BigQuery's `… at [1:8]`. */
export function bigQueryErrorText(zetasqlMessage: string): string {
  return zetasqlMessage.replace(/\s*\[at (\d+):(\d+)\]/g, ' at [$1:$2]').trim();
}

export class AnalyzerClient {
  private readonly proc: AnalyzerProcess;
  private client!: grpc.Client & Record<string, Rpc>;
  private readyPromise?: Promise<unknown>;
  /** BigQuery language options (set by `start`). */
  languageOptions: Record<string, unknown> = {};

  constructor() {
    this.proc = takePrespawned() ?? new AnalyzerProcess();
    this.proc.onRestart = () => {
      this.readyPromise = this.waitReady().then(() => undefined);
    };
  }

  /** Pid of the analyzer child (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Reaps orphans, starts the child, waits for a real RPC to answer, loads language options. */
  async start(): Promise<void> {
    reapOrphans();
    this.proc.start(); // spawn first: the child boots while the protos load
    const Ctor = serviceConstructor();
    this.client = new Ctor(this.proc.address, grpc.credentials.createInsecure(), {
      'grpc.max_send_message_length': 512 * 1024 * 1024,
      'grpc.max_receive_message_length': 512 * 1024 * 1024,
      'grpc.initial_reconnect_backoff_ms': 20,
      'grpc.max_reconnect_backoff_ms': 200,
    }) as any;
    // The readiness probe is the real RPC the emulator needs first: BigQuery's language options.
    this.readyPromise = this.waitReady().then((max) => {
      this.languageOptions = bigQueryLanguageOptions(max);
    });
    await this.readyPromise;
  }

  /** Polls until the child answers a real RPC; returns its maximum language options. */
  private async waitReady(): Promise<any> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await this.raw('getLanguageOptions', { maximumFeatures: true }, Date.now() + 1000);
      } catch (e) {
        if (Date.now() > deadline) throw BigQueryError.internal(`The SQL analyzer did not start: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }

  private raw(method: string, req: object, deadline?: number): Promise<any> {
    return new Promise((resolve, reject) => {
      const fn = this.client[method] as unknown as (r: object, md: grpc.Metadata, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, res: unknown) => void) => void;
      fn.call(this.client, req, new grpc.Metadata(), deadline ? { deadline } : {}, (err, res) => (err ? reject(err) : resolve(res)));
    });
  }

  /** Calls an RPC; after an UNAVAILABLE (child crashed) waits for the restart and tries once more. */
  async call(method: string, req: object): Promise<any> {
    await this.readyPromise;
    try {
      return await this.raw(method, req);
    } catch (e) {
      const err = e as grpc.ServiceError;
      if (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.CANCELLED) {
        this.proc.start();
        this.readyPromise = this.waitReady().then(() => undefined);
        await this.readyPromise;
        return this.mapErrors(() => this.raw(method, req));
      }
      throw toBigQueryError(err);
    }
  }

  private async mapErrors<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw toBigQueryError(e as grpc.ServiceError);
    }
  }

  /** Analyzes one statement; returns the normalised resolved statement. */
  async analyze(sql: string, catalog: object, options: object): Promise<Node> {
    const res = await this.call('analyze', { options, simpleCatalog: catalog, sqlStatement: sql });
    return normalize(res.resolvedStatement) as Node;
  }

  /** The table paths a statement references, segments as written (DESIGN §2.3). */
  async extractTableNames(sql: string): Promise<string[][]> {
    const res = await this.call('extractTableNamesFromStatement', {
      sqlStatement: sql,
      options: { languageOptions: this.languageOptions },
    });
    return (res.tableName ?? []).map((t: { tableNameSegment?: string[] }) => t.tableNameSegment ?? []);
  }

  /** Parses a script (or statement); returns the raw parse tree. */
  async parse(sql: string, allowScript: boolean): Promise<any> {
    return this.call('parse', { sqlStatement: sql, allowScript, options: { languageOptions: this.languageOptions } });
  }

  /** Stops the child. */
  stop(): void {
    try {
      this.client?.close();
    } catch {
      /* ignore */
    }
    this.proc.stop();
  }
}

function toBigQueryError(err: grpc.ServiceError): BigQueryError {
  if (err instanceof BigQueryError) return err;
  if (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.DEADLINE_EXCEEDED)
    return BigQueryError.internal(`The SQL analyzer is unavailable: ${err.details}`);
  // An answer too deeply nested to decode (PROTO_RECURSION_LIMIT, or the JS stack): the text too deep.
  if (/^Response message parsing error: (maximum nesting depth exceeded|Maximum call stack size exceeded)/.test(err.details ?? ''))
    return BigQueryError.outOfStackSpace();
  return BigQueryError.invalidQuery(bigQueryErrorText(err.details ?? err.message));
}
