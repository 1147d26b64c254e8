/**
 * BigQuery types → DuckDB storage types, and the DuckDB names of STRUCT fields.
 *
 * INT64 BIGINT; FLOAT64 DOUBLE; NUMERIC DECIMAL(38,9); BIGNUMERIC VARCHAR (canonical decimal text);
 * BOOL BOOLEAN; STRING VARCHAR; BYTES BLOB; DATE DATE; DATETIME TIMESTAMP; TIME TIME; TIMESTAMP
 * TIMESTAMPTZ (sessions run with TimeZone UTC); INTERVAL INTERVAL; JSON JSON; GEOGRAPHY VARCHAR (WKT);
 * ARRAY<T> `T[]`; STRUCT `STRUCT("name" T, …)` with names from duckFieldName; RANGE<T>
 * `STRUCT("start" T, "end" T)`.
 */
import type { BqType, ScalarKind } from './types.js';
import { BigQueryError } from '../errors/errors.js';

const SCALAR_DUCK: Record<ScalarKind, string> = {
  INT64: 'BIGINT',
  FLOAT64: 'DOUBLE',
  NUMERIC: 'DECIMAL(38,9)',
  BIGNUMERIC: 'VARCHAR',
  BOOL: 'BOOLEAN',
  STRING: 'VARCHAR',
  BYTES: 'BLOB',
  DATE: 'DATE',
  DATETIME: 'TIMESTAMP',
  TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMPTZ',
  INTERVAL: 'INTERVAL',
  JSON: 'JSON',
  GEOGRAPHY: 'VARCHAR',
};

/** A DuckDB identifier in double quotes (`"` doubled). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

type StructType = Extract<BqType, { kind: 'STRUCT' }>;
const fieldNameCache = new WeakMap<StructType, string[]>();

/**
 * The DuckDB names of a STRUCT's fields: the BigQuery name when it is non-empty and unique
 * (case-insensitively, as DuckDB compares struct keys) within the struct, else `_f<index>`. A kept
 * name that would collide with a generated `_f<k>` of another field is replaced by its own
 * `_f<index>` too, so the result is always a set of distinct names. Cached per type object.
 */
export function duckFieldNames(t: BqType): string[] {
  if (t.kind !== 'STRUCT') throw BigQueryError.notAStruct('duckFieldNames', t.kind);
  const cached = fieldNameCache.get(t);
  if (cached) return cached;
  const counts = new Map<string, number>();
  for (const f of t.fields) if (f.name) counts.set(f.name.toLowerCase(), (counts.get(f.name.toLowerCase()) ?? 0) + 1);
  const generated = t.fields.map((f) => !f.name || counts.get(f.name.toLowerCase())! > 1);
  for (let changed = true; changed; ) {
    changed = false;
    const taken = new Set(t.fields.flatMap((_f, i) => (generated[i] ? [`_f${i}`] : [])));
    t.fields.forEach((f, i) => {
      const low = f.name.toLowerCase();
      if (!generated[i] && taken.has(low) && low !== `_f${i}`) {
        generated[i] = true;
        changed = true;
      }
    });
  }
  const names = t.fields.map((f, i) => (generated[i] ? `_f${i}` : f.name));
  fieldNameCache.set(t, names);
  return names;
}

/** The DuckDB name of field `index` of a STRUCT type (see duckFieldNames). */
export function duckFieldName(structType: BqType, index: number): string {
  return duckFieldNames(structType)[index];
}

/**
 * The DuckDB type of a BigQuery type, e.g. `STRUCT("a" BIGINT, "_f1" VARCHAR[])`.
 * @throws BigQueryError invalidQuery for an empty STRUCT (DuckDB has no zero-field struct).
 */
export function duckType(t: BqType): string {
  if (t.kind !== 'ARRAY' && t.kind !== 'STRUCT' && t.kind !== 'RANGE') return SCALAR_DUCK[t.kind];
  // Memoised per type object: a nested literal spells the type of every level, each containing the
  // levels below it (quadratic in the depth without the cache: ~1 s for 500 nested STRUCTs).
  let s = duckTypeCache.get(t);
  if (s === undefined) duckTypeCache.set(t, (s = spellDuckType(t)));
  return s;
}

const duckTypeCache = new WeakMap<BqType, string>();

function spellDuckType(t: BqType): string {
  switch (t.kind) {
    case 'ARRAY':
      return `${duckType(t.element)}[]`;
    case 'STRUCT': {
      if (t.fields.length === 0) throw BigQueryError.notSupported('STRUCT with no fields');
      const names = duckFieldNames(t);
      return `STRUCT(${t.fields.map((f, i) => `${quoteIdent(names[i])} ${duckType(f.type)}`).join(', ')})`;
    }
    case 'RANGE': {
      const el = duckType(t.element);
      return `STRUCT("start" ${el}, "end" ${el})`;
    }
    default:
      return SCALAR_DUCK[t.kind];
  }
}
