/**
 * The hand-reviewed cases of conformance/author-docs.ts: for each GoogleSQL documentation example
 * authored as a fixture, its column types (the functions' documented return types) and, where the
 * docs' display form needs interpretation, explicit rows with a note saying why.
 */

/** A JSON number written with its exact text (big integers, documented float digits, NaN). */
export class Raw {
  constructor(readonly text: string) {}
}
export type Val = null | boolean | string | Raw | Val[] | { [k: string]: Val };

/** One authored case. `types` follow the docs' column order (GoogleSQL type names). */
export interface Spec {
  id: string;
  name: string;
  types: string[];
  /** Explicit recorded rows (objects keyed by column) when the display form needs interpretation. */
  rows?: Record<string, Val>[];
  note?: string;
  /** Page of BigQuery's reference when it differs from the doc file's name. */
  page?: string;
}

export const N = (t: string) => new Raw(t);

// ---------------------------------------------------------------------------------------------
// The cases (reviewed by hand against the documented rows)
// ---------------------------------------------------------------------------------------------

export const SPECS: Spec[] = [
  // aggregate-function-calls.md
  { id: 'aggregate-function-calls/aggregate-function-examples-1', name: 'aggcall_count_star_and_column_extremes', types: ['INT64', 'INT64', 'STRING', 'STRING'], note: 'COUNT(*) counts the NULL row, COUNT(fruit) does not; MIN/MAX of STRING ignore NULL.' },
  // aggregate_functions.md
  { id: 'aggregate_functions/array-agg-6', name: 'agg_array_agg_distinct_order_by', types: ['ARRAY<INT64>'], note: 'ARRAY_AGG(DISTINCT x ORDER BY x): element order fixed by the ORDER BY.' },
  { id: 'aggregate_functions/avg-1', name: 'agg_avg_int64', types: ['FLOAT64'], note: 'AVG of INT64 returns FLOAT64.' },
  { id: 'aggregate_functions/avg-2', name: 'agg_avg_distinct', types: ['FLOAT64'] },
  { id: 'aggregate_functions/bit-and-1', name: 'agg_bit_and_hex_literals', types: ['INT64'], note: '0xF001 & 0x00A1 = 1.' },
  { id: 'aggregate_functions/bit-xor-2', name: 'agg_bit_xor', types: ['INT64'] },
  { id: 'aggregate_functions/bit-xor-3', name: 'agg_bit_xor_distinct', types: ['INT64'], note: '1234 XOR 5678 = 4860.' },
  { id: 'aggregate_functions/count-4', name: 'agg_count_distinct_if', types: ['INT64'] },
  { id: 'aggregate_functions/count-5', name: 'agg_count_distinct_if_dates', types: ['INT64'] },
  { id: 'aggregate_functions/count-6', name: 'agg_count_distinct_if_in_subquery', types: ['INT64'] },
  { id: 'aggregate_functions/max-1', name: 'agg_largest_of_unnest', types: ['INT64'] },
  { id: 'aggregate_functions/string-agg-6', name: 'agg_string_agg_distinct_order_limit', types: ['STRING'] },
  { id: 'aggregate_functions/sum-1', name: 'agg_sum_int64', types: ['INT64'] },
  { id: 'aggregate_functions/sum-5', name: 'agg_sum_empty_array_is_null', types: ['INT64'], note: 'SUM over no rows is NULL; the untyped [] is ARRAY<INT64>, so SUM returns INT64.' },
  // array_functions.md
  { id: 'array_functions/array-last-1', name: 'array_last', types: ['STRING'] },
  { id: 'array_functions/array-reverse-1', name: 'array_reverse', types: ['ARRAY<INT64>'] },
  { id: 'array_functions/array-slice-1', name: 'array_slice_positive_offsets', types: ['ARRAY<STRING>'] },
  { id: 'array_functions/array-slice-3', name: 'array_slice_negative_end', types: ['ARRAY<STRING>'] },
  { id: 'array_functions/array-slice-5', name: 'array_slice_both_negative', types: ['ARRAY<STRING>'] },
  { id: 'array_functions/array-slice-9', name: 'array_slice_end_before_start_empty', types: ['ARRAY<STRING>'] },
  { id: 'array_functions/array-to-string-1', name: 'array_to_string_null_text', types: ['STRING'] },
  { id: 'array_functions/generate-array-2', name: 'generate_array_step', types: ['ARRAY<INT64>'] },
  { id: 'array_functions/generate-array-3', name: 'generate_array_negative_step', types: ['ARRAY<INT64>'] },
  {
    id: 'array_functions/generate-array-6',
    name: 'generate_array_null_end',
    types: ['ARRAY<INT64>'],
    rows: [{ example_array: [] }],
    note: 'The docs print NULL (a NULL array). BigQuery translates a NULL ARRAY into an empty ARRAY in query results (data-types "NULLs and the array type"), so the recorded cell is [].',
  },
  { id: 'array_functions/generate-date-array-2', name: 'generate_date_array_two_days', types: ['ARRAY<DATE>'] },
  { id: 'array_functions/generate-date-array-7', name: 'generate_date_array_months', types: ['ARRAY<DATE>'] },
  { id: 'array_functions/generate-timestamp-array-1', name: 'generate_timestamp_array_days', types: ['ARRAY<TIMESTAMP>'], note: 'String arguments are TIMESTAMP literals in the default time zone UTC.' },
  { id: 'array_functions/generate-timestamp-array-2', name: 'generate_timestamp_array_seconds', types: ['ARRAY<TIMESTAMP>'] },
  // arrays.md (BigQuery: "Work with arrays")
  { id: 'arrays/converting-elements-in-an-array-to-rows-in-a-table-1', name: 'arrays_unnest_with_offset_ordered', types: ['STRING', 'INT64'], page: 'https://cloud.google.com/bigquery/docs/arrays' },
  { id: 'arrays/querying-struct-elements-in-an-array-2', name: 'arrays_struct_elements_order_by_sum', types: ['STRING', 'STRING'], page: 'https://cloud.google.com/bigquery/docs/arrays', note: 'Lap sums are all distinct (Rudisha 102.2 is the smallest), so LIMIT 1 is determined.' },
  { id: 'arrays/querying-array-type-fields-in-a-struct-2', name: 'arrays_inner_join_unnest_fastest_lap', types: ['STRING', 'STRING'], page: 'https://cloud.google.com/bigquery/docs/arrays', note: 'The smallest lap (23.2, Kipketer) is unique.' },
  { id: 'arrays/scanning-for-specific-values-1', name: 'arrays_in_unnest', types: ['BOOL'], page: 'https://cloud.google.com/bigquery/docs/arrays' },
  { id: 'arrays/arrays-and-aggregation-2', name: 'arrays_array_agg_order_by', types: ['ARRAY<STRING>'], page: 'https://cloud.google.com/bigquery/docs/arrays' },
  { id: 'arrays/converting-arrays-to-strings-1', name: 'arrays_array_to_string_space', types: ['STRING'], page: 'https://cloud.google.com/bigquery/docs/arrays' },
  // conditional_expressions.md
  { id: 'conditional_expressions/coalesce-2', name: 'cond_coalesce_skips_null', types: ['STRING'] },
  { id: 'conditional_expressions/if-2', name: 'cond_if_false_branch', types: ['INT64', 'INT64', 'STRING'] },
  { id: 'conditional_expressions/ifnull-1', name: 'cond_ifnull', types: ['INT64'] },
  { id: 'conditional_expressions/nullif-1', name: 'cond_nullif_equal_is_null', types: ['INT64'] },
  { id: 'conditional_expressions/nullif-2', name: 'cond_nullif_different', types: ['INT64'] },
  // conversion_functions.md
  { id: 'conversion_functions/cast-as-integer-2', name: 'conv_cast_negative_hex_string', types: ['STRING', 'INT64'], note: '-0x123 = -291.' },
  { id: 'conversion_functions/cast-as-string-6', name: 'conv_cast_interval_to_string', types: ['STRING'] },
  { id: 'conversion_functions/parse-numeric-2', name: 'conv_parse_numeric_exponent', types: ['NUMERIC'], note: '12.34E27 = 1234 followed by 25 zeros.' },
  { id: 'conversion_functions/parse-numeric-3', name: 'conv_parse_numeric_rounds_scale_9', types: ['NUMERIC'] },
  { id: 'conversion_functions/parse-numeric-4', name: 'conv_parse_numeric_spaces_around_sign', types: ['NUMERIC'] },
  { id: 'conversion_functions/parse-numeric-5', name: 'conv_parse_numeric_trailing_sign', types: ['NUMERIC'], note: 'A trailing sign is allowed after the exponent: "12.34e-1-" = -1.234.' },
  { id: 'conversion_functions/parse-numeric-6', name: 'conv_parse_numeric_grouping_commas', types: ['NUMERIC'], note: 'Commas in the integer part are ignored and a trailing sign after whitespace is allowed: 123.45.' },
  { id: 'conversion_functions/parse-bignumeric-4', name: 'conv_parse_bignumeric_spaces_around_sign', types: ['BIGNUMERIC'] },
  { id: 'conversion_functions/safe-cast-1', name: 'conv_safe_cast_bad_int_is_null', types: ['INT64'] },
  { id: 'conversion_functions/cast-as-range-1', name: 'conv_cast_string_to_range_date', types: ['RANGE<DATE>'] },
  { id: 'conversion_functions/cast-as-range-5', name: 'conv_cast_string_to_range_null_end', types: ['RANGE<DATE>'], note: 'A NULL bound in the string is an unbounded end (recorded as null).' },
  // data-types.md
  { id: 'data-types/nulls-and-the-array-type-1', name: 'types_null_array_is_null', types: ['BOOL'] },
  { id: 'data-types/generating-arrays-of-dates-1', name: 'types_generate_date_array_weeks', types: ['ARRAY<DATE>'] },
  // date_functions.md
  { id: 'date_functions/date-1', name: 'date_constructors', types: ['DATE', 'DATE', 'DATE'], note: 'The third column names its time zone explicitly (2016-12-24 22:30 in America/Los_Angeles).' },
  { id: 'date_functions/date-add-1', name: 'date_add_days', types: ['DATE'] },
  { id: 'date_functions/date-diff-1', name: 'date_diff_days', types: ['INT64'] },
  { id: 'date_functions/date-diff-4', name: 'date_diff_week_variants', types: ['INT64', 'INT64', 'INT64'] },
  { id: 'date_functions/date-from-unix-date-1', name: 'date_from_unix_date', types: ['DATE'] },
  { id: 'date_functions/date-trunc-2', name: 'date_trunc_week_monday', types: ['DATE', 'DATE'] },
  { id: 'date_functions/date-trunc-3', name: 'date_trunc_isoyear', types: ['DATE', 'INT64'] },
  { id: 'date_functions/extract-2', name: 'date_extract_iso_and_week_ordered', types: ['DATE', 'INT64', 'INT64', 'INT64', 'INT64'] },
  { id: 'date_functions/extract-3', name: 'date_extract_week_weekday', types: ['DATE', 'INT64', 'INT64'] },
  { id: 'date_functions/format-date-2', name: 'date_format_month_abbrev', types: ['STRING'] },
  { id: 'date_functions/last-day-4', name: 'date_last_day_week_sunday', types: ['DATE'] },
  { id: 'date_functions/unix-date-1', name: 'date_unix_date', types: ['INT64'] },
  // datetime_functions.md
  { id: 'datetime_functions/datetime-1', name: 'datetime_constructors', types: ['DATETIME', 'DATETIME'], note: 'The second column names its time zone explicitly.' },
  { id: 'datetime_functions/datetime-add-1', name: 'datetime_add_minutes', types: ['DATETIME', 'DATETIME'] },
  { id: 'datetime_functions/datetime-diff-3', name: 'datetime_diff_year_isoyear', types: ['INT64', 'INT64'] },
  { id: 'datetime_functions/datetime-trunc-1', name: 'datetime_trunc_day', types: ['DATETIME', 'DATETIME'] },
  { id: 'datetime_functions/extract-2', name: 'datetime_extract_iso_and_week_ordered', types: ['DATETIME', 'INT64', 'INT64', 'INT64', 'INT64'] },
  { id: 'datetime_functions/format-datetime-1', name: 'datetime_format_percent_c', types: ['STRING'] },
  { id: 'datetime_functions/parse-datetime-4', name: 'datetime_parse_12_hour', types: ['DATETIME'] },
  // time_functions.md
  { id: 'time_functions/time-1', name: 'time_constructors', types: ['TIME', 'TIME'], note: 'The second column names its time zone explicitly (07:30 UTC is 23:30 the day before in America/Los_Angeles).' },
  { id: 'time_functions/time-add-1', name: 'time_add_minutes', types: ['TIME', 'TIME'] },
  { id: 'time_functions/time-diff-1', name: 'time_diff_minutes', types: ['TIME', 'TIME', 'INT64'] },
  { id: 'time_functions/time-trunc-1', name: 'time_trunc_hour', types: ['TIME', 'TIME'] },
  { id: 'time_functions/parse-time-4', name: 'time_parse_12_hour', types: ['TIME'] },
  // timestamp_functions.md
  { id: 'timestamp_functions/extract-1', name: 'ts_extract_day_at_time_zone', types: ['INT64', 'INT64'] },
  { id: 'timestamp_functions/format-timestamp-1', name: 'ts_format_percent_c_utc', types: ['STRING'] },
  { id: 'timestamp_functions/string-1', name: 'ts_string_utc', types: ['STRING'] },
  { id: 'timestamp_functions/timestamp-diff-2', name: 'ts_diff_negative_days', types: ['INT64'] },
  { id: 'timestamp_functions/unix-millis-1', name: 'ts_unix_millis', types: ['INT64'] },
  { id: 'timestamp_functions/unix-seconds-2', name: 'ts_unix_seconds_truncates', types: ['INT64'] },
  // hash_functions.md
  { id: 'hash_functions/md5-1', name: 'hash_md5', types: ['BYTES'], note: 'The docs print the 16 bytes in escaped form; recorded as base64.' },
  { id: 'hash_functions/sha1-1', name: 'hash_sha1', types: ['BYTES'], note: 'The docs print the 20 bytes in escaped form; recorded as base64.' },
  // interval_functions.md
  { id: 'interval_functions/extract-3', name: 'interval_extract_year_month', types: ['INT64', 'INT64'] },
  { id: 'interval_functions/justify-days-1', name: 'interval_justify_days', types: ['INTERVAL', 'INTERVAL', 'INTERVAL', 'INTERVAL', 'INTERVAL'], note: 'Canonical Y-M D H:M:S values recorded as the Python client\'s relativedelta text.' },
  { id: 'interval_functions/justify-hours-1', name: 'interval_justify_hours', types: ['INTERVAL', 'INTERVAL', 'INTERVAL', 'INTERVAL'], note: 'Canonical Y-M D H:M:S values recorded as the Python client\'s relativedelta text.' },
  { id: 'interval_functions/justify-interval-1', name: 'interval_justify_interval', types: ['INTERVAL'] },
  // mathematical_functions.md
  { id: 'mathematical_functions/cot-1', name: 'math_cot_and_safe_cot_zero', types: ['FLOAT64', 'FLOAT64'], note: 'COT(1) printed with 17 significant digits; SAFE.COT(0) is NULL.' },
  // statistical_aggregate_functions.md
  { id: 'statistical_aggregate_functions/corr-1', name: 'stat_corr', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/corr-6', name: 'stat_corr_zero_variance_nan', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/covar-pop-1', name: 'stat_covar_pop', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/covar-samp-1', name: 'stat_covar_samp', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/stddev-pop-1', name: 'stat_stddev_pop', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/stddev-samp-2', name: 'stat_stddev_samp_ignores_null', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/var-samp-1', name: 'stat_var_samp', types: ['FLOAT64'] },
  { id: 'statistical_aggregate_functions/var-pop-2', name: 'stat_var_pop_ignores_null', types: ['FLOAT64'] },
  // operators.md
  { id: 'operators/field-access-operator-1', name: 'op_field_access_nested_struct', types: ['STRING'], note: 'The column takes the last field name of the path (country).' },
  { id: 'operators/date-arithmetics-operators-1', name: 'op_date_plus_minus_int', types: ['DATE', 'DATE'] },
  { id: 'operators/quantified-like-operator-3', name: 'op_not_like_filter', types: ['STRING'] },
  {
    id: 'operators/array-elements-field-access-operator-1',
    name: 'op_nested_array_of_struct_literal',
    types: ['ARRAY<STRUCT<sales ARRAY<STRUCT<prices ARRAY<FLOAT64>>>>>'],
    rows: [{ my_array: [{ sales: [{ prices: [N('25.0'), N('75.0')] }, { prices: [N('30.0')] }] }] }],
    note: 'The docs print [{[{[25, 75] prices}, {[30] prices}] sales}] (value-then-field-name style); written out as nested objects. The literals 25.0/75.0/30.0 are FLOAT64.',
  },
  // query-syntax.md
  { id: 'query-syntax/select-1', name: 'qs_select_star_subquery', types: ['STRING', 'STRING'] },
  { id: 'query-syntax/select-expression-3', name: 'qs_select_struct_dot_star', types: ['STRING', 'STRING'] },
  { id: 'query-syntax/select-except-1', name: 'qs_select_except', types: ['STRING', 'INT64'] },
  { id: 'query-syntax/select-replace-1', name: 'qs_select_replace_string', types: ['INT64', 'STRING', 'INT64'] },
  { id: 'query-syntax/select-replace-2', name: 'qs_select_replace_division_float', types: ['INT64', 'STRING', 'FLOAT64'], note: 'quantity/2 uses "/", which returns FLOAT64 for INT64 operands.' },
  { id: 'query-syntax/group-rows-by-grouping-sets-2', name: 'qs_grouping_sets_with_item_set', types: ['STRING', 'STRING', 'INT64'] },
  { id: 'query-syntax/group-rows-by-grouping-sets-3', name: 'qs_grouping_sets_with_rollup', types: ['STRING', 'STRING', 'INT64'], note: 'Repeated rows are identical, so ORDER BY product_type, product_name fixes the output.' },
  { id: 'query-syntax/group-rows-by-rollup-2', name: 'qs_rollup_with_column_set', types: ['STRING', 'STRING', 'INT64'] },
  { id: 'query-syntax/group-rows-by-cube-1', name: 'qs_cube', types: ['STRING', 'STRING', 'INT64'] },
  { id: 'query-syntax/order-by-clause-2', name: 'qs_order_by_nulls_last', types: ['INT64', 'BOOL'] },
  { id: 'query-syntax/order-by-clause-4', name: 'qs_order_by_desc_nulls_first', types: ['INT64', 'BOOL'] },
  { id: 'query-syntax/except-3', name: 'qs_except_distinct_chain', types: ['INT64'] },
  { id: 'query-syntax/limit-and-offset-clause-2', name: 'qs_limit_offset', types: ['STRING'] },
  { id: 'query-syntax/examples-of-allowed-recursive-ctes-5', name: 'qs_recursive_cte_cross_join', types: ['INT64', 'INT64'] },
  { id: 'query-syntax/range-variables-3', name: 'qs_range_variable_as_struct', types: ['STRUCT<x INT64, y INT64>'] },
  // recursive-ctes.md (BigQuery: "Work with recursive CTEs")
  { id: 'recursive-ctes/create-a-recursive-cte-1', name: 'rcte_union_all_iterations', types: ['INT64'], page: 'https://cloud.google.com/bigquery/docs/recursive-ctes' },
  // range-functions.md
  { id: 'range-functions/range-4', name: 'range_constructor_null_start', types: ['RANGE<DATE>'] },
  { id: 'range-functions/range-intersect-1', name: 'range_intersect', types: ['RANGE<DATE>'] },
  { id: 'range-functions/range-overlaps-2', name: 'range_overlaps_disjoint', types: ['BOOL'] },
  { id: 'range-functions/signature-1-1', name: 'range_contains_range', types: ['BOOL'] },
  {
    id: 'range-functions/generate-range-array-4',
    name: 'range_generate_range_array_no_last_partial',
    types: ['ARRAY<RANGE<DATE>>'],
    rows: [{ results: [{ start: '2020-01-01', end: '2020-01-03' }, { start: '2020-01-03', end: '2020-01-05' }] }],
    note: 'The docs print the array over several lines; last_partial_range FALSE drops [2020-01-05, 2020-01-06).',
  },
  // string_functions.md
  { id: 'string_functions/byte-length-1', name: 'str_byte_length_cyrillic', types: ['INT64'] },
  { id: 'string_functions/char-length-1', name: 'str_char_length_cyrillic', types: ['INT64'] },
  { id: 'string_functions/code-points-to-string-1', name: 'str_code_points_to_string', types: ['STRING'] },
  { id: 'string_functions/edit-distance-2', name: 'str_edit_distance', types: ['INT64'] },
  { id: 'string_functions/from-base64-1', name: 'str_from_base64_bytes', types: ['BYTES'], note: 'The docs print octal escapes \\377\\340 (bytes FF E0); recorded as base64 "/+A=".' },
  { id: 'string_functions/initcap-1', name: 'str_initcap_delimiters', types: ['STRING', 'STRING'] },
  { id: 'string_functions/instr-2', name: 'str_instr_second_occurrence', types: ['STRING', 'STRING', 'INT64', 'INT64', 'INT64'] },
  { id: 'string_functions/instr-5', name: 'str_instr_negative_position', types: ['STRING', 'STRING', 'INT64', 'INT64', 'INT64'] },
  { id: 'string_functions/left-2', name: 'str_left_bytes', types: ['BYTES'] },
  { id: 'string_functions/length-1', name: 'str_length_string_and_bytes', types: ['INT64', 'INT64'] },
  { id: 'string_functions/lpad-3', name: 'str_lpad_repeating_pattern', types: ['STRING'] },
  { id: 'string_functions/ltrim-1', name: 'str_ltrim_whitespace', types: ['STRING'] },
  { id: 'string_functions/normalize-1', name: 'str_normalize_nfc_equivalence', types: ['STRING', 'STRING', 'BOOL'], note: 'Both normalized values are U+00EA.' },
  { id: 'string_functions/regexp-contains-4', name: 'str_regexp_contains_alternation_anchors', types: ['STRING', 'BOOL', 'BOOL'] },
  { id: 'string_functions/regexp-extract-1', name: 'str_regexp_extract_prefix', types: ['STRING'] },
  { id: 'string_functions/regexp-instr-3', name: 'str_regexp_instr_occurrences', types: ['INT64', 'INT64', 'INT64'] },
  { id: 'string_functions/regexp-replace-1', name: 'str_regexp_replace_backreference', types: ['STRING'] },
  { id: 'string_functions/regexp-substr-1', name: 'str_regexp_substr', types: ['STRING', 'STRING', 'INT64', 'INT64', 'STRING'] },
  { id: 'string_functions/repeat-1', name: 'str_repeat', types: ['STRING'] },
  { id: 'string_functions/reverse-1', name: 'str_reverse', types: ['STRING'] },
  { id: 'string_functions/rpad-3', name: 'str_rpad_repeating_pattern', types: ['STRING'] },
  { id: 'string_functions/rtrim-2', name: 'str_rtrim_character_set', types: ['STRING'] },
  { id: 'string_functions/substr-2', name: 'str_substr_position_length', types: ['STRING'] },
  { id: 'string_functions/to-base32-1', name: 'str_to_base32', types: ['STRING'] },
  { id: 'string_functions/to-base64-2', name: 'str_to_base64_websafe', types: ['STRING'] },
  { id: 'string_functions/to-code-points-4', name: 'str_to_code_points', types: ['STRING', 'ARRAY<INT64>'] },
  { id: 'string_functions/to-hex-1', name: 'str_to_hex', types: ['BYTES', 'STRING'] },
  { id: 'string_functions/translate-1', name: 'str_translate', types: ['STRING'] },
  { id: 'string_functions/trim-2', name: 'str_trim_character', types: ['STRING'] },
  { id: 'string_functions/upper-1', name: 'str_upper', types: ['STRING'] },
  // json_functions.md
  { id: 'json_functions/json-value-1', name: 'json_value_from_json', types: ['STRING'] },
  { id: 'json_functions/json-value-4', name: 'json_value_quoted_key', types: ['STRING'] },
  { id: 'json_functions/json-extract-scalar-4', name: 'json_extract_scalar_bracket_key', types: ['STRING'] },
  { id: 'json_functions/json-query-3', name: 'json_query_json_input', types: ['JSON'] },
  { id: 'json_functions/json-query-7', name: 'json_query_string_input', types: ['STRING'] },
  { id: 'json_functions/json-value-array-1', name: 'json_value_array', types: ['ARRAY<STRING>'] },
  { id: 'json_functions/bool-1', name: 'json_bool', types: ['BOOL'] },
  { id: 'json_functions/int64-1', name: 'json_int64', types: ['INT64'] },
  { id: 'json_functions/lax-int64-4', name: 'json_lax_int64_rounds', types: ['INT64'], note: 'LAX_INT64 rounds 3.5 half away from zero to 4.' },
  { id: 'json_functions/lax-string-1', name: 'json_lax_string', types: ['STRING'] },
  // format-elements.md
  { id: 'format-elements/format-elements-for-date-and-time-parts-3', name: 'fmt_format_time_percent_r', types: ['STRING'] },
  { id: 'format-elements/format-elements-for-date-and-time-parts-5', name: 'fmt_parse_date_compact', types: ['DATE'] },
  { id: 'format-elements/format-bytes-as-string-1', name: 'fmt_cast_bytes_format_ascii', types: ['STRING'] },
  { id: 'format-elements/format-year-part-as-string-1', name: 'fmt_cast_date_format_yyyy', types: ['STRING'] },
  { id: 'format-elements/format-string-as-month-part-1', name: 'fmt_cast_string_to_date_format_mon', types: ['DATE'] },
];

