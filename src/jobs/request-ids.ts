/**
 * jobs.query `requestId`s (QueryRequest.requestId in the discovery document: a retried request
 * with the same id and parameters within 15 minutes answers the job the first one created).
 * Each remembered request is one flat text `<digest of parameters> <creationTime> <jobId>
 * <location>` under a digest of project and id (~150 bytes a request): the job is named, not
 * held, since its record is replaced by a compact one once it finished (persist.ts).
 */
import { createHash } from 'node:crypto';
import { REQUEST_ID_TTL_MS } from '../config/timeouts.js';
import { flatString } from './persist.js';
import type { JobRecord } from './jobs-model.js';

/** A short digest of a text (parameters; project and request id). */
const digest = (text: string) => createHash('sha1').update(text).digest('base64');

/** The job a remembered request names. */
export interface RequestedJob {
  jobId: string;
  location: string;
  creationTime: number;
}

/** The requests of the last 15 minutes (pruned past 10,000). */
export class RequestIds {
  private requests = new Map<string, string>();

  /**
   * The job an earlier request with this id and the same parameters (`fingerprint`) created,
   * within 15 minutes of its creation (which is the request's).
   */
  find(projectId: string, requestId: string, fingerprint: string): RequestedJob | undefined {
    const r = this.requests.get(digest(JSON.stringify([projectId, requestId])))?.split(' ');
    if (!r || r[0] !== digest(fingerprint) || Date.now() - Number(r[1]) > REQUEST_ID_TTL_MS) return undefined;
    return { creationTime: Number(r[1]), jobId: r[2]!, location: r.slice(3).join(' ') };
  }

  /** Remembers the job a request created (replacing an earlier job of the same id). */
  remember(projectId: string, requestId: string, fingerprint: string, job: JobRecord): void {
    const now = Date.now();
    if (this.requests.size > 10_000) for (const [k, v] of this.requests) if (now - Number(v.split(' ')[1]) > REQUEST_ID_TTL_MS) this.requests.delete(k);
    // A job id holds no space (`[A-Za-z0-9_-]`, src/server/rest/reference-ids.ts); the location comes last.
    this.requests.set(digest(JSON.stringify([projectId, requestId])), flatString(`${digest(fingerprint)} ${job.creationTime} ${job.jobId} ${job.location}`));
  }
}
