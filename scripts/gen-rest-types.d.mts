/** Path (from the repository root) of the generated REST types. */
export const REST_TYPES_OUT: string;
/** The text of src/types/generated/bigquery-v2.ts generated from the REST discovery document. */
export function generateRestTypes(): string;
