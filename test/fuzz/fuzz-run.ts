/**
 * Fuzz harness: runs generated requests with bounded concurrency, judges each answer
 * (http-target.ts `verdict`) and tallies them by generator kind and by failure cause.
 */
import type http from 'node:http';
import { causeOf, newAgent, send, verdict, type FuzzRequest, type FuzzResponse } from './http-target.js';

/** Generator kinds whose requests BigQuery refuses with a 4xx (a 2xx is reported, not failed). */
const SHOULD_FAIL = new Set(['rest:wrongEnum', 'rest:missingRequired', 'rest:malformedJson', 'rest:truncatedJson', 'rest:deepNesting']);

/** One judged request. */
export interface FuzzOutcome {
  req: FuzzRequest;
  res: FuzzResponse;
  /** Why the answer breaks the contract; undefined when fine. */
  problem?: string;
}

/** Per-kind counters. */
export interface KindCounts {
  requests: number;
  ok2xx: number;
  err4xx: number;
  err5xx: number;
  hangs: number;
  connection: number;
  shape: number;
  /** 200 answers of `jobs.query` with `jobComplete: false` (still running at the server-side timeout). */
  incomplete: number;
  maxMs: number;
}

/** Counts and failure groups of a fuzz run. */
export class FuzzTally {
  readonly byKind = new Map<string, KindCounts>();
  /** Failure cause → count, the methods it was seen on, and the first example. */
  readonly byCause = new Map<string, { count: number; labels: Set<string>; example: FuzzOutcome }>();
  /** Requests that should have been refused (a wrong type, enum or missing field) but got a 2xx. */
  readonly acceptedInvalid = new Map<string, number>();
  readonly failures: FuzzOutcome[] = [];
  /** Largest answer (characters kept, `+` when cut), all answers' characters, and slowest answer per method or kind. */
  readonly largest = new Map<string, { chars: number; cut: boolean; ms: number; total: number }>();

  /** Records one outcome. */
  add(o: FuzzOutcome): void {
    const label = `${o.req.label ?? o.req.kind} ${o.req.method}`;
    const big = this.largest.get(label) ?? { chars: 0, cut: false, ms: 0, total: 0 };
    this.largest.set(label, big);
    big.total += o.res.text.length;
    if (o.res.text.length > big.chars) Object.assign(big, { chars: o.res.text.length, cut: o.res.truncated === true });
    big.ms = Math.max(big.ms, o.res.ms);
    const k = this.byKind.get(o.req.kind) ?? { requests: 0, ok2xx: 0, err4xx: 0, err5xx: 0, hangs: 0, connection: 0, shape: 0, incomplete: 0, maxMs: 0 };
    this.byKind.set(o.req.kind, k);
    k.requests++;
    k.maxMs = Math.max(k.maxMs, o.res.ms);
    if (o.res.failure === 'hang') k.hangs++;
    else if (o.res.failure === 'connection') k.connection++;
    else if (o.res.status >= 500) k.err5xx++;
    else if (o.res.status >= 400) k.err4xx++;
    else if (o.res.status >= 200) k.ok2xx++;
    if (o.problem?.startsWith('shape')) k.shape++;
    if (isIncomplete(o.res)) k.incomplete++;
    if (o.problem) {
      this.failures.push(o);
      const cause = causeOf(o.problem, o.res);
      const g = this.byCause.get(cause) ?? { count: 0, labels: new Set<string>(), example: o };
      this.byCause.set(cause, g);
      g.count++;
      g.labels.add(o.req.label ?? o.req.kind);
    } else if (o.res.status >= 200 && o.res.status < 300 && SHOULD_FAIL.has(o.req.kind)) {
      this.acceptedInvalid.set(o.req.label ?? o.req.kind, (this.acceptedInvalid.get(o.req.label ?? o.req.kind) ?? 0) + 1);
    }
  }

  /** Totals over every kind. */
  totals(): KindCounts {
    const t: KindCounts = { requests: 0, ok2xx: 0, err4xx: 0, err5xx: 0, hangs: 0, connection: 0, shape: 0, incomplete: 0, maxMs: 0 };
    for (const k of this.byKind.values()) {
      for (const f of Object.keys(t) as (keyof KindCounts)[]) t[f] = f === 'maxMs' ? Math.max(t[f], k[f]) : t[f] + k[f];
    }
    return t;
  }

