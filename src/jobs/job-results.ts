/**
 * The result rows of finished jobs kept in memory: metadata of every job stays (src/jobs/jobs.ts);
 * rows are kept for the most recently finished or read jobs only, within a job count, a cell budget
 * and a byte budget (result-bytes.ts); a page of an evicted result answers BigQuery's 404 for an
 * expired anonymous result table. Rows whose REST text does not depend on request options are
 * kept as that text (src/wire/resources.ts `encodeRowStrings`).
 */
import type { ResultField } from '../engine/engine.js';
import { BigQueryError } from '../errors/errors.js';
import type { Value } from '../types/types.js';
import { encodingVaries } from '../wire/resources.js';
import { encodeRowBlocks, encodeRowBlocksSync, type EncodedRows, type EncodedRowsPage } from '../wire/encoded-rows.js';
import { anonymousTable } from './anonymous.js';
import type { JobRecord, ResultLimits } from './jobs-model.js';
import { ByteLedger, keptBytes, pageEnd } from './result-bytes.js';
import { EVENT_LOOP_SLICE_MS } from '../config/limits.js';

/**
 * A page of a job's result: the rows as domain values, or (results kept encoded) as REST JSON text
 * per row; `total` counts every row, `next` is the next page's start index.
 */
export interface ResultPage {
  fields: ResultField[];
  rows?: Value[][];
  encodedRows?: EncodedRowsPage;
  total: number;
  next?: number;
}

/** Rows in a job's result, whichever form they are kept in. */
export function resultRowCount(j: JobRecord): number {
  return j.encodedRows?.length ?? j.result?.rows?.length ?? 0;
}

/**
 * Drops a job's kept row texts (EncodedRows.drop): bytes built in DuckDB go back to the pool of
 * slabs once no reply is sending them (src/engine/result-slabs.ts), so the next large result
 * reuses them instead of new memory that only a full collection would free.
 */
export function dropKeptRows(j: JobRecord): void {
  j.encodedRows?.drop();
  j.encodedRows = undefined;
}

/** Results up to this many rows are encoded at once when kept; larger ones a slice at a time. */
const ENCODE_SYNC_MAX_ROWS = 20_000;

/** {@link keptBytes} of `rows` estimated from about 1,000 evenly spaced rows. */
function sampledBytes(rows: readonly Value[][]): number {
  const step = Math.max(1, Math.floor(rows.length / 1000));
  const sample: Value[][] = [];
  for (let i = 0; i < rows.length; i += step) sample.push(rows[i]!);
  return Math.round((keptBytes(sample) * rows.length) / sample.length);
}

/** The jobs whose result rows are kept, least recently finished or read first, with their cell counts. */
export class RetainedResults {
  private retained = new Map<string, number>();
  private retainedCells = 0;
  /** Kept results still being encoded, by key. */
  private readonly encoding = new Map<string, Promise<void>>();
  private readonly retainedBytes = new ByteLedger();

  /**
   * `jobOf`: the job stored under a key (its rows are dropped when evicted); `expired`: called with
   * the key of a job whose rows were just dropped.
   */
  constructor(
    private readonly limits: ResultLimits,
    private readonly jobOf: (key: string) => JobRecord | undefined,
    private readonly expired: (key: string) => void = () => {},
  ) {}

  /**
   * Keeps a finished job's rows, dropping the rows of the oldest jobs beyond the limits. Rows whose
   * REST text does not depend on request options are kept as that text (see `encodeRowStrings`).
   */
  retain(key: string, job: JobRecord): void {
    const rows = job.result?.rows;
    if ((!rows && !job.encodedRows) || job.resultsExpired) return;
    this.release(key);
    const fields = job.result?.schema ?? [];
    if (rows && !encodingVaries(fields)) {
      if (rows.length <= ENCODE_SYNC_MAX_ROWS) this.keepEncoded(job, encodeRowBlocksSync(fields, rows, { useInt64Timestamp: false }));
      else
        // Encoded a slice at a time (a 1M-row result took ~1.2 s in one synchronous loop); pages
        // read meanwhile come from the decoded rows.
        this.encoding.set(
          key,
          encodeRowBlocks(fields, rows, { useInt64Timestamp: false }, EVENT_LOOP_SLICE_MS).then((encoded) => {
            this.encoding.delete(key);
            if (job.result?.rows !== rows || job.resultsExpired || !this.retained.has(key)) return;
            this.keepEncoded(job, encoded);
            this.retainedBytes.remove(key);
            this.retainedBytes.add(key, encoded.bytes);
          }),
        );
    }
    const cells = resultRowCount(job) * Math.max(1, fields.length);
    this.retained.set(key, cells);
    this.retainedCells += cells;
    // A result still being encoded is measured on a sample (its text's exact size replaces it when
    // encoded): measuring a million decoded rows was itself a ~0.1 s pass on the event loop.
    this.retainedBytes.add(key, this.encoding.has(key) && rows ? sampledBytes(rows) : keptBytes(job.encodedRows ?? job.result?.rows));
    for (const [k] of this.retained) {
      const within = this.retained.size <= this.limits.maxJobs && this.retainedCells <= this.limits.maxCells && this.retainedBytes.total <= this.limits.maxBytes;
      if (this.retained.size <= 1 || within) break;
      this.release(k);
      const j = this.jobOf(k);
      if (j?.result) {
        j.result = { ...j.result, rows: undefined };
        dropKeptRows(j);
        j.resultsExpired = true;
        this.expired(k);
      }
    }
  }

  /**
   * Resolves once a large kept result being encoded (see {@link retain}) is encoded, so its pages
   * are read from the text instead of being encoded a second time page by page.
   */
  async encoded(key: string): Promise<void> {
    await this.encoding.get(key);
  }

  /** Replaces a job's decoded rows by their encoded text. */
  private keepEncoded(job: JobRecord, encoded: EncodedRows): void {
    job.encodedRows = encoded;
    job.result = { ...job.result!, rows: undefined };
  }

  /** Forgets a job's kept rows from the accounting (its rows are dropped by the caller). */
  release(key: string): void {
    const cells = this.retained.get(key);
    if (cells === undefined) return;
    this.retained.delete(key);
    this.retainedCells -= cells;
    this.retainedBytes.remove(key);
  }

  /**
   * Result page of a finished query job.
   * @throws BigQueryError notFound when the job's results expired (BigQuery: its anonymous
   *   result table is gone).
   */
  page(key: string, job: JobRecord, startIndex: number, maxResults: number): ResultPage {
    const r = job.result;
    if (job.resultsExpired) {
      const t = anonymousTable(job.projectId, job.jobId);
      throw BigQueryError.tableNotFound(t.projectId, t.datasetId, t.tableId, job.location);
    }
    const cells = this.retained.get(key);
    if (cells !== undefined) {
      // Reading a result keeps it (least recently used goes first).
      this.retained.delete(key);
      this.retained.set(key, cells);
    }
    const fields = r?.schema ?? [];
    const total = resultRowCount(job);
    // At most maxResults rows and MAX_PAGE_BYTES of them (src/jobs/result-bytes.ts).
    const end = pageEnd(job.encodedRows ?? r?.rows ?? [], startIndex, Math.min(total, startIndex + maxResults));
    const next = end < total ? end : undefined;
    if (job.encodedRows) return { fields, encodedRows: job.encodedRows.page(startIndex, end), total, next };
    return { fields, rows: (r?.rows ?? []).slice(startIndex, end), total, next };
  }
}
