/**
 * The function table: every category file's exported table (named after BigQuery's function
 * reference pages, https://cloud.google.com/bigquery/docs/reference/standard-sql/functions-and-operators),
 * assembled once at module load by `buildFunctionTable` (src/functions/registry.ts). A name declared
 * by two files fails the load with a message naming both, so no entry can silently shadow another.
 *
 * To add a function: add its entry to the table of the file named after its reference page (or a
 * sub-topic file of that page); to add a category file, export its table and list it below.
 * `npm run functions:coverage -- --where NAME` answers where a function lives.
 */
import { AEAD_ENCRYPTION_FUNCTIONS } from './aead.js';
import { AGGREGATE_FUNCTIONS } from './aggregate.js';
import { AGGREGATE_MEASURE_FUNCTIONS } from './aggregate-measures.js';
import { DLP_FUNCTIONS } from './dlp.js';
import { FEDERATED_QUERY_FUNCTIONS } from './federated-query.js';
import { GEOGRAPHY_RASTER_FUNCTIONS } from './geography-raster.js';
import { GRAPH_FUNCTIONS } from './graph.js';
import { KLL_FUNCTIONS } from './kll.js';
import { OBJECTREF_FUNCTIONS } from './objectref.js';
import { SEARCH_FUNCTIONS } from './search.js';
import { TEXT_ANALYSIS_FUNCTIONS } from './text-analysis.js';
import { ARRAY_FUNCTIONS } from './array.js';
import { CAST_FORMAT_FUNCTIONS } from './cast-format.js';
import { CONVERSION_FUNCTIONS } from './conversion.js';
import { DATE_TIME_FORMAT_FUNCTIONS } from './date-time-format.js';
import { DATE_TIME_FUNCTIONS } from './date-time.js';
import { TIMESTAMP_CONSTRUCTOR_FUNCTIONS } from './timestamp-functions.js';
import { DEBUGGING_FUNCTIONS } from './debugging.js';
import { GEOGRAPHY_AGGREGATE_FUNCTIONS } from './geography-aggregates.js';
import { GEOGRAPHY_CELL_FUNCTIONS } from './geography-cells.js';
import { GEOGRAPHY_MEASURE_FUNCTIONS } from './geography-measures.js';
import { GEOGRAPHY_PREDICATE_FUNCTIONS } from './geography-predicates.js';
import { GEOGRAPHY_TRANSFORMATION_FUNCTIONS } from './geography-transformations.js';
import { GEOGRAPHY_FUNCTIONS } from './geography.js';
import { HASH_FUNCTIONS } from './hash.js';
import { HLL_FUNCTIONS } from './hll.js';
import { INTERVAL_FUNCTIONS } from './interval.js';
import { JSON_FUNCTIONS } from './json.js';
import { MATH_DISTANCE_FUNCTIONS } from './math-distance.js';
import { MATHEMATICAL_FUNCTIONS } from './math.js';
import { NET_FUNCTIONS } from './net.js';
import { OPERATOR_FUNCTIONS } from './operators.js';
import { PROTOCOL_BUFFER_FUNCTIONS } from './protocol-buffer.js';
import { RANGE_FUNCTIONS } from './range.js';
import { buildFunctionTable, page, type FnEntry, type FnPage, type FnSource } from './registry.js';
import { SECURITY_FUNCTIONS } from './security.js';
import { STRING_ENCODING_FUNCTIONS } from './string-encoding.js';
import { STRING_FORMAT_FUNCTIONS } from './string-format.js';
import { STRING_REGEXP_FUNCTIONS } from './string-regexp.js';
import { STRING_SEARCH_FUNCTIONS } from './string-search.js';
import { STRING_FUNCTIONS } from './string.js';
import { TIME_SERIES_FUNCTIONS } from './time-series.js';
import { UTILITY_FUNCTIONS } from './utility.js';
import { WINDOW_FUNCTIONS } from './window.js';

