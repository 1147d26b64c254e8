/**
 * The client floor of a case: the same `@google-cloud/bigquery` operation against a local HTTP
 * server that answers instantly with responses recorded from the emulator. The recording run goes
 * through this server in proxy mode (every request forwarded to the emulator, every response kept
 * in order); the timed runs are then answered from the recording, by position in the sequence, with
 * no server work at all. What remains is the client's own cost (request building, HTTP, JSON
 * parsing, row decoding, its option deep copies) plus a trivial local HTTP exchange: a floor under
 * any emulator's time for that operation through this client.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A recording/replaying HTTP endpoint in front of `upstream` (an emulator's base URL). */
export class ReplayServer {
  private mode: 'proxy' | 'replay' = 'proxy';
  private loop = false;
  private recorded: Recorded[] = [];
  private next = 0;
  private server?: http.Server;
  url = '';

  constructor(private readonly upstream: string) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Forward and record from now on (clears an earlier recording). */
  record(): void {
    this.mode = 'proxy';
    this.recorded = [];
  }

  /** Answer from the recording from its start; each call restarts the sequence. */
  replay(): void {
    this.mode = 'replay';
    this.loop = false;
    this.next = 0;
  }

  /** Answer from the recording over and over (for a client in another process repeating the operation). */
  replayInLoop(): void {
    this.replay();
    this.loop = true;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (this.mode === 'replay') {
      if (this.loop && this.next >= this.recorded.length) this.next = 0;
      const r = this.recorded[this.next++];
      if (!r) {
        res.writeHead(500).end('replay: no more recorded responses');
        return;
      }
      res.writeHead(r.status, r.headers).end(r.body);
      return;
    }
    const up = await fetch(this.upstream + (req.url ?? ''), {
      method: req.method,
      headers: { 'content-type': String(req.headers['content-type'] ?? 'application/json') },
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await up.arrayBuffer());
    const headers = { 'content-type': up.headers.get('content-type') ?? 'application/json' };
    this.recorded.push({ status: up.status, headers, body });
    res.writeHead(up.status, headers).end(body);
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
