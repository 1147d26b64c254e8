/**
 * The text analysis functions of BigQuery's text-analysis-functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/text-analysis-functions).
 *
 * BAG_OF_WORDS(tokenized_document ARRAY<STRING>) → ARRAY<STRUCT<term STRING, count INT64>>: one
 * element per distinct term with the number of times it occurs; NULL elements count as the NULL
 * term. The page's example lists the terms in order, NULL first
 * (`[(null, 1), ('I', 1), ('like', 1), ('pie', 3)]`), which is the order produced here (code point
 * order). A NULL document gives NULL. The signature is declared in
 * src/analyzer/catalog-functions.ts.
 *
 * TEXT_ANALYZE and TF_IDF are refused by name: TEXT_ANALYZE's analyzers (LOG_ANALYZER's breakers
 * and normalisation, PATTERN_ANALYZER, analyzer options) are not reproduced by the emulator, and
 * TF_IDF's dictionary (its order among terms of equal frequency) is not fully documented.
 */
import { duckFieldName } from '../types/duckdb-types.js';
import type { FnCall, FnTable } from './registry.js';

function bagOfWords(c: FnCall): string {
  const d = c.args[0];
  const rt = c.returnType;
  if (rt.kind !== 'ARRAY' || rt.element.kind !== 'STRUCT') return 'NULL';
  const [term, count] = [duckFieldName(rt.element, 0), duckFieldName(rt.element, 1)].map((n) => `"${n.replace(/"/g, '""')}"`);
  const bag = `(SELECT list(struct_pack(${term} := t, ${count} := n) ORDER BY t ASC NULLS FIRST) FROM (SELECT t, count(*) AS n FROM unnest(${d}) AS u(t) GROUP BY t))`;
  return `(CASE WHEN ${d} IS NULL THEN NULL ELSE coalesce(${bag}, CAST([] AS ${c.duckType(rt)})) END)`;
}

/** BAG_OF_WORDS, TEXT_ANALYZE, TF_IDF. */
export const TEXT_ANALYSIS_FUNCTIONS: FnTable = {
  bag_of_words: bagOfWords,
  text_analyze: { unsupported: "BigQuery's text analyzers (LOG_ANALYZER, PATTERN_ANALYZER and analyzer options) are not reproduced by the emulator" },
  tf_idf: { unsupported: 'its dictionary order among terms of equal frequency is not documented, so the emulator cannot reproduce its results' },
};
