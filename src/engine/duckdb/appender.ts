/**
 * Bulk row insertion through DuckDB's appender (insertAll, query destinations): about 50× faster
 * than batched `INSERT … VALUES` literals, whose parsing dominates (bench insert_all_10k).
 * Only tables whose columns are all scalar go through it; the caller falls back to literals
 * otherwise. Values are the domain values of src/types/types.ts.
 */
import {
  DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBTypeId,
  type DuckDBVector,
  DuckDBDecimalValue,
  DuckDBIntervalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimeValue,
  type DuckDBAppender,
  type DuckDBType,
} from '@duckdb/node-api';
import type { BqType, IntervalValue, Value } from '../../types/types.js';
import { parseDateText, parseDatetimeText, parseTimeText } from '../../types/temporal.js';
import { parseScaled } from '../../types/decimal.js';

type Append = (a: DuckDBAppender, v: Value) => void;

const fail = (kind: string, v: Value): never => {
  throw new Error(`cannot append ${String(v)} as ${kind}`);
};

const APPEND: Partial<Record<BqType['kind'], Append>> = {
  INT64: (a, v) => a.appendBigInt(typeof v === 'bigint' ? v : BigInt(v as number)),
  FLOAT64: (a, v) => a.appendDouble(v as number),
  BOOL: (a, v) => a.appendBoolean(v as boolean),
  STRING: (a, v) => a.appendVarchar(v as string),
  GEOGRAPHY: (a, v) => a.appendVarchar(v as string),
  JSON: (a, v) => a.appendVarchar(v as string),
  BIGNUMERIC: (a, v) => a.appendVarchar(v as string),
  BYTES: (a, v) => a.appendBlob(v as Uint8Array),
  DATE: (a, v) => a.appendDate(new DuckDBDateValue(parseDateText(v as string) ?? fail('DATE', v))),
  DATETIME: (a, v) => a.appendTimestamp(new DuckDBTimestampValue(parseDatetimeText(v as string) ?? fail('DATETIME', v))),
  TIME: (a, v) => a.appendTime(new DuckDBTimeValue(parseTimeText(v as string) ?? fail('TIME', v))),
  TIMESTAMP: (a, v) => a.appendTimestampTZ(new DuckDBTimestampTZValue(v as bigint)),
  NUMERIC: (a, v) => a.appendDecimal(new DuckDBDecimalValue(parseScaled(v as string, 9) ?? fail('NUMERIC', v), 38, 9)),
  INTERVAL: (a, v) => {
    const i = v as IntervalValue;
    a.appendInterval(new DuckDBIntervalValue(i.months, i.days, i.micros));
  },
};

/** Per-column append functions, or undefined when some column is not a plain scalar. */
export function appendersFor(types: BqType[]): Append[] | undefined {
  const out: Append[] = [];
  for (const t of types) {
    const f = APPEND[t.kind];
    if (!f) return undefined;
    out.push(f);
  }
  return out;
}

/**
 * Appends `rows[from, to)` (values in column order; undefined = the column's DEFAULT) and flushes.
 * @throws the appender's error (constraint violations); the caller runs it in a transaction.
 */
export function appendRows(a: DuckDBAppender, fns: Append[], rows: readonly (Value | undefined)[][], from = 0, to = rows.length): void {
  for (let k = from; k < to; k++) {
    const r = rows[k]!;
    for (let j = 0; j < fns.length; j++) {
      const v = r[j];
      if (v === undefined) a.appendDefault();
      else if (v === null) a.appendNull();
      else fns[j](a, v);
    }
    a.endRow();
  }
  a.flushSync();
}

/** Writes one non-null value into row `i` of a data chunk's vector (the vector's own setItem). */
type SetItem = (vec: DuckDBVector, i: number, v: Value) => void;

/** A column kind's DuckDB vector type and how a domain value is stored in it. */
interface ChunkColumn {
  typeId: DuckDBTypeId;
  set: SetItem;
}

/** setItem with the representation the vector class reads (node-api's vectors take value objects). */
const setAs = (f: (v: Value) => unknown): SetItem => (vec, i, v) => (vec as unknown as { setItem(i: number, x: unknown): void }).setItem(i, f(v));
const asIs = setAs((v) => v);

