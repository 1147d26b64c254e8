/**
 * Bytes processed and billed of a query job (JobStatistics2 totalBytesProcessed /
 * totalBytesBilled), by BigQuery's data size rules: the logical size of the columns a query scans,
 * summed over the tables it references. Per value: INT64, FLOAT64, DATE, DATETIME, TIME,
 * TIMESTAMP 8 bytes; BOOL 1; NUMERIC, INTERVAL, RANGE 16; BIGNUMERIC 32; STRING 2 + UTF-8 bytes;
 * BYTES 2 + bytes; JSON the UTF-8 bytes of its text; GEOGRAPHY 16 + 24 per vertex; ARRAY and STRUCT
 * the sum of their elements / fields; NULL 0. On-demand billing rounds each referenced table's
 * bytes up to whole MB with a 10 MB minimum; a statement that processes nothing bills nothing.
 * Checked against the recorded statistics of the SQL corpus (e.g. standard_functions/tpcds_q43:
 * 712 bytes processed over three tables, 31457280 billed).
 */
import type { Engine, ScannedTable } from '../engine/engine.js';
import { duckFieldNames, quoteIdent } from '../engine/duckdb/types.js';
import type { BqType } from '../types/types.js';

const MB = 1024 * 1024;
/** On-demand minimum billed per referenced table. */
export const MIN_BILLED_PER_TABLE = 10 * MB;

/** A DuckDB expression giving the logical size in bytes of value `x` of type `t` (0 for NULL). */
export function sizeExpr(x: string, t: BqType, depth = 0): string {
  const fixed = (n: number) => `(CASE WHEN ${x} IS NULL THEN 0 ELSE ${n} END)`;
  switch (t.kind) {
    case 'BOOL':
      return fixed(1);
    case 'INT64':
    case 'FLOAT64':
    case 'DATE':
    case 'DATETIME':
    case 'TIME':
    case 'TIMESTAMP':
      return fixed(8);
    case 'NUMERIC':
    case 'INTERVAL':
    case 'RANGE':
      return fixed(16);
    case 'BIGNUMERIC':
      return fixed(32);
    case 'STRING':
      return `coalesce(2 + strlen(${x}), 0)`;
    case 'BYTES':
      return `coalesce(2 + octet_length(${x}), 0)`;
    case 'JSON':
      return `coalesce(strlen(CAST(${x} AS VARCHAR)), 0)`;
    case 'GEOGRAPHY':
      // Stored as WKT: one vertex per coordinate pair.
      return `coalesce(16 + 24 * len(regexp_extract_all(${x}, '-?[0-9.]+(?:[eE][-+]?[0-9]+)?\\s+-?[0-9.]+(?:[eE][-+]?[0-9]+)?')), 0)`;
    case 'ARRAY': {
      const e = `e${depth}`;
      return `coalesce(list_sum(list_transform(${x}, ${e} -> ${sizeExpr(e, t.element, depth + 1)})), 0)`;
    }
    case 'STRUCT': {
      const names = duckFieldNames(t);
      const parts = t.fields.map((f, i) => sizeExpr(`struct_extract(${x}, '${names[i].replace(/'/g, "''")}')`, f.type, depth));
      return parts.length ? `(CASE WHEN ${x} IS NULL THEN 0 ELSE ${parts.join(' + ')} END)` : '0';
    }
  }
}

/**
 * Sizes measured per engine (SQL of the measurement → sizes and the write generation of the table
 * then): a size stays current until that table (or anything, e.g. DDL) is written — a write to
 * another table leaves it (src/engine/duckdb/write-generations.ts).
 */
const cache = new WeakMap<Engine, Map<string, { generation: number; bytes: number; rows: number }>>();
/** Most sizes kept per engine (the oldest go first). */
const MAX_KEPT_SIZES = 10_000;

/** Measurements of stored tables run so far, per engine (a test seam: a kept size runs none). */
const scans = new WeakMap<Engine, number>();
/** How many stored-table size measurements `e` has run (each is a scan of the table in DuckDB). */
export function sizeScans(e: Engine): number {
  return scans.get(e) ?? 0;
}

/** Logical bytes of the scanned columns of one stored table and its row count (views count 0). */
async function tableBytes(e: Engine, s: ScannedTable): Promise<{ bytes: number; rows: number }> {
  const t = s.table;
  if (t.type !== 'TABLE' || !t.duckName) return { bytes: 0, rows: 0 };
  const cols = s.whole ? t.columns : t.columns.filter((c) => s.columns.includes(c.name));
  const sum = cols.length ? cols.map((c) => sizeExpr(quoteIdent(c.name), c.type)).join(' + ') : '0';
  const sql = `SELECT CAST(coalesce(sum(${sum}), 0) AS BIGINT), count(*) FROM ${quoteIdent(t.duckName)}`;
  const tables = [t.duckName];
  const generation = e.db.generations.of(tables);
  let c = cache.get(e);
  if (!c) cache.set(e, (c = new Map()));
  const hit = c.get(sql);
  if (hit && hit.generation === generation) return { bytes: hit.bytes, rows: hit.rows };
  scans.set(e, sizeScans(e) + 1);
  const r = await e.db.withReadScope(tables, () => e.db.readAll(sql));
  const [bytes, rows] = r.getRowsJS()[0];
  const out = { bytes: Number(bytes), rows: Number(rows) };
  // Kept only when the table was not written meanwhile (no write started or ended).
  if (e.db.generations.of(tables) === generation) {
    c.delete(sql);
    c.set(sql, { generation, ...out });
    if (c.size > MAX_KEPT_SIZES) c.delete(c.keys().next().value!);
  }
  return out;
}

/** Bytes processed by one statement's scans, the bytes billed for them and the rows read. */
export async function scanBytes(e: Engine, scans: ScannedTable[]): Promise<{ processed: number; billed: number; rows: number }> {
  let processed = 0;
  let billed = 0;
  let rows = 0;
  for (const s of scans) {
    let n = { bytes: 0, rows: 0 };
    if (s.table.infoSchema) {
      // Recorded: every INFORMATION_SCHEMA query processes (and bills) 10 MB (information_schema/*).
      n = { bytes: MIN_BILLED_PER_TABLE, rows: 0 };
    } else if (s.table.wildcard) {
      // A wildcard table scans each table it matches and bills as one table (partitioning_clustering/wildcard_*).
      for (const m of s.table.wildcard) {
        const x = await tableBytes(e, { table: m.table, columns: s.columns });
        n = { bytes: n.bytes + x.bytes, rows: n.rows + x.rows };
      }
    } else if (s.table.type === 'TABLE') n = await tableBytes(e, s);
    else continue; // a view: its tables are not measured
    processed += n.bytes;
    rows += n.rows;
    billed += Math.max(MIN_BILLED_PER_TABLE, Math.ceil(n.bytes / MB) * MB);
  }
  // Recorded: a statement that processes no bytes (COUNT(*), an empty table) bills none; one that
  // does bills the minimum for every table it references, an empty MERGE source too
  // (rest_crud/dml_merge_empty_source: 44 bytes, 30 MB billed).
  return { processed, billed: processed > 0 ? billed : 0, rows };
}