  /** The per-kind table, aligned for a terminal. */
  kindTable(): string {
    const head = ['kind', 'requests', '2xx', '4xx', '5xx', 'hangs', 'conn', 'shape', 'incomplete', 'max ms'];
    const row = (kind: string, c: KindCounts) => [kind, c.requests, c.ok2xx, c.err4xx, c.err5xx, c.hangs, c.connection, c.shape, c.incomplete, Math.round(c.maxMs)];
    const rows = [...this.byKind.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([kind, c]) => row(kind, c));
    rows.push(row('TOTAL', this.totals()));
    return formatTable(head, rows);
  }

  /** The `n` methods answering the most characters in all: method, all answers in MB, largest answer in KB, slowest answer in ms. */
  largestAnswers(n = 12): string {
    const rows = [...this.largest.entries()].sort((a, b) => b[1].total - a[1].total).slice(0, n);
    return formatTable(['method', 'all answers MB', 'largest answer KB', 'slowest ms'], rows.map(([k, v]) => [k, (v.total / 1048576).toFixed(1), `${Math.round(v.chars / 1024)}${v.cut ? '+' : ''}`, Math.round(v.ms)]));
  }

  /** Failure causes, most frequent first, with one example request each. */
  causeReport(maxCauses = 30): string {
    const lines: string[] = [];
    const sorted = [...this.byCause.entries()].sort((a, b) => b[1].count - a[1].count);
    for (const [cause, { count, labels, example }] of sorted.slice(0, maxCauses)) {
      const on = [...labels].sort();
      lines.push(`${String(count).padStart(5)}  ${cause}\n       on ${on.slice(0, 8).join(', ')}${on.length > 8 ? ` +${on.length - 8}` : ''}\n       e.g. ${describe(example.req)}`);
    }
    if (sorted.length > maxCauses) lines.push(`… and ${sorted.length - maxCauses} more causes`);
    return lines.join('\n');
  }
}

/** True for a `jobs.query` answer whose job was still running when the server-side wait ended. */
export function isIncomplete(res: FuzzResponse): boolean {
  return res.status === 200 && /"jobComplete"\s*:\s*false/.test(res.text.slice(0, 2000));
}

/** `jobs.query` verdict: the REST contract, plus "not still running after the server-side wait". */
export function judgeQuery(_req: FuzzRequest, res: FuzzResponse): string | undefined {
  return verdict(res) ?? (isIncomplete(res) ? 'incomplete: still running after the server-side wait (jobs.query timeoutMs)' : undefined);
}

/** The job id of a `jobs.query`/`jobs.insert` answer, if any. */
export function jobIdOf(res: FuzzResponse): string | undefined {
  return /"jobId"\s*:\s*"([^"]+)"/.exec(res.text.slice(0, 2000))?.[1];
}

/** A short printable description of a request (bodies and paths cut to 160 characters). */
export function describe(r: FuzzRequest): string {
  const cut = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}…(${s.length} chars)` : s);
  const ct = r.headers?.['content-type'] ? ` [${r.headers['content-type']}]` : '';
  return `${r.method} ${cut(r.path)}${ct}${r.body !== undefined ? ` ${cut(r.body)}` : ''}`;
}

/** Left-aligned first column, right-aligned numbers. */
export function formatTable(head: string[], rows: (string | number)[][]): string {
  const all = [head, ...rows].map((r) => r.map(String));
  const w = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n');
}

/** Options of {@link runRequests}. */
export interface RunOptions {
  concurrency: number;
  timeoutMs: number;
  agent?: http.Agent;
  /** Stop taking new requests when this returns true (e.g. a deadline passed). */
  stop?: () => boolean;
  onOutcome?: (o: FuzzOutcome) => void;
  /** Judges an answer (default: http-target.ts `verdict`). */
  judge?: (req: FuzzRequest, res: FuzzResponse) => string | undefined;
}

/** Sends every request from `source` with at most `concurrency` in flight; returns the tally. */
export async function runRequests(baseUrl: string, source: Iterable<FuzzRequest>, opts: RunOptions, tally = new FuzzTally()): Promise<FuzzTally> {
  const it = source[Symbol.iterator]();
  const judge = opts.judge ?? ((_q: FuzzRequest, r: FuzzResponse) => verdict(r));
  const agent = opts.agent ?? newAgent(false);
  const worker = async () => {
    for (;;) {
      if (opts.stop?.()) return;
      const n = it.next();
      if (n.done) return;
      const res = await send(baseUrl, n.value, opts.timeoutMs, agent);
      const o: FuzzOutcome = { req: n.value, res, problem: judge(n.value, res) };
      tally.add(o);
      opts.onOutcome?.(o);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return tally;
}
