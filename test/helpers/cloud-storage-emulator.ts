/**
 * Test helper: a Cloud Storage emulator for the `STORAGE_EMULATOR_HOST` tests.
 *
 * - When `BQEMU_TEST_STORAGE_EMULATOR` names a running Cloud Storage emulator (e.g.
 *   `http://127.0.0.1:4443` of fsouza/fake-gcs-server started with `-scheme http`), the tests use
 *   it: `startCloudStorageEmulator` only returns its URL.
 * - Otherwise it starts, in process on a free port of 127.0.0.1, a small server of the Cloud
 *   Storage JSON API (https://cloud.google.com/storage/docs/json_api/v1) — the requests
 *   `@google-cloud/storage` 7.x sends: buckets.insert / buckets.get, objects.list (prefix,
 *   pageToken, maxResults; pages of 2 objects unless asked, so the client pages), objects.get (metadata, and `alt=media` for the bytes), objects.insert
 *   by multipart and resumable upload (`/upload/storage/v1/b/{bucket}/o?uploadType=…`), objects.delete;
 *   under `/storage/v1` and also without it (the client sends `STORAGE_EMULATOR_HOST`'s value as
 *   the JSON API base URL as is). Errors are the JSON API's `{error: {code, message}}` with 404
 *   for a missing bucket or object. Objects carry `size`, `generation`, `md5Hash` and `crc32c`
 *   (base64, the client's own CRC32C) so the client's download and upload validation runs.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CRC32C } from '@google-cloud/storage';

/** An object's CRC32C as the JSON API gives it (base64 of the big-endian value), by the client's own CRC32C. */
function crc32c(bytes: Buffer): string {
  const c = new CRC32C();
  c.update(bytes);
  return c.toString();
}

export interface CloudStorageEmulator {
  /** The value for `STORAGE_EMULATOR_HOST` (`http://127.0.0.1:<port>`). */
  url: string;
  stop(): Promise<void>;
}

interface Obj {
  bytes: Buffer;
  generation: number;
  contentType: string;
  updated: string;
}

