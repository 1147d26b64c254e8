/**
 * The mapping point of DuckDB's errors (duckdb-errors.ts). Expected texts are the ZetaSQL
 * reference evaluator's answers to the same queries (BigQuery runs ZetaSQL's function library):
 * `SELECT NUMERIC '99999999999999999999999999999' + NUMERIC '99999999999999999999999999999'`,
 * `SELECT -(-9223372036854775808)`, `SELECT CAST(b'\xff' AS STRING)`.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../config/logger.js';
import { BigQueryError } from '../../errors/errors.js';
import { DUCKDB_MESSAGE_SHAPES, mapDuckDBError, UNMAPPED_LOG_MESSAGE } from './duckdb-errors.js';

describe('mapDuckDBError', () => {
  it("maps DuckDB's runtime texts to ZetaSQL's", () => {
    const cases: [string, string][] = [
      ['Out of Range Error: Overflow in addition of DECIMAL(38) (99999999999999999999999999999000000000 + 99999999999999999999999999999000000000);', 'numeric overflow: 99999999999999999999999999999 + 99999999999999999999999999999'],
      ['Out of Range Error: Overflow in subtraction of DECIMAL(38) (-1500000000 - 99999999999999999999999999999000000000);', 'numeric overflow: -1.5 - 99999999999999999999999999999'],
      ['Out of Range Error: Overflow in negation of numeric value!', 'int64 overflow: --9223372036854775808'],
      ['Out of Range Error: Overflow in subtract of DECIMAL(38) (99999999999999999999999999999999999999 - -3000000000);', 'numeric overflow: 99999999999999999999999999999.999999999 - -3'],
      ['Conversion Error: Failure in decode: could not convert blob to UTF8 string, the blob contained invalid UTF8 characters.', 'Invalid cast of bytes to UTF8 string'],
    ];
    for (const [duck, bq] of cases) {
      const e = mapDuckDBError(new Error(duck));
      expect(e.message).toBe(bq);
      expect(e.reason).toBe('invalidQuery');
    }
  });

  it('logs an error no rule knows as unmapped, at warn', () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (b: Buffer) => lines.push(b.toString('utf8')));
    const log = createLogger('warn', stream);
    mapDuckDBError(new Error('Binder Error: No function matches the given name and argument types'), log);
    mapDuckDBError(new Error('Out of Range Error: Overflow in negation of numeric value!'), log);
    // DuckDB's text of an interrupted statement (a cancelled job) is known: the interruption.
    expect(mapDuckDBError(new Error('INTERRUPT Error: Interrupted!'), log)).toMatchObject({ message: BigQueryError.interrupted().message, reason: BigQueryError.interrupted().reason });
    log.flush();
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(lines.join('').split(UNMAPPED_LOG_MESSAGE).length - 1).toBe(1);
        resolve();
      }),
    );
  });

  it("recognises DuckDB's wordings, not BigQuery's", () => {
    for (const duck of [
      "No function matches the given name and argument types '+(VARCHAR, VARCHAR)'. You might need to add explicit type casts.",
      'Overflow in addition of DECIMAL(38) (1 + 2)',
      'VARPOP is out of range!',
      'Unsupported format for casting BYTES to STRING: base8',
      'Could not choose a best candidate function for the function call "octet_length("NULL")". In order to select one, please add explicit type casts.',
      'Casting value "1" to type DECIMAL(38,9) failed: value is out of range!',
    ])
      expect(DUCKDB_MESSAGE_SHAPES.test(duck), duck).toBe(true);
    for (const bq of ['int64 overflow: 1 + 9223372036854775807', 'numeric overflow: ROUND(1, 0)', 'division by zero: 1 / 0', 'Invalid cast of bytes to UTF8 string', "Bad int64 value: abc"])
      expect(DUCKDB_MESSAGE_SHAPES.test(bq), bq).toBe(false);
  });
});
