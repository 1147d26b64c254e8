/**
 * ORC files of load jobs (sourceFormat ORC), read by the decoder under orc/ (written from the
 * Apache ORC specification v1) into typed rows.
 *
 * BigQuery's rules ("Loading ORC data from Cloud Storage",
 * https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-orc):
 * - "the table schema is automatically retrieved from the self-describing source data"; with
 *   several files "the alphabetically last file is used", and fields of the same name in the
 *   other files must convert to the same BigQuery type (orc/orc-types.ts for the conversions);
 *   a column another file lacks loads as NULL;
 * - "compressed file footer and stripes" are read (codecs of orc/orc-compression.ts).
 * A file that is not ORC, or is malformed, fails the job with BigQuery's reading error
 * (BigQueryError.orcInvalid). Decoding yields to the event loop between stripes and between
 * slices of ROWS_PER_SLICE rows.
 */
import fs from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileLabel } from '../engine/storage-uris.js';
import { BigQueryError } from '../errors/errors.js';
import type { Column } from '../types/schema.js';
import { typesEqual, type BqType, type Value } from '../types/types.js';
import { columnReader } from './orc/orc-columns.js';
import { openOrc, readStripe, type OrcFile } from './orc/orc-file.js';
import type { OrcType } from './orc/orc-proto.js';
import { ORC_DEFAULT_DECIMAL_TARGETS, bigQueryType, orcColumns, type DecimalTarget, type OrcMappingOptions } from './orc/orc-types.js';

/** The dotted field path of every column id of a type tree (the root is ''). */
function columnNames(types: OrcType[]): string[] {
  const names = new Array<string>(types.length).fill('');
  types.forEach((t, id) =>
    t.subtypes.forEach((c, k) => {
      if (c < names.length) names[c] = t.kind === 'STRUCT' ? [names[id], t.fieldNames[k]].filter(Boolean).join('.') : names[id];
    }),
  );
  return names;
}

/** Rows decoded between two yields to the event loop. */
const ROWS_PER_SLICE = 4096;

/** The rows of one ORC file, with its columns. */
async function readFile(f: string, file: OrcFile, opts: OrcMappingOptions): Promise<{ columns: Column[]; rows: Value[][] }> {
  const { types } = file.footer;
  const columns = orcColumns(types, opts);
  const bqTypes = types.map((_, id) => bigQueryType(types, id, opts));
  const names = columnNames(types);
  const rows: Value[][] = [];
  for (const info of file.footer.stripes) {
    await yieldToLoop();
    const root = columnReader(types, bqTypes, readStripe(file, info), names);
    // A slice of rows at a time, yielding in between (a stripe can hold millions of rows).
    for (let done = 0; done < info.numberOfRows; done += ROWS_PER_SLICE) {
      if (done) await yieldToLoop();
      for (const row of root.read(Math.min(ROWS_PER_SLICE, info.numberOfRows - done)))
        rows.push(row === null ? columns.map(() => null) : (row as Value[]));
    }
  }
  orcCheckRows(f, rows.length, file.footer.numberOfRows);
  return { columns, rows };
}

function orcCheckRows(f: string, got: number, expected: number): void {
  if (got !== expected) throw BigQueryError.orcInvalid(fileLabel(f), `the stripes hold ${got} rows where the footer counts ${expected}`);
}

/** The load options of a JobConfigurationLoad that ORC reading uses. */
function mappingOptions(load: Record<string, any>): OrcMappingOptions {
  const given = Array.isArray(load.decimalTargetTypes) ? (load.decimalTargetTypes as string[]).map((t) => String(t).toUpperCase()) : [];
  const targets = given.filter((t): t is DecimalTarget => t === 'NUMERIC' || t === 'BIGNUMERIC' || t === 'STRING');
  return { decimalTargets: targets.length ? targets : ORC_DEFAULT_DECIMAL_TARGETS };
}

/**
 * Reads the ORC files of a load job: the columns of the alphabetically last file and the rows
 * of every file, as BigQuery values (src/types/types.ts Value) in column order.
 * @param files local paths (source-uris.ts sourceFiles, or a media upload's file)
 * @param load the JobConfigurationLoad (decimalTargetTypes, ignoreUnknownValues)
 * @param tableColumns the destination table's columns, when it exists: with ignoreUnknownValues,
 *   the files' other fields are left out
 * @throws BigQueryError invalid (`Error while reading data, error message: …`) for a file that
 *   is not ORC or is malformed, an LZO-compressed file, a list of lists or of maps, a NULL list
 *   element, or a field whose type differs between files
 */
export async function readOrc(files: string[], load: Record<string, any>, tableColumns?: Column[]): Promise<{ columns: Column[]; rows: Value[][] }> {
  const opts = mappingOptions(load);
  const ordered = [...files].sort();
  const parts: { columns: Column[]; rows: Value[][] }[] = [];
  for (const f of ordered) {
    try {
      const file = openOrc(fs.readFileSync(f));
      parts.push(await readFile(f, file, opts));
    } catch (e) {
      if (e instanceof BigQueryError) throw e;
      // A damaged file can also trip a decoder's own bounds (RangeError, TypeError): a reading error all the same.
      throw BigQueryError.orcInvalid(fileLabel(f), e instanceof Error ? e.message : String(e));
    }
  }
  let columns = parts[parts.length - 1]?.columns ?? [];
  // ignoreUnknownValues: "Avro, Parquet, ORC: Fields in the file schema that don't exist in the
  // table schema" are ignored (JobConfigurationLoad.ignoreUnknownValues).
  if (tableColumns && (load.ignoreUnknownValues === true || load.ignoreUnknownValues === 'true')) {
    const known = new Set(tableColumns.map((c) => c.name.toLowerCase()));
    columns = columns.filter((c) => known.has(c.name.toLowerCase()));
  }
  const rows: Value[][] = [];
  for (const p of parts) {
    if (p.columns === columns) {
      for (let i = 0; i < p.rows.length; i++) {
        if (i % ROWS_PER_SLICE === ROWS_PER_SLICE - 1) await yieldToLoop();
        rows.push(p.rows[i]);
      }
      continue;
    }
    const index = columns.map((c) => p.columns.findIndex((x) => x.name.toLowerCase() === c.name.toLowerCase()));
    index.forEach((k, i) => {
      if (k >= 0 && !typesEqual(p.columns[k].type, columns[i].type)) throw BigQueryError.orcFieldTypeMismatch(columns[i].name, typeName(p.columns[k].type), typeName(columns[i].type));
    });
    for (let j = 0; j < p.rows.length; j++) {
      if (j % ROWS_PER_SLICE === ROWS_PER_SLICE - 1) await yieldToLoop();
      const r = p.rows[j];
      rows.push(index.map((k, i) => (k < 0 ? (columns[i].type.kind === 'ARRAY' ? [] : null) : r[k])));
    }
  }
  return { columns, rows };
}

const typeName = (t: BqType): string => (t.kind === 'ARRAY' ? `ARRAY<${typeName(t.element)}>` : t.kind);
