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
