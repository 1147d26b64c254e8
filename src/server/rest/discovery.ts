/**
 * `GET /$discovery/rest?version=v2` (and `/discovery/v1/apis/bigquery/v2/rest`): BigQuery's REST
 * discovery document with `rootUrl`/`baseUrl` pointing at the emulator, so `bq --api` works
 * without `--discovery_file` (docs/ARCHITECTURE.md §7). The document is read once, at the first request.
 */
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RestContext } from './context.js';

let doc: Record<string, unknown> | undefined;

/** The discovery document shipped with the package (copied from the shared API folder). */
export function discoveryDocument(): Record<string, unknown> {
  if (!doc) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    doc = JSON.parse(fs.readFileSync(path.join(here, 'bigquery-v2-discovery.json'), 'utf8')) as Record<string, unknown>;
  }
  return doc;
}

export function discoveryRoutes(app: FastifyInstance, ctx: RestContext): void {
  const handler = async () => {
    const root = ctx.baseUrl() + '/';
    return { ...discoveryDocument(), rootUrl: root, baseUrl: root + 'bigquery/v2/', mtlsRootUrl: root };
  };
  app.get('/$discovery/rest', handler);
  app.get('/discovery/v1/apis/bigquery/v2/rest', handler);
}