/** Starts (or names, with BQEMU_TEST_STORAGE_EMULATOR) a Cloud Storage emulator; stop() ends the one started here. */
export async function startCloudStorageEmulator(): Promise<CloudStorageEmulator> {
  const external = process.env.BQEMU_TEST_STORAGE_EMULATOR;
  if (external) return { url: external.replace(/\/+$/, ''), stop: async () => {} };
  const buckets = new Map<string, Map<string, Obj>>();
  let generation = 1_700_000_000_000_000;
  const sessions = new Map<string, { bucket: string; name: string; contentType: string; chunks: Buffer[]; received: number }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, Buffer.concat(chunks), res);
      } catch (e) {
        send(res, 500, { error: { code: 500, message: String(e) } });
      }
    });
  });
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: http.ServerResponse, what: string) => send(res, 404, { error: { code: 404, message: `${what} not found`, errors: [{ reason: 'notFound', message: `${what} not found` }] } });
  const resource = (bucket: string, name: string, o: Obj) => ({
    kind: 'storage#object',
    id: `${bucket}/${name}/${o.generation}`,
    bucket,
    name,
    size: String(o.bytes.length),
    generation: String(o.generation),
    metageneration: '1',
    contentType: o.contentType,
    updated: o.updated,
    timeCreated: o.updated,
    md5Hash: crypto.createHash('md5').update(o.bytes).digest('base64'),
    crc32c: crc32c(o.bytes),
  });
  const store = (bucket: string, name: string, bytes: Buffer, contentType: string): Obj => {
    const o = { bytes, generation: ++generation, contentType, updated: new Date().toISOString() };
    buckets.get(bucket)!.set(name, o);
    return o;
  };

  function handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const upload = url.pathname.startsWith('/upload/storage/v1/');
    const p = url.pathname.replace(/^\/upload\/storage\/v1/, '').replace(/^\/storage\/v1/, '');
    const q = url.searchParams;
    if (p === '/b' && req.method === 'POST') {
      const { name } = JSON.parse(body.toString('utf8')) as { name: string };
      if (buckets.has(name)) return send(res, 409, { error: { code: 409, message: 'Your previous request to create the named bucket succeeded and you already own it.' } });
      buckets.set(name, new Map());
      return send(res, 200, { kind: 'storage#bucket', id: name, name });
    }
    const m = /^\/b\/([^/]+)(?:\/o(?:\/(.+))?)?$/.exec(p);
    if (!m) return send(res, 400, { error: { code: 400, message: `unsupported path ${url.pathname}` } });
    const bucket = decodeURIComponent(m[1]);
    const objects = buckets.get(bucket);
    if (!objects) return notFound(res, `bucket ${bucket}`);
    if (p === `/b/${m[1]}`) return send(res, 200, { kind: 'storage#bucket', id: bucket, name: bucket });
    if (m[2] === undefined && upload && q.get('uploadType') === 'resumable') {
      // Resumable upload: POST opens a session (its URL in Location), PUTs send the bytes
      // (`Content-Range: bytes a-b/total`, `bytes a-*/total` for all the rest at once; `bytes */total`
      // asks how far it got).
      const id = q.get('upload_id');
      if (req.method === 'POST' && !id) {
        const md = body.length ? (JSON.parse(body.toString('utf8')) as { name?: string; contentType?: string }) : {};
        const name = md.name ?? q.get('name');
        if (!name) return send(res, 400, { error: { code: 400, message: 'resumable upload without a name' } });
        const sid = crypto.randomBytes(8).toString('hex');
        sessions.set(sid, { bucket, name, contentType: md.contentType ?? 'application/octet-stream', chunks: [], received: 0 });
        res.writeHead(200, { location: `http://${req.headers.host}/upload/storage/v1/b/${m[1]}/o?uploadType=resumable&upload_id=${sid}` });
        res.end();
        return;
      }
      const s = id ? sessions.get(id) : undefined;
      if (!s) return notFound(res, `upload session ${id}`);
      const range = /bytes (\d+)-(\d+|\*)\/(\d+|\*)|bytes \*\/(\d+|\*)/.exec(String(req.headers['content-range'] ?? ''));
      if (range?.[1] !== undefined) {
        s.chunks.push(body);
        s.received += body.length;
      }
      const total = range?.[3] ?? range?.[4];
      // `bytes 0-*/…`: the whole object in this one request (the client's single-chunk mode).
      if (range?.[2] === '*' || (total !== undefined && total !== '*' && s.received >= Number(total))) {
        sessions.delete(id!);
        return send(res, 200, resource(bucket, s.name, store(bucket, s.name, Buffer.concat(s.chunks), s.contentType)));
      }
      res.writeHead(308, s.received ? { range: `bytes=0-${s.received - 1}` } : {});
      res.end();
      return;
    }
    if (m[2] === undefined && upload && req.method === 'POST') {
      // Multipart upload: a JSON metadata part, then the media part (multipart/related).
      const boundary = /boundary="?([^";]+)"?/.exec(String(req.headers['content-type']))?.[1];
      if (!boundary) return send(res, 400, { error: { code: 400, message: 'multipart upload without a boundary' } });
      const parts: Buffer[] = [];
      const sep = Buffer.from(`--${boundary}`);
      let at = body.indexOf(sep);
      while (at >= 0) {
        const next = body.indexOf(sep, at + sep.length);
        if (next < 0) break;
        parts.push(body.subarray(at + sep.length, next));
        at = next;
      }
      const [meta, media] = parts.map((part) => {
        const head = part.indexOf('\r\n\r\n');
        return { headers: part.subarray(0, head).toString('latin1'), data: part.subarray(head + 4, part.length - 2) };
      });
      const md = JSON.parse(meta.data.toString('utf8')) as { name?: string; contentType?: string };
      const name = md.name ?? q.get('name');
      if (!name || !media) return send(res, 400, { error: { code: 400, message: 'upload without a name or media' } });
      const type = /content-type:\s*([^\r\n]+)/i.exec(media.headers)?.[1] ?? 'application/octet-stream';
      return send(res, 200, resource(bucket, name, store(bucket, name, Buffer.from(media.data), md.contentType ?? type)));
    }
    if (m[2] === undefined && req.method === 'GET') {
      const prefix = q.get('prefix') ?? '';
      const names = [...objects.keys()].filter((n) => n.startsWith(prefix)).sort();
      const start = Number(q.get('pageToken') ?? 0);
      const size = Number(q.get('maxResults') ?? 2);
      const page = names.slice(start, start + size);
      const out: Record<string, unknown> = { kind: 'storage#objects', items: page.map((n) => resource(bucket, n, objects.get(n)!)) };
      if (start + size < names.length) out.nextPageToken = String(start + size);
      return send(res, 200, out);
    }
    const name = decodeURIComponent(m[2] ?? '');
    const o = objects.get(name);
    if (!o) return notFound(res, `object ${bucket}/${name}`);
    if (req.method === 'DELETE') {
      objects.delete(name);
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET') return send(res, 400, { error: { code: 400, message: `unsupported ${req.method}` } });
    if (q.get('alt') === 'media') {
      const r = resource(bucket, name, o);
      res.writeHead(200, { 'content-type': o.contentType, 'content-length': o.bytes.length, 'x-goog-hash': `crc32c=${r.crc32c},md5=${r.md5Hash}`, 'x-goog-generation': String(o.generation) });
      res.end(o.bytes);
      return;
    }
    return send(res, 200, resource(bucket, name, o));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
