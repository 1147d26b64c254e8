/**
 * The search functions of BigQuery's search_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/search_functions) and the vector
 * index function of the vectorindex_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/vectorindex_functions), each
 * refused by name with its reason: SEARCH matches the tokens of BigQuery's text analyzers
 * (LOG_ANALYZER's breakers and normalisation, PATTERN_ANALYZER, analyzer options), which the
 * emulator does not reproduce; VECTOR_SEARCH and VECTOR_INDEX.STATISTICS work on vector indexes
 * (and VECTOR_SEARCH's approximate search on their partitioning), which the emulator does not build.
 */
import type { FnTable } from './registry.js';

/** SEARCH, VECTOR_SEARCH, VECTOR_INDEX.STATISTICS. */
export const SEARCH_FUNCTIONS: FnTable = {
  search: { unsupported: "it matches the tokens of BigQuery's text analyzers (LOG_ANALYZER, PATTERN_ANALYZER), which the emulator does not reproduce" },
  vector_search: { unsupported: 'it searches embeddings through vector indexes, which the emulator does not build' },
  'vector_index.statistics': { unsupported: 'it reads a vector index, which the emulator does not build' },
};
