/**
 * Errors of ORC load jobs (sourceFormat ORC, src/jobs/load-orc.ts). They are BigQuery's load
 * reading errors — reason `invalid`, the text led by `Error while reading data, error message: `
 * (load-errors.ts readError) — with the emulator's own wording after that prefix: no recording
 * of BigQuery's text for a malformed ORC file is in the repository.
 */
import type { BigQueryError } from './bigquery-error.js';
import { readError } from './load-errors.js';

/**
 * 400 invalid: a source file that is not a readable ORC file (not ORC at all, truncated, a
 * malformed footer or stream): `Error while reading data, error message: Failed to read ORC
 * file <file>: <detail>`, `detail` naming what the decoder found.
 */
export function orcInvalid(file: string, detail: string): BigQueryError {
  return readError(`Failed to read ORC file ${file}: ${detail}`);
}

/**
 * 400 invalid: an ORC list whose elements are lists or maps — "Nested lists and lists of maps
 * are not supported" (BigQuery "Loading ORC data", ORC conversions, list).
 */
export function orcNestedListNotSupported(): BigQueryError {
  return readError('Nested lists and lists of maps are not supported in ORC files');
}

/** 400 invalid: an ORC file whose root type is not a struct, so its columns have no names (the emulator's wording). */
export function orcRootNotStruct(kind: string): BigQueryError {
  return readError(`The root type of an ORC file must be a struct, found ${kind}`);
}

/** 400 invalid: an ORC file compressed with a codec the emulator does not decode (LZO), by its PostScript name. */
export function orcCompressionNotSupported(kind: string): BigQueryError {
  return readError(`ORC compression ${kind} is not supported`);
}

/** 400 invalid: a NULL element in an ORC list, which a REPEATED field cannot hold (the emulator's wording). */
export function orcNullListElement(field: string): BigQueryError {
  return readError(`Field ${field}: a NULL element of an ORC list cannot be loaded into a REPEATED field`);
}

/**
 * 400 invalid: a field that converts to different BigQuery types in two files of one load —
 * "identical fields (with the same name and same nested level) specified in multiple schemas
 * must map to the same converted BigQuery data type" (BigQuery "Loading ORC data", ORC
 * schemas). The emulator's wording.
 */
export function orcFieldTypeMismatch(field: string, found: string, expected: string): BigQueryError {
  return readError(`Field ${field} has type ${found} in one ORC file and ${expected} in the file the schema is taken from`);
}
