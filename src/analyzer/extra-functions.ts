/**
 * BigQuery functions this analyzer build (about 2023) does not know, declared as catalog functions
 * so they analyze with BigQuery's signatures (DESIGN §6; issue 5 deliverable 3). Their lowering
 * lives in the function table under the lower-case name (src/functions).
 *
 * Signatures from the BigQuery function reference: MIN_BY/MAX_BY (aggregate-functions#min_by,
 * #max_by: MIN_BY(x, y) = ANY_VALUE(x HAVING MIN y)); JSON_KEYS (json_functions#json_keys:
 * JSON_KEYS(json_expr[, max_depth]) → ARRAY<STRING>); ST_LINEINTERPOLATEPOINT and ST_LINESUBSTRING
 * (geography_functions).
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

/** `FunctionProto`s (proto-loader JSON form) added to every statement's catalog. */
export const EXTRA_FUNCTIONS = [
  {
    namePath: ['min_by'],
    group: 'BigQuery',
    mode: 'AGGREGATE',
    signature: [{ argument: [any1, any2], returnType: any1, contextId: '1' }],
    options: { supportsOverClause: true, windowOrderingSupport: 'ORDER_OPTIONAL', supportsWindowFraming: true, supportsOrderByInAggregate: false },
  },
  {
    namePath: ['max_by'],
    group: 'BigQuery',
    mode: 'AGGREGATE',
    signature: [{ argument: [any1, any2], returnType: any1, contextId: '2' }],
    options: { supportsOverClause: true, windowOrderingSupport: 'ORDER_OPTIONAL', supportsWindowFraming: true },
  },
  {
    // geography_functions#st_lineinterpolatepoint: (GEOGRAPHY, FLOAT64 fraction) → GEOGRAPHY
    namePath: ['st_lineinterpolatepoint'],
    group: 'BigQuery',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_GEOGRAPHY'), fixed('TYPE_DOUBLE')], returnType: fixed('TYPE_GEOGRAPHY'), contextId: '4' }],
  },
  {
    // geography_functions#st_linesubstring: (GEOGRAPHY, FLOAT64 start, FLOAT64 end) → GEOGRAPHY
    namePath: ['st_linesubstring'],
    group: 'BigQuery',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_GEOGRAPHY'), fixed('TYPE_DOUBLE'), fixed('TYPE_DOUBLE')], returnType: fixed('TYPE_GEOGRAPHY'), contextId: '5' }],
  },
  {
    namePath: ['json_keys'],
    group: 'BigQuery',
    mode: 'SCALAR',
    signature: [{ argument: [fixed('TYPE_JSON'), fixed('TYPE_INT64', true)], returnType: arrayOf('TYPE_STRING'), contextId: '3' }],
  },
];
