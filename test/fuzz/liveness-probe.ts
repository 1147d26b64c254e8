/**
 * Fuzz harness: the "second client". While the fuzzers run, it sends `SELECT <n>` through
 * `jobs.query` on its own connection pool, a fresh literal each time (an analysis cache would
 * answer a repeated text even with a wedged analyzer), and records each answer's latency. With
 * `alternateSelect1`, every other probe is the plain health check `SELECT 1` instead (the text of
 * the latency bound: "p99 `SELECT 1` latency from a second client"), timed apart; only
 * `SELECT <n>` probes count toward a wedge.
 */
import type http from 'node:http';
import { newAgent, send, type FuzzResponse } from './http-target.js';

/** Latency summary in ms. */
export interface LatencyStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Probes that got no correct answer (hang, error, wrong value). */
  failures: number;
  failureSamples: string[];
  /** The slowest answers, each with where its time went (see LivenessProbe.explainAfterMs). */
  slowest?: string[];
  /** The `SELECT 1` probes' own latencies (LivenessProbe.alternateSelect1). */
  select1?: LatencyStats;
}

/** Percentile of a sorted array (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Summarises latencies (ms). */
export function summarize(latencies: number[], failures = 0, failureSamples: string[] = []): LatencyStats {
  const s = [...latencies].sort((a, b) => a - b);
  return { count: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? 0, failures, failureSamples };
}

/**
 * A running prober: one `SELECT n` at a time, `intervalMs` apart, each with `timeoutMs` to answer
 * (an answer after that is a failure, recorded with the time it took).
 */
export class LivenessProbe {
  private latencies: number[] = [];
  private select1Latencies: number[] = [];
  private select1Failures = 0;
  private failures = 0;
  private samples: string[] = [];
  private running = false;
  /** Probes failed in a row since the last good answer (a wedge or a dead emulator). */
  consecutiveFailures = 0;
  /** Called after each probe (answered or not). */
  onProbe?: () => void;
  /**
   * An answer slower than this (ms) is explained: the job's creation, start and end times
   * (jobs.get) split it into before the job existed (HTTP, body, event loop), queued, running
   * (analysis + execution) and after it ended (encoding, sending). The 10 slowest are kept.
   */
  explainAfterMs = Infinity;
  /** Every other probe sends `SELECT 1` (timed apart, see LatencyStats.select1). */
  alternateSelect1 = false;
  private probes = 0;
  private slowest: { ms: number; text: string }[] = [];
  private loop?: Promise<void>;
  private readonly agent: http.Agent = newAgent();
  private n = Math.floor(Math.random() * 1e6) * 1000;

  constructor(
    /** The emulator's URL, or a getter when the target can change (a restart after a crash). */
    private readonly baseUrl: string | (() => string),
    private readonly projectId: string,
    private readonly intervalMs = 50,
    private readonly timeoutMs = 15_000,
  ) {}

  /** Starts probing (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.probeOnce();
        this.onProbe?.();
        await new Promise((r) => setTimeout(r, this.intervalMs));
      }
    })();
  }

  /** One probe; returns its latency in ms or undefined on failure. */
  async probeOnce(): Promise<number | undefined> {
    if (this.alternateSelect1 && this.probes++ % 2 === 1) return this.probeSelect1();
    const n = ++this.n;
    const sentAt = Date.now();
    const { res, ok } = await this.query(n);
    if (ok) {
      this.consecutiveFailures = 0;
      this.latencies.push(res.ms);
      if (res.ms > this.explainAfterMs && (this.slowest.length < 10 || res.ms > this.slowest[this.slowest.length - 1]!.ms)) await this.explain(res.text, sentAt, sentAt + res.ms, res.ms);
      return res.ms;
    }
    this.failures++;
    this.consecutiveFailures++;
    return undefined;
  }

  /** One `SELECT 1`: its latency, or undefined (a failure; not part of the wedge streak). */
  private async probeSelect1(): Promise<number | undefined> {
    const { res, ok } = await this.query(1);
    if (ok) {
      this.select1Latencies.push(res.ms);
      return res.ms;
    }
    this.select1Failures++;
    return undefined;
  }

  /** `SELECT <n>` through jobs.query; `ok` when it answered 200 with the value n (a failure is sampled). */
  private async query(n: number): Promise<{ res: FuzzResponse; ok: boolean }> {
    const res = await send(
      typeof this.baseUrl === 'string' ? this.baseUrl : this.baseUrl(),
      { kind: 'probe', method: 'POST', path: `/bigquery/v2/projects/${this.projectId}/queries`, body: JSON.stringify({ query: `SELECT ${n}`, useLegacySql: false }), headers: { 'x-bqemu-probe': `${n === 1 ? 's1' : 'n'}-${this.probes}` } },
      this.timeoutMs,
      this.agent,
    );
    let value: unknown;
    try {
      value = JSON.parse(res.text)?.rows?.[0]?.f?.[0]?.v;
    } catch {
      value = undefined;
    }
    const ok = res.status === 200 && value === String(n);
    if (!ok && this.samples.length < 5) this.samples.push(`SELECT ${n}: ${res.failure ?? res.status} after ${Math.round(res.ms)} ms ${res.text.slice(0, 200)}`);
    return { res, ok };
  }

  private async explain(answer: string, sentAt: number, answeredAt: number, ms: number): Promise<void> {
    const base = typeof this.baseUrl === 'string' ? this.baseUrl : this.baseUrl();
    const id = (JSON.parse(answer) as { jobReference?: { jobId?: string } }).jobReference?.jobId;
    const job = await send(base, { kind: 'probe', method: 'GET', path: `/bigquery/v2/projects/${this.projectId}/jobs/${id}?location=US` }, 5000, this.agent);
    let text = `${Math.round(ms)} ms at ${new Date(sentAt).toISOString().slice(11, 23)}`;
    try {
      const st = (JSON.parse(job.text) as { statistics?: { creationTime?: string; startTime?: string; endTime?: string } }).statistics ?? {};
      const [c, s, e] = [st.creationTime, st.startTime, st.endTime].map(Number);
      text += `: before the job ${c! - sentAt}, queued ${s! - c!}, running ${e! - s!}, after ${answeredAt - e!}`;
    } catch {
      text += ': (no job statistics)';
    }
    this.slowest.push({ ms, text });
    this.slowest.sort((a, b) => b.ms - a.ms);
    this.slowest.length = Math.min(this.slowest.length, 10);
  }

  /** Stops probing and waits for the probe in flight. */
  async stop(): Promise<LatencyStats> {
    this.running = false;
    await this.loop;
    this.agent.destroy();
    return this.stats();
  }

  /** Latencies so far. */
  stats(): LatencyStats {
    const select1 = this.alternateSelect1 ? { select1: summarize(this.select1Latencies, this.select1Failures) } : {};
    return { ...summarize(this.latencies, this.failures, this.samples), slowest: this.slowest.map((x) => x.text), ...select1 };
  }

  /** Forget the samples so far (e.g. warm-up). */
  reset(): void {
    this.latencies = [];
    this.select1Latencies = [];
    this.select1Failures = 0;
    this.failures = 0;
    this.samples = [];
  }
}
