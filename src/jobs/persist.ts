/**
 * JSON form of job records for `--data-dir` persistence: domain values (bigint, bytes) and errors
 * survive a restart. The same form holds a finished job's record in memory ({@link FinishedJob}).
 */
import { EncodedRows } from '../wire/encoded-rows.js';
import { BigQueryError } from '../errors/errors.js';
import type { JobRecord } from './jobs-model.js';

/** JSON.stringify replacer of job records: bigint → {$n}, bytes → {$b64}. */
function replacer(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return { $n: v.toString() };
  if (v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
  if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data))
    return { $b64: Buffer.from((v as { data: number[] }).data).toString('base64') };
  return v;
}

/** JSON.parse reviver, inverse of {@link replacer}. */
function reviver(_k: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.$n === 'string' && Object.keys(o).length === 1) return BigInt(o.$n);
    if (typeof o.$b64 === 'string' && Object.keys(o).length === 1) return new Uint8Array(Buffer.from(o.$b64, 'base64'));
  }
  return v;
}

/** JSON.parse with {@link reviver}, skipped for a text without its markers (a reviver makes a parse several times slower). */
const parseJson = (s: string): any => (s.includes('{"$') ? JSON.parse(s, reviver) : JSON.parse(s));

/** Serialises a job record (bigint → {$n}, bytes → {$b64}, error → {$err}). */
export function jobToJson(j: JobRecord): string {
  const plain = { ...(j instanceof FinishedJob ? j.toRecord() : j), error: j.error ? { $err: { reason: j.error.reason, message: j.error.message, location: j.error.location, httpStatus: j.error.httpStatus } } : undefined };
  return JSON.stringify(plain, replacer);
}

/** Inverse of {@link jobToJson}. */
export function jobFromJson(s: string): JobRecord {
  const j = JSON.parse(s, reviver);
  // Kept rows are persisted as one text per row (EncodedRows.toJSON).
  if (Array.isArray(j.encodedRows)) j.encodedRows = EncodedRows.fromRowTexts(j.encodedRows as string[]);
  if (j.error?.$err) {
    const e = j.error.$err;
    j.error = BigQueryError.revive(e);
  }
  return j as JobRecord;
}

/** The fields a finished job keeps as properties: jobs.get finds, and jobs.list filters and sorts, by them. */
type HotField = 'projectId' | 'jobId' | 'location' | 'state' | 'creationTime' | 'parentJobId' | 'error';
/** Every other field of a job record, kept in one JSON text by a finished job. */
const COLD_FIELDS = [
  'configuration',
  'locationByDefault',
  'startTime',
  'endTime',
  'result',
  'resultsExpired',
  'encodedRows',
  'stats',
  'sessionId',
  'childJobIds',
  'errors',
  'loadStats',
  'copyStats',
  'extractStats',
  'uploadFile',
] as const satisfies readonly Exclude<keyof JobRecord, HotField>[];
type ColdField = (typeof COLD_FIELDS)[number];
// Compile-time check: every field of JobRecord is hot or cold.
const everyFieldPlaced: Exclude<keyof JobRecord, HotField | ColdField> extends never ? true : never = true;
void everyFieldPlaced;

/**
 * `s` as one flat string: JSON.stringify and concatenation build a string of several linked parts
 * (V8 keeps them as they are: ~32 bytes per part), a copy through UTF-8 is one piece. Only for
 * well-formed text (JSON.stringify escapes lone surrogates).
 */
