/** Job records, statistics, result limits and jobs.list filters (jobs.ts). */
import type { StatementResult } from '../engine/engine.js';
import type { EncodedRows } from '../wire/encoded-rows.js';
import { BigQueryError } from '../errors/errors.js';

export type JobState = 'PENDING' | 'RUNNING' | 'DONE';

/** What a finished query job measured (JobStatistics / JobStatistics2). */
export interface JobStats {
  /** Logical bytes of the scanned columns (bytes.ts). */
  bytesProcessed: number;
  bytesBilled: number;
  /** Execution time in ms (the emulator's stand-in for slot-milliseconds). */
  slotMs: number;
  /** Stored tables the job scanned. */
  tablesScanned: number;
  /** Rows of the scanned tables. */
  recordsRead?: number;
}

export interface JobRecord {
  projectId: string;
  jobId: string;
  location: string;
  /**
   * The job named no location and its configuration no dataset: `location` is US until its first
   * statement reads a table, whose dataset's location it then takes (src/jobs/job-location.ts).
   */
  locationByDefault?: boolean;
  configuration: Record<string, any>;
  state: JobState;
  error?: BigQueryError;
  creationTime: number;
  startTime?: number;
  endTime?: number;
  /** The answer (a script's last statement); `rows` is gone once the result expired. */
  result?: StatementResult;
  /** The result rows were dropped (results of older jobs are not kept). */
  resultsExpired?: boolean;
  /**
   * The result rows as REST JSON text (src/wire/encoded-rows.ts), replacing `result.rows` once the
   * job is kept (only when no encoding option changes the text, i.e. no TIMESTAMP in the schema).
   */
  encodedRows?: EncodedRows;
  stats?: JobStats;
  sessionId?: string;
  /** The script job this job is a statement of. */
  parentJobId?: string;
  /** Child jobs (one per statement) of a script job. */
  childJobIds?: string[];
  /** Every error of the job (`status.errors`) when it has more than its errorResult: a load job's bad records. */
  errors?: { reason: string; message: string; location?: string }[];
  /** A load job's JobStatistics3 (load.ts). */
  loadStats?: LoadStats;
  /** A copy job's JobStatistics5 (copy.ts). */
  copyStats?: { copiedRows: number; copiedLogicalBytes: number };
  /** An extract job's JobStatistics4 (extract.ts). */
  extractStats?: { destinationUriFileCounts: number[]; inputBytes: number };
  /** A media upload's data file, the load job's source instead of sourceUris (src/server/rest/uploads.ts). */
  uploadFile?: string;
}

/** JobStatistics3 of a load job (discovery): counts and bytes. */
export interface LoadStats {
  inputFiles: number;
  inputFileBytes: number;
  outputRows: number;
  outputBytes: number;
  badRecords: number;
}

/** Limits on the result rows kept in memory. */
export interface ResultLimits {
  /** Finished jobs whose rows are kept (most recent first). */
  maxJobs: number;
  /** Cells (rows × columns) kept over all jobs; the most recent job's rows are always kept. */
  maxCells: number;
  /** Bytes of rows kept over all jobs (src/jobs/result-bytes.ts); the most recent job's rows are always kept. */
  maxBytes: number;
}

/** Filters of jobs.list. */
export interface JobListFilter {
  states?: JobState[];
  minCreationTime?: number;
  maxCreationTime?: number;
  /** Only the child jobs of this script job (else only top-level jobs). */
  parentJobId?: string;
}
