/**
 * BigQuery table-name resolution (docs/ARCHITECTURE.md §1): path segments as written → (project,
 * dataset, table).
 *
 * Backquoted segments holding dots are split (`\`p.d.t\``, `\`p.d\`.t`, `\`p\`.d.t` all name
 * p.d.t); two parts take the default project, one part takes the default dataset.
 */
import { BigQueryError } from '../errors/errors.js';
import type { SessionState } from './session-state.js';

export interface TableRef {
  projectId: string;
  datasetId: string;
  tableId: string;
}

export interface NameDefaults {
  projectId: string;
  /** Default dataset (REST `defaultDataset`), if any. */
  defaultDataset?: { projectId: string; datasetId: string };
  /** TEMP tables of the script or session running the statement (one-part names resolve here first). */
  temp?: TempScope;
  /**
   * The job's location when the job named one (src/types/locations.ts): datasets of other locations
   * are not found ("Not found: Dataset P:D was not found in location L"); absent: any location.
   */
  location?: string;
}

/**
 * Where a script's or a session's TEMP tables live: a hidden dataset (its id starts with `_`),
 * created on the first CREATE TEMP TABLE; `tables` holds the lower-cased names created so far.
 */
export interface TempScope {
  projectId: string;
  datasetId: string;
  tables: Set<string>;
  /** A session's variables and temp functions (src/engine/session-state.ts); absent outside sessions. */
  session?: SessionState;
}

/**
 * Resolves a table path.
 * @throws BigQueryError invalidQuery when a one-part name has no default dataset, or the path is too long.
 */
export function resolveTablePath(segments: string[], d: NameDefaults): TableRef {
  const parts = segments.flatMap((s) => s.split('.'));
  const shown = parts.join('.');
  if (parts.length === 1) {
    if (d.temp?.tables.has(parts[0].toLowerCase())) return { projectId: d.temp.projectId, datasetId: d.temp.datasetId, tableId: parts[0] };
    if (!d.defaultDataset)
      throw BigQueryError.tableNeedsDataset(shown);
    return { projectId: d.defaultDataset.projectId, datasetId: d.defaultDataset.datasetId, tableId: parts[0] };
  }
  if (parts.length === 2) return { projectId: d.defaultDataset?.projectId ?? d.projectId, datasetId: parts[0], tableId: parts[1] };
  if (parts.length === 3) return { projectId: parts[0], datasetId: parts[1], tableId: parts[2] };
  // Domain-scoped project ids (`example.com:p`) contain a dot: join the leading parts.
  if (parts.length > 3 && parts[parts.length - 3].includes(':'))
    return { projectId: parts.slice(0, -2).join('.'), datasetId: parts[parts.length - 2], tableId: parts[parts.length - 1] };
  throw BigQueryError.invalidTableName(shown);
}

/** `p:d.t`, the form of BigQuery's messages. */
export const refText = (r: TableRef): string => `${r.projectId}:${r.datasetId}.${r.tableId}`;
