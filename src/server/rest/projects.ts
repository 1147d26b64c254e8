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

export function projectsRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.addHook('onRequest', async (req) => {
    const m = /\/projects\/([^/?]+)/.exec(req.url);
    if (m) ctx.engine.catalog.touchProject(decodeURIComponent(m[1]));
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
