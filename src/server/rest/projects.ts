/**
 * projects.list: projects are implicit; every project id seen in a URL (and the default) is listed.
 * Source: ProjectList in src/server/rest/bigquery-v2-discovery.json.
 */
import type { FastifyInstance } from 'fastify';
import type { RestContext } from './context.js';

export function projectsRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.addHook('onRequest', async (req) => {
    const m = /\/projects\/([^/?]+)/.exec(req.url);
    if (m) ctx.engine.catalog.touchProject(decodeURIComponent(m[1]));
  });
  app.get('/projects', async () => {
    const projects = ctx.engine.catalog.listProjects().map((p) => ({
      kind: 'bigquery#project',
      id: p,
      numericId: '0',
      projectReference: { projectId: p },
      friendlyName: p,
    }));
    return { kind: 'bigquery#projectList', etag: '', projects, totalItems: projects.length };
  });
}