const CHUNK: Partial<Record<BqType['kind'], ChunkColumn>> = {
  INT64: { typeId: DuckDBTypeId.BIGINT, set: setAs((v) => (typeof v === 'bigint' ? v : BigInt(v as number))) },
  FLOAT64: { typeId: DuckDBTypeId.DOUBLE, set: asIs },
  BOOL: { typeId: DuckDBTypeId.BOOLEAN, set: asIs },
  STRING: { typeId: DuckDBTypeId.VARCHAR, set: asIs },
  GEOGRAPHY: { typeId: DuckDBTypeId.VARCHAR, set: asIs },
  JSON: { typeId: DuckDBTypeId.VARCHAR, set: asIs },
  BIGNUMERIC: { typeId: DuckDBTypeId.VARCHAR, set: asIs },
  BYTES: { typeId: DuckDBTypeId.BLOB, set: setAs((v) => ({ bytes: v as Uint8Array })) },
  TIMESTAMP: { typeId: DuckDBTypeId.TIMESTAMP_TZ, set: setAs((v) => ({ micros: v as bigint })) },
  DATE: { typeId: DuckDBTypeId.DATE, set: setAs((v) => ({ days: parseDateText(v as string) ?? fail('DATE', v) })) },
  DATETIME: { typeId: DuckDBTypeId.TIMESTAMP, set: setAs((v) => ({ micros: parseDatetimeText(v as string) ?? fail('DATETIME', v) })) },
  TIME: { typeId: DuckDBTypeId.TIME, set: setAs((v) => ({ micros: parseTimeText(v as string) ?? fail('TIME', v) })) },
  NUMERIC: { typeId: DuckDBTypeId.DECIMAL, set: setAs((v) => ({ value: parseScaled(v as string, 9) ?? fail('NUMERIC', v) })) },
  INTERVAL: { typeId: DuckDBTypeId.INTERVAL, set: asIs },
};

/**
 * Column-wise appends through DuckDB data chunks (`appendDataChunk`: one native copy per numeric
 * column of up to 2,048 rows, one per string) — about 1.6× the per-value appender on
 * (INT64, FLOAT64, STRING) rows (bench `--only write`). Made for one appender: its columns' DuckDB
 * types must be the ones each BigQuery type lowers to, else {@link chunkAppenderFor} gives
 * undefined and the caller uses {@link appendRows}.
 */
export interface ChunkAppender {
  /**
   * Appends `rows[from, to)` (values in column order) in chunks and flushes; returns false, appending
   * nothing, when some value is `undefined` (the column's DEFAULT, which only the per-value
   * appender can write).
   * @throws the vector's or appender's error for a value DuckDB refuses (the caller rolls back).
   */
  append(rows: readonly (Value | undefined)[][], from?: number, to?: number): boolean;
}

/** A {@link ChunkAppender} for `a` and the BigQuery `types` of its columns, when every column has one. */
export function chunkAppenderFor(a: DuckDBAppender, types: BqType[]): ChunkAppender | undefined {
  if (a.columnCount !== types.length) return undefined;
  const cols: ChunkColumn[] = [];
  const duckTypes: DuckDBType[] = [];
  for (let j = 0; j < types.length; j++) {
    const c = CHUNK[types[j]!.kind];
    const dt = a.columnType(j);
    if (!c || dt.typeId !== c.typeId) return undefined;
    if (c.typeId === DuckDBTypeId.DECIMAL && !('width' in dt && dt.width === 38 && 'scale' in dt && dt.scale === 9)) return undefined;
    cols.push(c);
    duckTypes.push(dt);
  }
  return {
    append(rows, from = 0, to = rows.length) {
      for (let k = from; k < to; k++) {
        const r = rows[k]!;
        for (let j = 0; j < cols.length; j++) if (r[j] === undefined) return false;
      }
      const size = 2048;
      const chunk = DuckDBDataChunk.create(duckTypes);
      for (let at = from; at < to; at += size) {
        const n = Math.min(size, to - at);
        chunk.rowCount = n;
        for (let j = 0; j < cols.length; j++) {
          const vec = chunk.getColumnVector(j);
          const set = cols[j]!.set;
          for (let i = 0; i < n; i++) {
            const v = rows[at + i]![j] as Value;
            if (v === null) vec.setItem(i, null);
            else set(vec, i, v);
          }
          vec.flush();
        }
        a.appendDataChunk(chunk);
      }
      a.flushSync();
      return true;
    },
  };
}

/**
 * Rows the appender takes between two yields to the event loop: filling DuckDB's appender costs
 * about 1 µs per scalar cell (more under load), so 4,096 rows of a few columns stay well under the
 * 50 ms budget.
 */
const APPEND_SLICE_ROWS = 4_096;

/** Lets other callbacks run between two slices of a long append. */
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * Appends every row of `batches` (values in column order; undefined = the column's DEFAULT) to
 * `a`, APPEND_SLICE_ROWS rows at a time with a yield to the event loop between slices, through
 * data chunks where the columns allow ({@link chunkAppenderFor}), else value by value. The caller
 * holds the transaction and closes the appender.
 * @throws the appender's error (constraint violations, values DuckDB refuses).
 */
export async function appendSliced(a: DuckDBAppender, types: BqType[], fns: Append[], batches: readonly (readonly (Value | undefined)[][])[]): Promise<void> {
  const chunks = chunkAppenderFor(a, types);
  let first = true;
  for (const rows of batches)
    for (let i = 0; i < rows.length; i += APPEND_SLICE_ROWS) {
      if (!first) await yieldToLoop();
      first = false;
      const to = Math.min(rows.length, i + APPEND_SLICE_ROWS);
      if (!chunks?.append(rows, i, to)) appendRows(a, fns, rows, i, to);
    }
}
