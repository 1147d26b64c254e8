/**
 * tables.get and tabledata.list on a query job's anonymous result table (src/jobs/anonymous.ts):
 * the table's schema, row count and rows are the job's result, read through the job manager's
 * result pages. An unknown anonymous table, or one whose job has not finished, is BigQuery's 404
 * `Not found: Table p:d.t`; a result no longer kept is the 404 the job manager raises for it.
 * Source: Table / TableDataList in src/server/rest/bigquery-v2-discovery.json; BigQuery "Writing
 * query results".
 */
import type { TableMeta } from '../../catalog/store.js';
import { BigQueryError } from '../../errors/errors.js';
import { ANONYMOUS_TABLE_TTL_MS } from '../../jobs/anonymous.js';
import type { JobRecord, ResultPage } from '../../jobs/jobs.js';
import { encodeRowsJson, offsetOfToken, pageToken, RawJson, rowsJson, tableResource } from '../../wire/resources.js';
import { pageRowsJson } from '../../wire/encoded-rows.js';
import { timestampEncodeOptions, type CellEncodeOptions } from '../../wire/rest-values.js';
import { intParam, type RestContext } from './context.js';
import type { Table } from '../../types/generated/bigquery-v2.js';

const DEFAULT_PAGE = 100_000;

interface TablePath {
  projectId: string;
  datasetId: string;
  tableId: string;
}

/** The finished job whose anonymous table `p` names. @throws BigQueryError notFound otherwise. */
function jobOf(ctx: RestContext, p: TablePath): JobRecord {
  const j = ctx.jobs.jobOfAnonymousTable(p.projectId, p.datasetId, p.tableId);
  if (!j || j.state !== 'DONE' || j.error || !j.result) throw BigQueryError.tableNotFound(p.projectId, p.datasetId, p.tableId);
  return j;
}

/** The Table resource of an anonymous result table (expires 24 hours after the job ended). */
export function anonymousTableResource(ctx: RestContext, p: TablePath, view?: string): Table {
  const j = jobOf(ctx, p);
  const page = ctx.jobs.page(j, 0, 0);
  const ended = j.endTime ?? j.creationTime;
  const t: TableMeta = {
    projectId: p.projectId,
    datasetId: p.datasetId,
    tableId: p.tableId,
    type: 'TABLE',
    duckName: '',
    columns: page.fields.map((f) => ({ name: f.name, type: f.type, required: !!f.required })),
    creationTime: ended,
    lastModifiedTime: ended,
    fields: { expirationTime: String(ended + ANONYMOUS_TABLE_TTL_MS) },
  };
  return tableResource(ctx.baseUrl(), t, page.total, view);
}

/** The `rows` of a page, keeping only the columns at `pick` (selectedFields) when given. */
function pageRows(page: ResultPage, pick: number[] | undefined, fmt: CellEncodeOptions): RawJson | undefined {
  if (page.encodedRows) {
    if (!page.encodedRows.length) return undefined;
    if (!pick) return pageRowsJson(page.encodedRows);
    return rowsJson(
      page.encodedRows.texts().map((r) => {
        const cells = (JSON.parse(r) as { f: unknown[] }).f;
        return JSON.stringify({ f: pick.map((i) => cells[i]) });
      }),
    );
  }
  const rows = page.rows ?? [];
  if (!rows.length) return undefined;
  const fields = pick ? pick.map((i) => page.fields[i]) : page.fields;
  return encodeRowsJson(fields, pick ? rows.map((r) => pick.map((i) => r[i])) : rows, fmt);
}

/**
 * tabledata.list of an anonymous result table (`startIndex`, `maxResults`, `pageToken`,
 * `selectedFields`, `formatOptions.useInt64Timestamp` / `timestampOutputFormat`), shaped like tabledata.list of a stored table.
 */
export async function anonymousTableData(ctx: RestContext, p: TablePath, q: Record<string, unknown>): Promise<Record<string, unknown>> {
  const j = jobOf(ctx, p);
  // A large result is being encoded in the background: page the text once it is (not twice).
  await ctx.jobs.pageable(j);
  const start = offsetOfToken(q.pageToken as string | undefined) ?? intParam(q.startIndex, 'startIndex') ?? 0;
  const max = intParam(q.maxResults, 'maxResults') ?? DEFAULT_PAGE;
  const page = ctx.jobs.page(j, start, max);
  let pick: number[] | undefined;
  if (q.selectedFields) {
    const wanted = new Set(String(q.selectedFields).split(',').map((s) => s.trim().split('.')[0].toLowerCase()));
    pick = page.fields.flatMap((f, i) => (wanted.has(f.name.toLowerCase()) ? [i] : []));
  }
  const out: Record<string, unknown> = { kind: 'bigquery#tableDataList', etag: '', totalRows: String(page.total) };
  const rows = pageRows(page, pick, timestampEncodeOptions(q['formatOptions.timestampOutputFormat'], q['formatOptions.useInt64Timestamp']));
  if (rows) out.rows = rows;
  if (page.next !== undefined && max > 0) out.pageToken = pageToken(page.next);
  return out;
}
