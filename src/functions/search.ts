/**
 * The search functions of BigQuery's search_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/search_functions) and the vector
 * index function of the vectorindex_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/vectorindex_functions), each
 * refused by name with its reason: SEARCH evaluates a search-query grammar (AND, OR, parentheses,
 * phrases, backtick terms matched between delimiters, escapes) over the tokens of BigQuery's text
 * analyzers, which the emulator implements for TEXT_ANALYZE (src/functions/text-analyzer.ts) but not
 * for SEARCH's query rules; VECTOR_SEARCH is a table-valued function over a base table (exact or
 * through a vector index) the emulator does not implement; VECTOR_INDEX.STATISTICS reads a vector
 * index, which the emulator does not build.
 */
import type { FnTable } from './registry.js';

/** SEARCH, VECTOR_SEARCH, VECTOR_INDEX.STATISTICS. */
export const SEARCH_FUNCTIONS: FnTable = {
  search: { unsupported: 'its search-query rules (AND/OR, phrases, backtick terms, escapes) over the text analyzers are not implemented by the emulator' },
  vector_search: { unsupported: 'the VECTOR_SEARCH table-valued function is not implemented by the emulator' },
  'vector_index.statistics': { unsupported: 'it reads a vector index, which the emulator does not build' },
};
