/**
 * DuckDB's error texts → BigQuery's: DuckDB's own wording never reaches a client.
 */
import { BigQueryError } from '../../errors/errors.js';
import type { Logger } from '../../config/logger.js';
import { jsUdfErrorOf } from '../../functions/js-udf.js';

/**
 * DuckDB's texts of a query that ran out of memory or built a value past DuckDB's own limits
 * (`Out of Memory Error: …`, `Lists larger than 2^32 elements`, `Cannot create a string of size …`,
 * a full spill directory): BigQuery's "Resources exceeded" for each.
 */
const RESOURCES_EXCEEDED = /^Out of Memory Error|Lists larger than|Cannot create a string of size|could not allocate|failed to allocate|Failed to (?:create|write) (?:the )?(?:temporary|temp)|maximum temp directory size|max_temp_directory_size/i;

/**
 * Maps a DuckDB runtime error to BigQuery's text (docs/ARCHITECTURE.md §4). DuckDB's own text, which never
 * reaches a client, is logged at debug on `log` (the engine's logger, src/config/logger.ts).
 */
export function mapDuckDBError(e: unknown, log?: Logger): BigQueryError {
  if (e instanceof BigQueryError) return e;
  const mapped = mapToBigQuery(e);
  log?.debug({ original: e instanceof Error ? e.message : String(e), reason: mapped.reason, message: mapped.message }, 'DuckDB error mapped');
  return mapped;
}

function mapToBigQuery(e: unknown): BigQueryError {
  let msg = e instanceof Error ? e.message : String(e);
  msg = msg.split('\n')[0];
  const udf = jsUdfErrorOf(msg);
  if (udf) return udf;
  if (RESOURCES_EXCEEDED.test(msg)) return BigQueryError.resourcesExceeded();
  // DuckDB's parser stops at 1,000 expression levels; the lowering of a deep GoogleSQL expression
  // reaches it first: BigQuery's answer to too deep nesting.
  if (/Max expression depth limit of \d+ exceeded/.test(msg)) return BigQueryError.outOfStackSpace();
  // The result-size guard's error() (src/engine/result-size.ts) keeps its reason.
  if (msg.endsWith(BigQueryError.responseTooLarge().message)) return BigQueryError.responseTooLarge();
  if (msg.endsWith(BigQueryError.resourcesExceeded().message)) return BigQueryError.resourcesExceeded();
  let m: RegExpExecArray | null;
  if ((m = /^Invalid Input Error: (.*)$/s.exec(msg))) return BigQueryError.runtime(m[1]);
  if ((m = /Overflow in (addition|subtraction|multiplication) of INT64 \((-?\d+) ([-+*]) (-?\d+)\)/.exec(msg)))
    return BigQueryError.int64Overflow(`${m[2]} ${m[3]} ${m[4]}`);
  if (/Overflow in negation of INT64/.test(msg)) return BigQueryError.int64Overflow();
  if (/Overflow|out of range for the destination type|is out of range/.test(msg) && /INT64|BIGINT|HUGEINT/.test(msg))
    return BigQueryError.int64Overflow();
  if ((m = /Could not convert string '(.*)' to INT64/.exec(msg))) return BigQueryError.badCastValue('int64', m[1]);
  if ((m = /Could not convert string '(.*)' to DOUBLE/.exec(msg))) return BigQueryError.badCastValue('double', m[1]);
  if ((m = /Could not convert string '(.*)' to BOOL/.exec(msg))) return BigQueryError.badCastValue('bool', m[1]);
  if ((m = /Could not convert string '(.*)' to DECIMAL/.exec(msg))) return BigQueryError.invalidTypedValue('NUMERIC', m[1]);
  return BigQueryError.runtime(msg.replace(/^[A-Za-z ]+ Error: /, ''));
}