export function flatString(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/** Texts every job repeats (project ids, locations, a query's result description), one copy each. */
const interned = new Map<string, string>();
const intern = (s: string): string => {
  const x = interned.get(s);
  if (x !== undefined) return x;
  const flat = flatString(s);
  if (interned.size < 10_000) interned.set(flat, flat);
  return flat;
};

/** The last finished job whose fields were read, and those fields (a jobs.get renders one job at a time). */
let lastRead: { job: FinishedJob; cold: Partial<Pick<JobRecord, ColdField>> } | undefined;

/**
 * A finished job's record in memory: the fields jobs.list filters on as properties, every other
 * field in JSON text, parsed when read (the last job read stays parsed). The `result` field (the
 * statement type and result schema: the same for every run of a query) is a text of its own, held
 * once for all jobs with the same one. About half the memory of the record it replaces (~1.3 KB
 * per small query job: 10,000 jobs of history were most of the emulator's memory growth); reads
 * and writes answer what the record held (the statement's byte span is dropped: it is read only
 * when a script's child jobs are made). Only for jobs whose result rows are no longer kept.
 */
export class FinishedJob {
  projectId: string;
  jobId: string;
  location: string;
  state: JobRecord['state'];
  creationTime: number;
  parentJobId: string | undefined;
  error: BigQueryError | undefined;
  private coldJson: string;
  private resultJson: string | undefined;

  /** The finished job of record `j` (its fields are copied; `j` itself is left as it was). */
  constructor(j: JobRecord) {
    this.projectId = intern(j.projectId);
    this.jobId = j.jobId;
    this.location = intern(j.location);
    this.state = j.state;
    this.creationTime = j.creationTime;
    this.parentJobId = j.parentJobId;
    this.error = j.error;
    this.coldJson = '';
    this.store({ ...j, result: j.result && { ...j.result, span: undefined } });
  }

  /** Keeps the cold fields of `fields` as JSON text. */
  private store(fields: Partial<Pick<JobRecord, ColdField>>): void {
    const cold: Record<string, unknown> = {};
    for (const k of COLD_FIELDS) if (k !== 'result' && fields[k] !== undefined) cold[k] = fields[k];
    this.coldJson = flatString(JSON.stringify(cold, replacer));
    this.resultJson = fields.result === undefined ? undefined : intern(JSON.stringify(fields.result, replacer));
  }

  /** The fields held in JSON text, parsed (kept parsed for the last job read). */
  private cold(): Partial<Pick<JobRecord, ColdField>> {
    if (lastRead?.job !== this) {
      const cold = parseJson(this.coldJson);
      if (this.resultJson !== undefined) cold.result = parseJson(this.resultJson);
      lastRead = { job: this, cold };
    }
    return lastRead.cold;
  }

  /** Replaces a field held in JSON text. */
  private setCold(k: ColdField, v: unknown): void {
    const cold = this.cold() as Record<string, unknown>;
    if (v === undefined) delete cold[k];
    else cold[k] = v;
    this.store(cold);
  }

  /** The whole record as a plain object (persistence, copies). */
  toRecord(): JobRecord {
    const { projectId, jobId, location, state, creationTime, parentJobId, error } = this;
    const cold = parseJson(this.coldJson);
    if (this.resultJson !== undefined) cold.result = parseJson(this.resultJson);
    return { projectId, jobId, location, state, creationTime, ...(parentJobId !== undefined ? { parentJobId } : {}), ...(error ? { error } : {}), ...cold } as JobRecord;
  }
}
for (const k of COLD_FIELDS)
  Object.defineProperty(FinishedJob.prototype, k, {
    get(this: FinishedJob) {
      return (this as unknown as { cold(): Record<string, unknown> }).cold()[k];
    },
    set(this: FinishedJob, v: unknown) {
      (this as unknown as { setCold(k: ColdField, v: unknown): void }).setCold(k, v);
    },
    enumerable: true,
  });

/**
 * The compact record of a finished job ({@link FinishedJob}), as a JobRecord; `j` unchanged when it
 * is not DONE or still holds result rows (kept rows are paged from memory).
 */
export function compactJob(j: JobRecord): JobRecord {
  if (j instanceof FinishedJob || j.state !== 'DONE' || j.encodedRows || j.result?.rows) return j;
  return new FinishedJob(j) as unknown as JobRecord;
}