/** Every category file of the function table, by reference page. */
export const FUNCTION_PAGES: readonly FnPage[] = [
  page('operators.ts', { OPERATOR_FUNCTIONS }),
  page('aggregate.ts', { AGGREGATE_FUNCTIONS }),
  page('aggregate-measures.ts', { AGGREGATE_MEASURE_FUNCTIONS }),
  page('hll.ts', { HLL_FUNCTIONS }),
  page('window.ts', { WINDOW_FUNCTIONS }),
  page('array.ts', { ARRAY_FUNCTIONS }),
  page('conversion.ts', { CONVERSION_FUNCTIONS }),
  page('cast-format.ts', { CAST_FORMAT_FUNCTIONS }),
  page('date-time.ts', { DATE_TIME_FUNCTIONS }),
  page('timestamp-functions.ts', { TIMESTAMP_CONSTRUCTOR_FUNCTIONS }),
  page('date-time-format.ts', { DATE_TIME_FORMAT_FUNCTIONS }),
  page('interval.ts', { INTERVAL_FUNCTIONS }),
  page('time-series.ts', { TIME_SERIES_FUNCTIONS }),
  page('range.ts', { RANGE_FUNCTIONS }),
  page('string.ts', { STRING_FUNCTIONS }),
  page('string-regexp.ts', { STRING_REGEXP_FUNCTIONS }),
  page('string-encoding.ts', { STRING_ENCODING_FUNCTIONS }),
  page('string-format.ts', { STRING_FORMAT_FUNCTIONS }),
  page('string-search.ts', { STRING_SEARCH_FUNCTIONS }),
  page('text-analysis.ts', { TEXT_ANALYSIS_FUNCTIONS }),
  page('search.ts', { SEARCH_FUNCTIONS }),
  page('math.ts', { MATHEMATICAL_FUNCTIONS }),
  page('math-distance.ts', { MATH_DISTANCE_FUNCTIONS }),
  page('hash.ts', { HASH_FUNCTIONS }),
  page('json.ts', { JSON_FUNCTIONS }),
  page('net.ts', { NET_FUNCTIONS }),
  page('aead.ts', { AEAD_ENCRYPTION_FUNCTIONS }),
  page('dlp.ts', { DLP_FUNCTIONS }),
  page('kll.ts', { KLL_FUNCTIONS }),
  page('objectref.ts', { OBJECTREF_FUNCTIONS }),
  page('federated-query.ts', { FEDERATED_QUERY_FUNCTIONS }),
  page('graph.ts', { GRAPH_FUNCTIONS }),
  page('security.ts', { SECURITY_FUNCTIONS }),
  page('debugging.ts', { DEBUGGING_FUNCTIONS }),
  page('utility.ts', { UTILITY_FUNCTIONS }),
  page('protocol-buffer.ts', { PROTOCOL_BUFFER_FUNCTIONS }),
  page('geography.ts', { GEOGRAPHY_FUNCTIONS }),
  page('geography-predicates.ts', { GEOGRAPHY_PREDICATE_FUNCTIONS }),
  page('geography-measures.ts', { GEOGRAPHY_MEASURE_FUNCTIONS }),
  page('geography-transformations.ts', { GEOGRAPHY_TRANSFORMATION_FUNCTIONS }),
  page('geography-aggregates.ts', { GEOGRAPHY_AGGREGATE_FUNCTIONS }),
  page('geography-cells.ts', { GEOGRAPHY_CELL_FUNCTIONS }),
  page('geography-raster.ts', { GEOGRAPHY_RASTER_FUNCTIONS }),
];

const FUNCTIONS = buildFunctionTable(FUNCTION_PAGES);

/**
 * The table entry of a function, by its ZetaSQL name without the `ZetaSQL:` prefix (`$add`,
 * `concat`, `net.host`): a lowering, `{ unsupported: reason }`, or undefined when no file declares it.
 */
export function lookupFunction(name: string): FnEntry | undefined {
  return FUNCTIONS.get(name)?.entry;
}

/** The entry of a function and the category file declaring it; undefined when not registered. */
export function functionSource(name: string): FnSource | undefined {
  return FUNCTIONS.get(name);
}

/** Every registered name, sorted (for the coverage accounting). */
export function registeredNames(): string[] {
  return [...FUNCTIONS.keys()].sort();
}
