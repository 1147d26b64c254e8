/**
 * A ZetaSQL analyzer client for tests that analyze statements directly (no emulator): BigQuery's
 * language options, UTC, one-line error messages, and a catalog of the builtin functions only.
 */
import { AnalyzerClient } from '../../src/analyzer/client.js';

/** A started analyzer client and `analyze(sql)`: the raw AnalyzeResponse of `sql`. */
export interface TestAnalyzer {
  client: AnalyzerClient;
  analyze(sql: string): Promise<any>;
}

/** Starts an analyzer client (stop it with `client.stop()`). */
export async function startTestAnalyzer(): Promise<TestAnalyzer> {
  const client = new AnalyzerClient();
  await client.start();
  const options = { languageOptions: client.languageOptions, defaultTimezone: 'UTC', errorMessageMode: 'ERROR_MESSAGE_ONE_LINE' };
  const simpleCatalog = { builtinFunctionOptions: { languageOptions: client.languageOptions } };
  return { client, analyze: (sql) => client.call('analyze', { options, simpleCatalog, sqlStatement: sql }) };
}
