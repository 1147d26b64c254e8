/**
 * BigQuery functions this analyzer build (about 2023) does not know, declared as catalog functions
 * so they analyze with BigQuery's signatures (docs/ARCHITECTURE.md §8). Their lowering
 * lives in the function table under the lower-case name (src/functions).
 *
 * Signatures from the BigQuery function reference: MIN_BY/MAX_BY (aggregate-functions#min_by,
 * #max_by: MIN_BY(x, y) = ANY_VALUE(x HAVING MIN y)); JSON_KEYS (json_functions#json_keys:
 * JSON_KEYS(json_expr[, max_depth]) → ARRAY<STRING>); ST_LINEINTERPOLATEPOINT and ST_LINESUBSTRING
 * (geography_functions); EDIT_DISTANCE (string_functions#edit_distance).
 *
 * Each is in the function group `ZetaSQL`, the builtins' group, so the analyzer's messages name it
 * as BigQuery does (`No matching signature for function EDIT_DISTANCE`); any other group is printed
 * as a prefix (`BIGQUERY:EDIT_DISTANCE`).
 */
const any1 = { kind: 'ARG_TYPE_ANY_1', numOccurrences: 1 };
const any2 = { kind: 'ARG_TYPE_ANY_2', numOccurrences: 1 };
const fixed = (typeKind: string, optional = false) => ({
  kind: 'ARG_TYPE_FIXED',
  type: { typeKind },
  numOccurrences: 1,
  ...(optional ? { options: { cardinality: 'OPTIONAL' } } : {}),
});
const arrayOf = (typeKind: string) => ({ kind: 'ARG_TYPE_FIXED', type: { typeKind: 'TYPE_ARRAY', arrayType: { elementType: { typeKind } } }, numOccurrences: 1 });
/** An optional argument that can only be given by name (`directed => TRUE`). */
const namedOnly = (typeKind: string, argumentName: string) => ({ ...fixed(typeKind, true), options: { cardinality: 'OPTIONAL', argumentName, namedArgumentKind: 'NAMED_ONLY' } });
/** ARRAY<STRUCT<dimension, magnitude FLOAT64>>: a sparse vector of the vector distance functions. */
const sparseVector = (dimensionKind: string) => ({
  kind: 'ARG_TYPE_FIXED',
  type: {
    typeKind: 'TYPE_ARRAY',
    arrayType: { elementType: { typeKind: 'TYPE_STRUCT', structType: { field: [{ fieldName: 'dimension', fieldType: { typeKind: dimensionKind } }, { fieldName: 'magnitude', fieldType: { typeKind: 'TYPE_DOUBLE' } }] } } },
  },
  numOccurrences: 1,
});

