/**
 * The minimal per-statement catalog the analyzer sees (src/engine/analyze.ts builds it on demand):
 * nested catalogs by path, wildcard tables, and reading ZetaSQL's `Table not found` / `Function not
 * found` errors back into the paths the statement wrote.
 */
import type { CatalogStore, TableMeta } from '../catalog/store.js';
import { BigQueryError } from '../errors/errors.js';
import { resolveTablePath, type NameDefaults, type TableRef } from './names.js';

/**
 * A wildcard table (`dataset.prefix*`, BigQuery "Querying multiple tables using a wildcard
 * table"): every table of the dataset whose id starts with the prefix, with the schema of the
 * most recently created one and the pseudo-column `_TABLE_SUFFIX`. Undefined when none matches.
 */
export function wildcardTable(catalog: CatalogStore, ref: TableRef): TableMeta | undefined {
  if (!ref.tableId.endsWith('*')) return undefined;
  const prefix = ref.tableId.slice(0, -1);
  const matches = catalog.listTables(ref.projectId, ref.datasetId).filter((t) => t.type === 'TABLE' && t.tableId.startsWith(prefix));
  if (!matches.length) return undefined;
  const newest = matches.reduce((a, b) => (b.creationTime >= a.creationTime ? b : a));
  return {
    ...ref,
    type: 'VIEW',
    duckName: '',
    columns: newest.columns,
    creationTime: newest.creationTime,
    lastModifiedTime: newest.lastModifiedTime,
    fields: {},
    wildcard: matches.map((t) => ({ table: t, suffix: t.tableId.slice(prefix.length) })),
  };
}

/**
 * A dataset id that can never exist (BigQuery's rule: letters, digits, underscores) is BigQuery's
 * 400 `invalid` with the path as location (recorded standard_functions/error_invalid_dataset_id).
 */
export function checkDatasetIdInPath(segs: string[], defaults: NameDefaults): void {
  let ref: TableRef;
  try {
    ref = resolveTablePath(segs, defaults);
  } catch {
    return;
  }
  if (!/^[A-Za-z0-9_]+$/.test(ref.datasetId) && ref.datasetId.toUpperCase() !== 'INFORMATION_SCHEMA' && !ref.datasetId.startsWith('region-'))
    throw BigQueryError.invalidDatasetId(ref.datasetId, segs.join('.'));
}

/** The path of ZetaSQL's `Table not found: x` error, if that is what `e` is. */
export function missingTable(e: unknown): string[] | undefined {
  if (!(e instanceof BigQueryError)) return undefined;
  const m = /(?:^|; )Table not found: (.+?)(?: at \[\d+:\d+\])?(?:;.*)?$/.exec(e.message);
  if (!m) return undefined;
  return splitPath(m[1]);
}

/** The routine path of ZetaSQL's `Function not found: x` / `Table-valued function not found: x`. */
export function missingRoutine(e: unknown): { segs: string[]; tvf: boolean } | undefined {
  if (!(e instanceof BigQueryError)) return undefined;
  const m = /(Table-valued function|Function) not found: (.+?)(?: at \[\d+:\d+\]|;|$)/.exec(e.message);
  if (!m) return undefined;
  return { segs: splitPath(m[2]), tvf: m[1] !== 'Function' };
}

/** Splits a path on dots outside backquotes: `` `p.d.t` `` is one segment, p.d.t three (as written). */
export function splitPath(text: string): string[] {
  const segs: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '`') quoted = !quoted;
    else if (ch === '.' && !quoted) {
      segs.push(cur);
      cur = '';
    } else cur += ch;
  }
  segs.push(cur);
  return segs;
}

/** The nested catalog at `segs` under `root`, created on the way (names compare case-insensitively). */
export function subCatalog(root: CatalogProto, segs: string[]): CatalogProto {
  let cur = root;
  for (const s of segs) {
    let next = cur.catalog.find((c) => c.name.toLowerCase() === s.toLowerCase());
    if (!next) {
      next = { name: s, table: [], catalog: [] };
      cur.catalog.push(next);
    }
    cur = next;
  }
  return cur;
}

/** A ZetaSQL SimpleCatalogProto as far as the per-statement catalog fills it (nested by path). */
export interface CatalogProto {
  name: string;
  table: object[];
  catalog: CatalogProto[];
  builtinFunctionOptions?: object;
  customFunction?: object[];
  customTvf?: object[];
  constant?: object[];
}

/** Adds a table at path `segs` under `root` once (names compare case-insensitively). */
export function addTable(root: CatalogProto, segs: string[], table: object): void {
  let cur = root;
  for (const s of segs.slice(0, -1)) {
    let next = cur.catalog.find((c) => c.name.toLowerCase() === s.toLowerCase());
    if (!next) {
      next = { name: s, table: [], catalog: [] };
      cur.catalog.push(next);
    }
    cur = next;
  }
  const name = segs[segs.length - 1].toLowerCase();
  if (!cur.table.some((t) => (t as { name: string }).name.toLowerCase() === name)) cur.table.push(table);
}
