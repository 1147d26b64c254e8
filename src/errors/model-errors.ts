/**
 * BigQuery ML models. The emulator holds no models (BigQuery ML is out of its scope): the REST
 * models.* methods and the model DDL answer as BigQuery does for a model that does not exist, and
 * what would create or evaluate a model is refused as not supported.
 */
import type { BigQueryError } from './bigquery-error.js';
import { resourceNotFound } from './not-found.js';
import { notSupported } from './not-supported.js';

/**
 * 404 `Not found: Model p:d.m` — models.get/patch/delete, DROP/ALTER MODEL of a model that does
 * not exist (BigQuery's `Not found: <Kind> p:d.id` form, as for tables and routines:
 * conformance/fixtures/rest_crud/error_table_not_found; https://cloud.google.com/bigquery/docs/reference/rest/v2/models/get).
 */
export function modelNotFound(project: string, dataset: string, model: string): BigQueryError {
  return resourceNotFound('Model', `${project}:${dataset}.${model}`);
}

/**
 * 400 invalidQuery `<what> (BigQuery ML) is not supported by bqemu` — CREATE MODEL, EXPORT MODEL
 * and the ML.* functions (https://cloud.google.com/bigquery/docs/reference/standard-sql/bigqueryml-syntax-create):
 * the emulator's own refusal, in BigQuery's analysis-error shape (location `query`).
 */
export function bigQueryMlNotSupported(what: string): BigQueryError {
  return notSupported(`${what} (BigQuery ML)`);
}
