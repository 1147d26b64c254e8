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
 * TEXT_ANALYZE(text [, analyzer => name] [, analyzer_options => JSON text]) → ARRAY<STRING>: the
 * terms of the text under BigQuery's text analyzers (src/functions/text-analyzer.ts); NULL text
 * gives NULL; an invalid analyzer or option fails the query with the option at fault.
 *
 * TF_IDF is refused by name: its dictionary (which terms are kept under max_distinct_tokens and
 * frequency_threshold) does not follow from the page, whose examples keep a less frequent term
 * over a more frequent one.
 */
import { duckFieldName } from '../types/duckdb-types.js';
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { analyzeText } from './text-analyzer.js';

// (text, analyzer, options JSON or '' for none) → the terms as a JSON array of strings.
defineUdf('bq_text_analyze', ['VARCHAR', 'VARCHAR', 'VARCHAR'], 'VARCHAR', (text, analyzer, options) => JSON.stringify(analyzeText(text, analyzer, options === '' ? null : options)), { raises: true });

function bagOfWords(c: FnCall): string {
  const d = c.args[0];
  const rt = c.returnType;
  if (rt.kind !== 'ARRAY' || rt.element.kind !== 'STRUCT') return 'NULL';
  const [term, count] = [duckFieldName(rt.element, 0), duckFieldName(rt.element, 1)].map((n) => `"${n.replace(/"/g, '""')}"`);
  const bag = `(SELECT list(struct_pack(${term} := t, ${count} := n) ORDER BY t ASC NULLS FIRST) FROM (SELECT t, count(*) AS n FROM unnest(${d}) AS u(t) GROUP BY t))`;
  return `(CASE WHEN ${d} IS NULL THEN NULL ELSE coalesce(${bag}, CAST([] AS ${c.duckType(rt)})) END)`;
}

function textAnalyze(c: FnCall): string {
  const [text, analyzer, options] = c.args;
  const name = analyzer === undefined ? "'LOG_ANALYZER'" : `coalesce(${analyzer}, 'LOG_ANALYZER')`;
  const opts = options === undefined ? "''" : `coalesce(${options}, '')`;
  return `(CASE WHEN ${text} IS NULL THEN NULL ELSE from_json(bq_text_analyze(${text}, ${name}, ${opts}), '["VARCHAR"]') END)`;
}

/** BAG_OF_WORDS, TEXT_ANALYZE, TF_IDF. */
export const TEXT_ANALYSIS_FUNCTIONS: FnTable = {
  bag_of_words: bagOfWords,
  text_analyze: textAnalyze,
  tf_idf: { unsupported: 'which terms its dictionary keeps under max_distinct_tokens and frequency_threshold is not documented precisely enough to reproduce' },
};
