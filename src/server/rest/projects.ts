/**
 * projects.list: projects are implicit; every project id seen in a URL (and the default) is listed,
 * with the emulator's stable project number as `numericId` (src/catalog/project-number.ts).
 * projects.getServiceAccount: the project's BigQuery service account used with Cloud KMS keys.
 * Source: ProjectList and GetServiceAccountResponse in src/server/rest/bigquery-v2-discovery.json.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectNumber } from '../../catalog/project-number.js';
import type { RestContext } from './context.js';

/**
 * The BigQuery service account of a project: `bq-<project number>@bigquery-encryption.iam.gserviceaccount.com`
 * (the account BigQuery uses with customer-managed Cloud KMS keys,
 * https://cloud.google.com/bigquery/docs/customer-managed-encryption).
 */
export function bigQueryServiceAccount(projectId: string): string {
  return `bq-${projectNumber(projectId)}@bigquery-encryption.iam.gserviceaccount.com`;
}

/**
 * Longest project id listed by projects.list: BigQuery's project ids are 6–30 characters, with an
 * optional organisation domain prefix (`example.com:my-project`,
 * https://cloud.google.com/resource-manager/docs/creating-managing-projects#before_you_begin).
 */
const MAX_LISTED_PROJECT_ID_CHARS = 128;

export function projectsRoutes(app: FastifyInstance, ctx: RestContext): void {
  // A project is listed once a request naming it succeeded: a failed request (a malformed or
  // 15,000-character id) adds nothing, so the list cannot grow with garbage.
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode >= 300) return;
    const m = /\/projects\/([^/?]+)/.exec(req.url);
    if (!m) return;
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      return;
    }
    if (id.length <= MAX_LISTED_PROJECT_ID_CHARS && /^[A-Za-z0-9._:-]+$/.test(id)) ctx.engine.catalog.touchProject(id);
  });
  app.get('/projects', async () => {
    const projects = ctx.engine.catalog.listProjects().map((p) => ({
      kind: 'bigquery#project',
      id: p,
      numericId: projectNumber(p),
      projectReference: { projectId: p },
      friendlyName: p,
    }));
    return { kind: 'bigquery#projectList', etag: '', projects, totalItems: projects.length };
  });
  // projects.getServiceAccount (https://cloud.google.com/bigquery/docs/reference/rest/v2/projects/getServiceAccount).
  app.get('/projects/:projectId/serviceAccount', async (req: FastifyRequest<{ Params: { projectId: string } }>) => ({
    kind: 'bigquery#getServiceAccountResponse',
    email: bigQueryServiceAccount(req.params.projectId),
  }));
}
