/**
 * models: list, get, patch, delete (https://cloud.google.com/bigquery/docs/reference/rest/v2/models).
 * BigQuery ML is out of the emulator's scope and CREATE MODEL is refused (src/engine/models.ts), so
 * no dataset ever holds a model: models.list of an existing dataset answers the empty
 * ListModelsResponse, `{}` (an empty page carries neither `models` nor `nextPageToken`, as the
 * other list methods of src/server/rest/ answer), and models.get/patch/delete answer BigQuery's
 * 404 `Not found: Model p:d.m`. A missing dataset is `Not found: Dataset p:d` first. Request
 * bodies and query parameters are validated against the discovery document before the handlers run
 * (src/server/rest/request-validation.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import { requireDataset, type RestContext } from './context.js';
import type { ListModelsResponse } from '../../types/generated/bigquery-v2.js';

type Params = { projectId: string; datasetId: string; modelId: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string>; Body: unknown }>;

export function modelsRoutes(app: FastifyInstance, ctx: RestContext): void {
  const base = '/projects/:projectId/datasets/:datasetId/models';
  const missing = async (req: Req): Promise<never> => {
    const { projectId, datasetId, modelId } = req.params;
    requireDataset(ctx, projectId, datasetId);
    throw BigQueryError.modelNotFound(projectId, datasetId, modelId);
  };

  app.get(base, async (req: Req): Promise<ListModelsResponse> => {
    requireDataset(ctx, req.params.projectId, req.params.datasetId);
    return {};
  });
  app.get(`${base}/:modelId`, missing);
  app.patch(`${base}/:modelId`, missing);
  app.delete(`${base}/:modelId`, missing);
}
