/**
 * A benchmark target: a BigQuery REST endpoint (the in-process emulator, or a `--peer`) driven
 * through the real `@google-cloud/bigquery` client, with its own dataset holding the data sets.
 */
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { DATASETS, SPEC_PROBE, ctasSql, type GenMode } from './data.js';

export class Target {
  /** How the data sets were generated on this target (see data.ts). */
  mode: GenMode = 'spec';
  /** Data sets that could not be created, with the error. */
  readonly missing = new Map<string, string>();
  readonly bq: BigQuery;

  constructor(
    readonly label: string,
    readonly url: string,
    readonly projectId: string,
    readonly dataset: string,
  ) {
    this.bq = new BigQuery({ projectId, apiEndpoint: url, authClient: new PassThroughClient() as never, autoRetry: false, maxRetries: 0 });
  }

  /** `ds.name` qualified for this target. */
  t(name: string): string {
    return `\`${this.dataset}.${name}\``;
  }

  /** jobs.query with every page fetched (what `bq.query` does); returns the rows. */
  async query(sql: string): Promise<unknown[]> {
    const [rows] = await this.bq.query({ query: sql, useLegacySql: false, useQueryCache: false });
    return rows;
  }

  /**
   * The client's own cost of decoding the answer of `sql`, in ms per run: the pages are fetched
   * once over plain HTTP (jobs.query, then getQueryResults with the page token), then each run
   * times what @google-cloud/bigquery does with every page body — `JSON.parse` and
   * `BigQuery.mergeSchemaWithRows_` (its row decoder, with the options `query()` passes). No
   * server work is in this number: it is the floor under any emulator's time through this client.
   */
  async clientDecodeMs(sql: string, pageSize: number | undefined, runs: number): Promise<number[]> {
    const base = `${this.url.replace(/\/+$/, '')}/bigquery/v2/projects/${this.projectId}`;
    const post = await fetch(`${base}/queries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: sql, useLegacySql: false, useQueryCache: false, timeoutMs: 600_000, ...(pageSize ? { maxResults: pageSize } : {}), formatOptions: { useInt64Timestamp: true } }),
    });
    const bodies = [await post.text()];
    let first = JSON.parse(bodies[0]) as { jobReference: { jobId: string; location?: string }; pageToken?: string };
    for (let tok = first.pageToken; tok; ) {
      const q = new URLSearchParams({ pageToken: tok, 'formatOptions.useInt64Timestamp': 'true', ...(pageSize ? { maxResults: String(pageSize) } : {}) });
      if (first.jobReference.location) q.set('location', first.jobReference.location);
      const text = await (await fetch(`${base}/queries/${first.jobReference.jobId}?${q}`)).text();
      bodies.push(text);
      tok = (JSON.parse(text) as { pageToken?: string }).pageToken;
    }
    first = undefined as never;
    const out: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      for (const b of bodies) {
        const page = JSON.parse(b) as { schema: unknown; rows?: unknown[] };
        BigQuery.mergeSchemaWithRows_(page.schema as never, (page.rows ?? []) as never, {
          wrapIntegers: false,
          selectedFields: [],
          parseJSON: false,
          listParams: { 'formatOptions.useInt64Timestamp': true },
        } as never);
      }
      out.push(performance.now() - t0);
    }
    return out;
  }

  /** Creates the dataset and every data set; records what failed instead of throwing. */
  async setup(log: (s: string) => void): Promise<void> {
    await this.bq.createDataset(this.dataset);
    try {
      await this.query(SPEC_PROBE);
      this.mode = 'spec';
    } catch (e) {
      this.mode = 'digits';
      log(`  ${this.label}: GENERATE_ARRAY/MOD unavailable (${errText(e)}); generating data from literal-array cross joins`);
    }
    for (const d of DATASETS) {
      const t0 = performance.now();
      try {
        await this.query(ctasSql(d, this.t(d.name), this.mode, 'bq'));
        log(`  ${this.label}: ${d.name} (${d.description}) in ${(performance.now() - t0).toFixed(0)} ms`);
      } catch (e) {
        this.missing.set(d.name, errText(e));
        log(`  ${this.label}: could not create ${d.name}: ${errText(e)}`);
      }
    }
  }

  /** Drops the dataset and its tables (best effort). */
  async teardown(): Promise<void> {
    try {
      await this.bq.dataset(this.dataset).delete({ force: true });
    } catch {
      /* best effort */
    }
  }
}

/** One line of an error (the client's message). */
export function errText(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0].slice(0, 200);
}
