/**
 * Sizes of a DuckDB chunk's cells read from the vectors themselves, before any value is decoded:
 * a VARCHAR or BLOB vector holds one 16-byte `string_t` per row whose first 4 bytes are the
 * string's length in bytes (https://duckdb.org/docs/stable/clients/c/vector#strings; the same
 * layout src/engine/result-json.ts chunkRuns copies row texts by, through {@link stringTs}).
 */
import duckdbBindings from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';

/**
 * The `string_t`s of column `j` of `chunk` (a VARCHAR or BLOB vector), 16 bytes a row: the length
 * at bytes 0–3 (little-endian), then the string inline (≤ 12 bytes) or its pointer at bytes 8–15.
 */
export function stringTs(chunk: DuckDBDataChunk, j: number): DataView {
  const data = duckdbBindings.vector_get_data(duckdbBindings.data_chunk_get_vector(chunk.chunk, j), chunk.rowCount * 16);
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Bytes counted per cell of a variable-size column held in a fixed-width DuckDB vector (a NUMERIC
 * or BIGNUMERIC as DECIMAL, decoded to a text of at most ~80 characters): 16 + 2 × 90.
 */
const FIXED_VECTOR_CELL_BOUND = 196;

/**
 * An upper bound of the decoded size (src/engine/result-size.ts `approxValueBytes`: 16 + 2 bytes
 * per UTF-16 unit of a string, 16 + the length of a buffer, 8 for NULL) of column `j` of `chunk`:
 * for a VARCHAR/BLOB vector 16 + 2 × the UTF-8 length of each valid cell, 16 for a NULL one (whose
 * `string_t` holds whatever the vector's memory held: lengths of gigabytes were seen); for any
 * other vector {@link FIXED_VECTOR_CELL_BOUND} a cell.
 */
export function variableCellsBound(chunk: DuckDBDataChunk, j: number): number {
  const n = chunk.rowCount;
  const vector = duckdbBindings.data_chunk_get_vector(chunk.chunk, j);
  const type = duckdbBindings.get_type_id(duckdbBindings.vector_get_column_type(vector));
  if (type !== duckdbBindings.Type.VARCHAR && type !== duckdbBindings.Type.BLOB) return n * FIXED_VECTOR_CELL_BOUND;
  const dv = stringTs(chunk, j);
  // DuckDB's validity mask: bit i of the little-endian 64-bit words set when row i is not NULL; none when all are valid.
  const valid = duckdbBindings.vector_get_validity(vector, Math.ceil(n / 64) * 8) as Uint8Array | null;
  let bytes = 0;
  if (!valid) for (let i = 0; i < n; i++) bytes += dv.getUint32(i * 16, true);
  else for (let i = 0; i < n; i++) if (valid[i >> 3]! & (1 << (i & 7))) bytes += dv.getUint32(i * 16, true);
  return n * 16 + 2 * bytes;
}
