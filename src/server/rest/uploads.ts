/**
 * Media uploads of load jobs (BigQuery "Loading data from local files", upload host
 * `/upload/bigquery/v2/projects/{projectId}/jobs`):
 * - `uploadType=multipart`: a `multipart/related` body of exactly two parts, the Job resource as
 *   JSON, then the data; answered with the Job resource.
 * - `uploadType=resumable`: the initiating POST carries the Job resource; the answer is 200 with
 *   `Location` (the session URI, `…&upload_id=<id>`) and `X-GUploader-UploadID`. `PUT`s to the
 *   session URI send the data, whole or in chunks with `Content-Range: bytes a-b/total`; an
 *   incomplete upload is answered 308 with `Range: bytes=0-<last byte received>`, a status probe
 *   `Content-Range: bytes <star>/N` (a star, then the total or a star) too; the last chunk starts the job and answers it.
 * The data is written to a temporary file, the load job's source (load.ts). Errors are BigQuery's
 * envelope (invalid 400; an unknown upload id 404 notFound).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BigQueryError } from '../../errors/errors.js';
import { jobResource } from './job-resources.js';
import type { RestContext } from './context.js';
import { parseJsonBody } from './json-body.js';
import { validateRequestBody } from './request-validation.js';
import { MAX_UPLOAD_REQUEST_BYTES } from '../../config/request-limits.js';
import { UPLOAD_WAIT_MS } from '../../config/timeouts.js';
import type { Job, RequestJson } from '../../types/generated/bigquery-v2.js';

/** How long the upload POST waits for its load job before answering it (src/config/timeouts.ts). */
const WAIT_MS = UPLOAD_WAIT_MS;

interface Session {
  projectId: string;
  body: Job<RequestJson>;
  file: string;
  received: number;
}

function tempFile(): string {
  const dir = path.join(os.tmpdir(), 'bqemu-uploads');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${randomUUID()}.data`);
}

/**
 * The Job resource of an upload, depth-checked and validated like a jobs.insert body. The official
 * Node client writes a table's location into `configuration.load.location` of an upload as well
 * as `jobReference.location` (Table.createLoadJob of a local file), and its location system test
 * passes against BigQuery: that one field is taken as the job's location, not refused.
 */
function parseJob(text: string): Job<RequestJson> {
  const v = parseJsonBody(text);
  const load = (v as { configuration?: { load?: Record<string, unknown> } } | null)?.configuration?.load;
  if (load && typeof load === 'object' && 'location' in load) {
    const job = v as { jobReference?: Record<string, unknown> };
    if (typeof load.location === 'string' && (!job.jobReference || typeof job.jobReference !== 'object' || job.jobReference.location === undefined))
      job.jobReference = { ...(job.jobReference ?? {}), location: load.location };
    delete load.location;
  }
  validateRequestBody('Job', v);
  return v as Job<RequestJson>;
}

/** The two parts of a multipart/related body. @throws BigQueryError invalid for another shape. */
function multipart(contentType: string, body: Buffer): { meta: Job<RequestJson>; data: Buffer } {
  const m = /^multipart\/related\s*;.*?boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) throw BigQueryError.multipartNotRelated(contentType);
  const delim = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delim);
  while (at >= 0) {
    let start = at + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    if (body[start] === 0x0d) start++;
    if (body[start] === 0x0a) start++;
    let end = next;
    if (body[end - 1] === 0x0a) end--;
    if (body[end - 1] === 0x0d) end--;
    parts.push(body.subarray(start, end));
    at = next;
  }
  if (parts.length !== 2) throw BigQueryError.multipartPartCount(parts.length);
  const content = (p: Buffer) => {
    const h = p.indexOf('\r\n\r\n');
    const h2 = p.indexOf('\n\n');
    if (h >= 0 && (h2 < 0 || h <= h2)) return p.subarray(h + 4);
    return h2 >= 0 ? p.subarray(h2 + 2) : p;
  };
  return { meta: parseJob(content(parts[0]).toString('utf8')), data: content(parts[1]) };
}

export function uploadsRoutes(app: FastifyInstance, ctx: RestContext): void {
  type Req = FastifyRequest<{ Params: { projectId: string }; Querystring: Record<string, string>; Body: Buffer }>;
  const sessions = new Map<string, Session>();
  // The bodies are bytes (data, multipart envelopes), not JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const start = async (projectId: string, body: Job<RequestJson>, file: string) => {
    let j;
    try {
      j = await ctx.jobs.insert(projectId, body, file);
    } catch (e) {
      fs.rmSync(file, { force: true });
      throw e;
    }
    await ctx.jobs.waitFor(j, WAIT_MS);
    return jobResource(ctx.baseUrl(), j);
  };

  app.post('/projects/:projectId/jobs', { bodyLimit: MAX_UPLOAD_REQUEST_BYTES }, async (req: Req, reply) => {
    const type = String(req.query.uploadType ?? '');
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (type === 'multipart') {
      const { meta, data } = multipart(String(req.headers['content-type'] ?? ''), raw);
      const file = tempFile();
      fs.writeFileSync(file, data);
      return start(req.params.projectId, meta, file);
    }
    if (type === 'resumable') {
      const body = parseJob(raw.toString('utf8') || '{}');
      if (!body.configuration?.load) throw BigQueryError.requiredParameterMissing('configuration.load');
      const id = randomUUID().replace(/-/g, '');
      const file = tempFile();
      fs.writeFileSync(file, '');
      sessions.set(id, { projectId: req.params.projectId, body, file, received: 0 });
      const location = `${ctx.baseUrl()}/upload/bigquery/v2/projects/${encodeURIComponent(req.params.projectId)}/jobs?uploadType=resumable&upload_id=${id}`;
      reply.header('location', location).header('x-guploader-uploadid', id).status(200);
      return '';
    }
    throw BigQueryError.invalidUploadType(type);
  });

  app.put('/projects/:projectId/jobs', { bodyLimit: MAX_UPLOAD_REQUEST_BYTES }, async (req: Req, reply) => {
    const id = String(req.query.upload_id ?? '');
    const s = sessions.get(id);
    if (!s) throw BigQueryError.uploadNotFound(id);
    const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const range = String(req.headers['content-range'] ?? '');
    let total: number | undefined;
    if (range) {
      const probe = /^bytes \*\/(\d+|\*)$/.exec(range);
      const chunk = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range);
      if (probe) total = probe[1] === '*' ? undefined : Number(probe[1]);
      else if (chunk) {
        if (Number(chunk[1]) !== s.received) throw BigQueryError.contentRangeMismatch(range, s.received);
        fs.appendFileSync(s.file, data);
        s.received += data.length;
        total = chunk[3] === '*' ? undefined : Number(chunk[3]);
      } else throw BigQueryError.invalidContentRange(range);
    } else {
      fs.appendFileSync(s.file, data);
      s.received += data.length;
      total = s.received;
    }
    if (total === undefined || s.received < total) {
      if (s.received > 0) reply.header('range', `bytes=0-${s.received - 1}`);
      reply.status(308);
      return '';
    }
    sessions.delete(id);
    return start(s.projectId, s.body, s.file);
  });
}
