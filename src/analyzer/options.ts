/**
 * BigQuery's language options for the ZetaSQL analyzer (docs/ARCHITECTURE.md §1): the server's maximum
 * features, every statement kind, product mode EXTERNAL, default time zone UTC, plus the
 * in-development features BigQuery ships, minus the test-only ones.
 */

/** In-development ZetaSQL features that BigQuery has (docs/ARCHITECTURE.md §1). */
export const BIGQUERY_EXTRA_FEATURES = [
  'FEATURE_INTERVAL_TYPE',
  'FEATURE_V_1_4_GROUPING_BUILTIN',
  'FEATURE_V_1_4_GROUPING_SETS',
  'FEATURE_GROUP_BY_ROLLUP',
  'FEATURE_INVERSE_TRIG_FUNCTIONS',
  'FEATURE_V_1_3_COLLATION_SUPPORT',
  'FEATURE_CREATE_TABLE_CLONE',
  'FEATURE_CREATE_TABLE_COPY',
  'FEATURE_ALTER_COLUMN_SET_DATA_TYPE',
  'FEATURE_V_1_3_LIKE_ANY_SOME_ALL',
  'FEATURE_V_1_4_LIKE_ANY_SOME_ALL_ARRAY',
  'FEATURE_V_1_4_LIKE_ANY_SOME_ALL_SUBQUERY',
  'FEATURE_V_1_4_CORRESPONDING',
  'FEATURE_V_1_4_CORRESPONDING_BY',
  'FEATURE_NON_SQL_PROCEDURE',
  'FEATURE_JSON_STRICT_NUMBER_PARSING',
  'FEATURE_TIME_BUCKET_FUNCTIONS',
  'FEATURE_RANGE_TYPE',
  'FEATURE_V_1_3_QUALIFY',
];

/** Features that must stay off: test-only, and ones BigQuery does not have. */
const DROPPED = (f: string) => f.startsWith('FEATURE_TEST_') || f === 'FEATURE_ANONYMIZATION' || f === 'FEATURE_DIFFERENTIAL_PRIVACY';

/** Reserved keywords BigQuery treats as reserved. */
export const RESERVED_KEYWORDS = ['QUALIFY'];

/**
 * Builds the LanguageOptionsProto (proto-loader JSON form) from the server's maximum options.
 * @param maximum the answer of GetLanguageOptions{maximumFeatures:true}
 */
export function bigQueryLanguageOptions(maximum: { enabledLanguageFeatures?: string[] } & Record<string, unknown>) {
  const features = new Set((maximum.enabledLanguageFeatures ?? []).filter((f) => !DROPPED(f)));
  for (const f of BIGQUERY_EXTRA_FEATURES) features.add(f);
  return {
    ...maximum,
    productMode: 'PRODUCT_EXTERNAL',
    nameResolutionMode: 'NAME_RESOLUTION_DEFAULT',
    enabledLanguageFeatures: [...features],
    supportedStatementKinds: [],
    reservedKeywords: RESERVED_KEYWORDS,
  };
}
