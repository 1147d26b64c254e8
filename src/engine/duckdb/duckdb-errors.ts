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
 * The shapes of DuckDB's own error wording (its error-type prefixes, its type names and its
 * runtime texts). A message of this shape reaching a client is a bug: the lowering produced a
 * query DuckDB rejects, or a runtime error lost BigQuery's wording. The differential suite fails
 * on any such message (test/differential/harness.ts).
 */
export const DUCKDB_MESSAGE_SHAPES: RegExp =
  /\b(?:Binder|Conversion|Catalog|Parser|Invalid Input|Not implemented|Out of Range|Dependency|Constraint|Serialization|INTERNAL) Error\b|No function matches|explicit type casts|Overflow in (?:add|subtract|multipl|negation|SUM)|Overflow on [a-z_]+\(|More than one row returned by a subquery|is out of range!|Unsupported format for casting|Could not (?:convert|cast)|Failure in decode|\b(?:VARCHAR|DECIMAL\(\d+|HUGEINT|BIGINT|BLOB|INTEGER)\b/;

/** The log line of a DuckDB error no rule of {@link mapDuckDBError} recognised (passed through, stripped of its prefix). */
export const UNMAPPED_LOG_MESSAGE = 'DuckDB error not mapped';

/**
 * Maps a DuckDB runtime error to BigQuery's text (docs/ARCHITECTURE.md §4). DuckDB's own text, which never
 * reaches a client, is logged at debug on `log` (the engine's logger, src/config/logger.ts); an
 * error no rule recognises is logged at warn as {@link UNMAPPED_LOG_MESSAGE} (a bug to fix: the
 * differential suite fails on it).
 */
export function mapDuckDBError(e: unknown, log?: Logger): BigQueryError {
  if (e instanceof BigQueryError) return e;
  const original = e instanceof Error ? e.message : String(e);
  const mapped = mapToBigQuery(e);
  if (mapped) {
    log?.debug({ original, reason: mapped.reason, message: mapped.message }, 'DuckDB error mapped');
    return mapped;
  }
  const passed = BigQueryError.runtime(original.split('\n')[0]!.replace(/^[A-Za-z ]+ Error: /, ''));
  log?.warn({ original, message: passed.message }, UNMAPPED_LOG_MESSAGE);
  return passed;
}

/** DuckDB's DECIMAL(38,9) value as it prints it in an overflow (value × 10^9) → ZetaSQL's NUMERIC text (`1.5`). */
function numericText(scaled: string): string {
  const neg = scaled.startsWith('-');
  const digits = (neg ? scaled.slice(1) : scaled).padStart(10, '0');
  const int = digits.slice(0, -9).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(-9).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? '.' + frac : ''}`;
}

function mapToBigQuery(e: unknown): BigQueryError | undefined {
  let msg = e instanceof Error ? e.message : String(e);
  msg = msg.split('\n')[0];
  const udf = jsUdfErrorOf(msg);
  if (udf) return udf;
  if (RESOURCES_EXCEEDED.test(msg)) return BigQueryError.resourcesExceeded();
  // A statement interrupted for a cancelled or timed-out job (Interrupter.interrupt): the job layer
  // answers the cancellation or the timeout; not an unmapped text.
  if (/^INTERRUPT Error: Interrupted!/.test(msg)) return BigQueryError.interrupted();
  // DuckDB's parser stops at 1,000 expression levels; the lowering of a deep GoogleSQL expression
  // reaches it first: BigQuery's answer to too deep nesting.
  if (/Max expression depth limit of \d+ exceeded/.test(msg)) return BigQueryError.outOfStackSpace();
  // The result-size guard's error() (src/engine/result-size.ts) keeps its reason.
  if (msg.endsWith(BigQueryError.responseTooLarge().message)) return BigQueryError.responseTooLarge();
  if (msg.endsWith(BigQueryError.resourcesExceeded().message)) return BigQueryError.resourcesExceeded();
  let m: RegExpExecArray | null;
  // A scalar subquery of several rows: BigQuery's text, not DuckDB's "More than one row returned by a subquery …".
  if (/More than one row returned by a subquery used as an expression/.test(msg)) return BigQueryError.scalarSubqueryTooManyRows();
  // DuckDB's error() raises the lowering's own BigQuery text as an Invalid Input Error.
  if ((m = /^Invalid Input Error: (.*)$/s.exec(msg)) && !DUCKDB_MESSAGE_SHAPES.test(m[1]!)) return BigQueryError.runtime(m[1]!);
  // NUMERIC + and − past 38 digits: ZetaSQL's `numeric overflow: 99999999999999999999999999999 + 1`.
  if ((m = /Overflow in (?:addition|subtraction|add|subtract) of DECIMAL\(38\) \((-?\d+) ([-+]) (-?\d+)\)/.exec(msg)))
    return BigQueryError.numericOverflow(`${numericText(m[1]!)} ${m[2]} ${numericText(m[3]!)}`);
  // CAST(BYTES AS STRING) of bytes that are not UTF-8: ZetaSQL's text.
  if (/could not convert blob to UTF8 string/.test(msg)) return BigQueryError.invalidUtf8Cast();
  if ((m = /Overflow in (addition|subtraction|multiplication) of INT64 \((-?\d+) ([-+*]) (-?\d+)\)/.exec(msg)))
    return BigQueryError.int64Overflow(`${m[2]} ${m[3]} ${m[4]}`);
  // Only INT64's minimum overflows a negation or ABS (BIGNUMERIC's is checked in its UDF): ZetaSQL's
  // text for both (`ABS(-9223372036854775808)` is `int64 overflow: --9223372036854775808` in the reference evaluator).
  if (/Overflow in negation of (?:INT64|numeric value)|Overflow on abs\(-9223372036854775808\)/.test(msg)) return BigQueryError.int64Overflow('--9223372036854775808');
  if (/Overflow|out of range for the destination type|is out of range/.test(msg) && /INT64|BIGINT|HUGEINT/.test(msg))
    return BigQueryError.int64Overflow();
  // A DML write of NULL to a REQUIRED column: DuckDB names its internal table (`t40.a`).
  if ((m = /NOT NULL constraint failed: [^.]+\.(.+)$/.exec(msg))) return BigQueryError.requiredFieldNull(m[1]!);
  if ((m = /Could not convert string '(.*)' to INT64/.exec(msg))) return BigQueryError.badCastValue('int64', m[1]);
  if ((m = /Could not convert string '(.*)' to DOUBLE/.exec(msg))) return BigQueryError.badCastValue('double', m[1]);
  if ((m = /Could not convert string '(.*)' to BOOL/.exec(msg))) return BigQueryError.badCastValue('bool', m[1]);
  if ((m = /Could not convert string '(.*)' to DECIMAL/.exec(msg))) return BigQueryError.invalidTypedValue('NUMERIC', m[1]);
  return undefined;
}