/** `FunctionProto`s (proto-loader JSON form) added to every statement's catalog. */
export const CATALOG_FUNCTIONS = [
  {
    namePath: ['min_by'],
    group: 'ZetaSQL',
    mode: 'AGGREGATE',
    signature: [{ argument: [any1, any2], returnType: any1, contextId: '1' }],
    options: { supportsOverClause: true, windowOrderingSupport: 'ORDER_OPTIONAL', supportsWindowFraming: true, supportsOrderByInAggregate: false },
  },
  {
    namePath: ['max_by'],
    group: 'ZetaSQL',
    mode: 'AGGREGATE',
    signature: [{ argument: [any1, any2], returnType: any1, contextId: '2' }],
    options: { supportsOverClause: true, windowOrderingSupport: 'ORDER_OPTIONAL', supportsWindowFraming: true },
  },
  {
    // geography_functions#st_lineinterpolatepoint: (GEOGRAPHY, FLOAT64 fraction) → GEOGRAPHY
    namePath: ['st_lineinterpolatepoint'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_GEOGRAPHY'), fixed('TYPE_DOUBLE')], returnType: fixed('TYPE_GEOGRAPHY'), contextId: '4' }],
  },
  {
    // geography_functions#st_linesubstring: (GEOGRAPHY, FLOAT64 start, FLOAT64 end) → GEOGRAPHY
    namePath: ['st_linesubstring'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_GEOGRAPHY'), fixed('TYPE_DOUBLE'), fixed('TYPE_DOUBLE')], returnType: fixed('TYPE_GEOGRAPHY'), contextId: '5' }],
  },
  {
    // string_functions#edit_distance: (STRING, STRING [, max_distance => INT64]) → INT64, and BYTES.
    namePath: ['edit_distance'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: ['TYPE_STRING', 'TYPE_BYTES'].map((k, i) => ({
      argument: [fixed(k), fixed(k), { ...fixed('TYPE_INT64', true), options: { cardinality: 'OPTIONAL', argumentName: 'max_distance', namedArgumentKind: 'NAMED_ONLY' } }],
      returnType: fixed('TYPE_INT64'),
      contextId: String(6 + i),
    })),
  },
  {
    namePath: ['json_keys'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_JSON'), fixed('TYPE_INT64', true)], returnType: arrayOf('TYPE_STRING'), contextId: '3' }],
  },
  // mathematical_functions#cosine_distance, #euclidean_distance: (vector, vector) → FLOAT64, a
  // vector being ARRAY<FLOAT64> or ARRAY<STRUCT<dimension INT64|STRING, magnitude FLOAT64>>
  // (lowering: src/functions/math-distance.ts).
  ...['cosine_distance', 'euclidean_distance'].map((name, n) => ({
    namePath: [name],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [arrayOf('TYPE_DOUBLE'), sparseVector('TYPE_INT64'), sparseVector('TYPE_STRING')].map((v, i) => ({
      argument: [v, v],
      returnType: fixed('TYPE_DOUBLE'),
      contextId: String(30 + 3 * n + i),
    })),
  })),
  // geography_functions#st_hausdorffdistance: (GEOGRAPHY, GEOGRAPHY[, directed => BOOL]) → FLOAT64;
  // #st_hausdorffdwithin: (GEOGRAPHY, GEOGRAPHY, FLOAT64[, directed => BOOL]) → BOOL
  // (lowering: src/functions/geography-measures.ts).
  {
    namePath: ['st_hausdorffdistance'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_GEOGRAPHY'), fixed('TYPE_GEOGRAPHY'), namedOnly('TYPE_BOOL', 'directed')], returnType: fixed('TYPE_DOUBLE'), contextId: '41' }],
  },
  {
    namePath: ['st_hausdorffdwithin'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_GEOGRAPHY'), fixed('TYPE_GEOGRAPHY'), fixed('TYPE_DOUBLE'), namedOnly('TYPE_BOOL', 'directed')], returnType: fixed('TYPE_BOOL'), contextId: '42' }],
  },
  {
    // string_functions#contains_substr: (any expression, STRING search value [, json_scope =>
    // STRING]) → BOOL; the search value is a constant (a literal or constant expression), and so is
    // the scope (lowering: src/functions/string-search.ts).
    namePath: ['contains_substr'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [
      {
        argument: [
          any1,
          { ...fixed('TYPE_STRING'), options: { cardinality: 'REQUIRED', mustBeNonNull: true } },
          { ...namedOnly('TYPE_STRING', 'json_scope'), options: { cardinality: 'OPTIONAL', argumentName: 'json_scope', namedArgumentKind: 'NAMED_ONLY', mustBeConstant: true } },
        ],
        returnType: fixed('TYPE_BOOL'),
        contextId: '43',
      },
    ],
  },
  {
    // text-analysis-functions#bag_of_words: (ARRAY<STRING>) → ARRAY<STRUCT<term STRING, count
    // INT64>> (lowering: src/functions/text-analysis.ts).
    namePath: ['bag_of_words'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [
      {
        argument: [arrayOf('TYPE_STRING')],
        returnType: {
          kind: 'ARG_TYPE_FIXED',
          type: {
            typeKind: 'TYPE_ARRAY',
            arrayType: { elementType: { typeKind: 'TYPE_STRUCT', structType: { field: [{ fieldName: 'term', fieldType: { typeKind: 'TYPE_STRING' } }, { fieldName: 'count', fieldType: { typeKind: 'TYPE_INT64' } }] } } },
          },
          numOccurrences: 1,
        },
        contextId: '44',
      },
    ],
  },
  {
    // text-analysis-functions#text_analyze: (STRING [, analyzer => STRING] [, analyzer_options =>
    // STRING]) → ARRAY<STRING> (lowering: src/functions/text-analysis.ts).
    namePath: ['text_analyze'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_STRING'), namedOnly('TYPE_STRING', 'analyzer'), namedOnly('TYPE_STRING', 'analyzer_options')], returnType: arrayOf('TYPE_STRING'), contextId: '45' }],
  },
  {
    // json_functions#json_flatten: (JSON) → ARRAY<JSON> (lowering: src/functions/json.ts).
    namePath: ['json_flatten'],
    group: 'ZetaSQL',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_JSON')], returnType: arrayOf('TYPE_JSON'), contextId: '40' }],
  },
];
