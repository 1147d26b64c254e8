/**
 * tabledata: list (`maxResults`, `pageToken`, `startIndex`, `selectedFields`) and insertAll (rows
 * with `json`; per-row `insertErrors`; `skipInvalidRows`, `ignoreUnknownValues`; best-effort
 * de-duplication by `insertId`, src/engine/insert-ids.ts; the rows added sit in the table's
 * streaming buffer, src/engine/streaming-buffer.ts).
 * Source: TableDataList / TableDataInsertAllRequest/Response in src/server/rest/bigquery-v2-discovery.json.
 * Without skipInvalidRows one bad row stops the whole request: the other rows get reason `stopped`.
 * list of a table with row access policies needs the caller's TRUE filter (src/engine/row-access.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import { readRows } from '../../engine/statement-context.js';
import { pageEnd } from '../../jobs/result-bytes.js';
import { insertValues } from '../../engine/dml-values.js';
import { enforceRows } from '../../engine/type-params.js';
import { checkSnapshotWrite } from '../../engine/table-guards.js';
import { duplicateInsertIds, rememberInsertIds } from '../../engine/insert-ids.js';
import { noteStreamedRows, streamedRowBytes } from '../../engine/streaming-buffer.js';
import type { BqType, Value } from '../../types/types.js';
import { decodeJsonValue, decodePicosTimestamp, encodePicosTimestamp, timestampEncodeOptions } from '../../wire/rest-values.js';
import { isPicosColumn, picosOf, picosSelectItem } from '../../engine/picos-storage.js';
import type { Column } from '../../types/schema.js';
import { encodeRowsJson, offsetOfToken, pageToken } from '../../wire/resources.js';
import { callerFromHeaders, intParam, objectBody, requireTable, type PathParams, type RestContext } from './context.js';
import type { RequestBodies } from '../../types/generated/bigquery-v2.js';
import { countRows } from './tables.js';
import { checkFullAccess } from '../../engine/row-access.js';
import { isAnonymousDataset } from '../../jobs/anonymous.js';
import { anonymousTableData } from './anonymous-tables.js';

const DEFAULT_PAGE = 100_000;

export function tabledataRoutes(app: FastifyInstance, ctx: RestContext): void {
  type Req = FastifyRequest<{ Params: PathParams; Querystring: Record<string, string>; Body: unknown }>;

  app.get('/projects/:projectId/datasets/:datasetId/tables/:tableId/data', async (req: Req) => {
    // A query job's anonymous result table (src/server/rest/anonymous-tables.ts).
    if (isAnonymousDataset(req.params.datasetId)) return anonymousTableData(ctx, req.params, req.query);
    const t = requireTable(ctx, req.params.projectId, req.params.datasetId, req.params.tableId);
    if (t.type !== 'TABLE') throw BigQueryError.cannotListTableType(t.type);
    const q = req.query;
    const start = offsetOfToken(q.pageToken) ?? intParam(q.startIndex, 'startIndex') ?? 0;
    const max = intParam(q.maxResults, 'maxResults') ?? DEFAULT_PAGE;
    let cols = t.columns;
    if (q.selectedFields) {
      const wanted = new Set(String(q.selectedFields).split(',').map((s) => s.trim().split('.')[0].toLowerCase()));
      cols = t.columns.filter((c) => wanted.has(c.name.toLowerCase()));
    }
    // Row access policies: listing is a non-query read and needs the TRUE filter.
    checkFullAccess(ctx.engine, t, callerFromHeaders(req.headers), 'tabledata.list');
    // formatOptions.timestampOutputFormat / useInt64Timestamp (a conflicting pair is a 400 before any read).
    const fmt = timestampEncodeOptions(q['formatOptions.timestampOutputFormat'], q['formatOptions.useInt64Timestamp']);
    const total = await countRows(ctx, t);
    let rows: Value[][] = [];
    // TIMESTAMP(12) columns: read with their picosecond companions, written here (src/engine/picos-storage.ts).
    const picos = cols.flatMap((c, i) => (isPicosColumn(c) ? [i] : []));
    if (max > 0 && cols.length) {
      const list = [...cols.map((c) => `"${c.name.replace(/"/g, '""')}"`), ...picos.map((i) => picosSelectItem(cols[i]))].join(', ');
      const read = [...cols, ...picos.map((i) => ({ name: cols[i].name, type: { kind: 'STRING' } as BqType }))];
      rows = await readRows(ctx.engine, `SELECT ${list} FROM "${t.duckName}" ORDER BY rowid LIMIT ${max} OFFSET ${start}`, read);
      // A page holds at most 10 MB of rows; the page token continues after them (src/jobs/result-bytes.ts).
      rows = rows.slice(0, pageEnd(rows, 0, rows.length));
      for (const r of rows) {
        picos.forEach((i, k) => {
          const p = picosOf(r[i], r[cols.length + k]);
          r[i] = p === null ? null : encodePicosTimestamp(p, fmt);
        });
        r.length = cols.length;
      }
    }
    // No `rows` key on an empty page (recorded tabledata_list_empty_table, page_max_results_zero).
    const out: Record<string, unknown> = { kind: 'bigquery#tableDataList', etag: '', totalRows: String(total) };
    const asText = picos.length ? cols.map((c, i) => (picos.includes(i) ? { ...c, type: { kind: 'STRING' } as BqType } : c)) : cols;
    if (rows.length) out.rows = encodeRowsJson(asText, rows, fmt);
    if (start + rows.length < total && max > 0) out.pageToken = pageToken(start + rows.length);
    return out;
  });

  app.post('/projects/:projectId/datasets/:datasetId/tables/:tableId/insertAll', async (req: Req) => {
    const body = objectBody<RequestBodies['bigquery.tabledata.insertAll']>(req.body);
    const t = requireTable(ctx, req.params.projectId, req.params.datasetId, req.params.tableId);
    if (t.type !== 'TABLE') throw BigQueryError.cannotInsertIntoTableType(t.type);
    // Table snapshots are read-only: the DML guard's text, with reason invalid (not a query).
    try {
      checkSnapshotWrite(t);
    } catch (e) {
      throw e instanceof BigQueryError ? BigQueryError.invalid(e.message) : e;
    }
    // BigQuery: 400 "No rows present in the request." (google/clusterfuzz#721, google-api-ruby-client#220).
    if (body.rows !== undefined && !Array.isArray(body.rows)) throw BigQueryError.insertAllRowsNotList();
    if (!body.rows?.length) throw BigQueryError.noRowsPresent();
    const rows = body.rows;
    const good: Value[][] = [];
    const goodPicos: (bigint | null)[][] = [];
    const goodIds: (string | undefined)[] = [];
    const errors: { index: number; errors: object[] }[] = [];
    rows.forEach((r, index) => {
      try {
        if (!r || typeof r.json !== 'object' || r.json === null) throw BigQueryError.missingRowData();
        const picos: (bigint | null)[] = [];
        const row = decodeRow(t.columns, r.json, !!body.ignoreUnknownValues, picos);
        // Type parameters (STRING(10), NUMERIC(5, 2)…) fail the row with BigQuery's text (src/engine/type-params.ts).
        try {
          good.push(enforceRows(t.columns, [row])[0] as Value[]);
          goodPicos.push(picos);
          goodIds.push(typeof r.insertId === 'string' ? r.insertId : undefined);
        } catch (pe) {
          throw pe instanceof BigQueryError ? BigQueryError.invalid(pe.message) : pe;
        }
      } catch (e) {
        const be = e instanceof BigQueryError ? e : BigQueryError.invalid(String((e as Error).message));
        errors.push({ index, errors: [{ reason: be.reason, location: be.location ?? '', debugInfo: '', message: be.message }] });
      }
    });
    if (errors.length && !body.skipInvalidRows) {
      const bad = new Set(errors.map((e) => e.index));
      rows.forEach((_, index) => {
        if (!bad.has(index)) errors.push({ index, errors: [BigQueryError.insertAllRowStopped()] });
      });
      // Invalid rows first, then the stopped ones (nodejs-bigquery system test "should return partial errors").
      return { kind: 'bigquery#tableDataInsertAllResponse', insertErrors: errors };
    }
    // Best-effort de-duplication by insertId: a retried row is acknowledged, not added twice.
    const dup = duplicateInsertIds(t, goodIds);
    const added = good.filter((_, i) => !dup[i]);
    const addedPicos = goodPicos.filter((_, i) => !dup[i]);
    // The added rows sit in the table's streaming buffer (src/engine/streaming-buffer.ts), noted in the append's write turn.
    await ctx.engine.db.serializeWrite(async () => {
      await insertValues(ctx.engine, t, added, t.columns.some(isPicosColumn) ? addedPicos : undefined);
      await noteStreamedRows(ctx.engine, t, added.length, streamedRowBytes(t, added));
    }, [t.duckName]);
    rememberInsertIds(t, goodIds);
    const out: Record<string, unknown> = { kind: 'bigquery#tableDataInsertAllResponse' };
    if (errors.length) out.insertErrors = errors;
    return out;
  });
}

/**
 * Decodes one insertAll row into the table's column order; the picoseconds of its TIMESTAMP(12)
 * columns (up to twelve fractional digits kept) are pushed to `picos` in column order.
 * @throws BigQueryError invalid naming the field (unknown field, REQUIRED missing, bad value).
 */
function decodeRow(columns: Column[], json: Record<string, unknown>, ignoreUnknown: boolean, picos: (bigint | null)[]): Value[] {
  const byName = new Map(Object.entries(json).map(([k, v]) => [k.toLowerCase(), { k, v }]));
  const known = new Set(columns.map((c) => c.name.toLowerCase()));
  if (!ignoreUnknown) for (const { k } of byName.values()) if (!known.has(k.toLowerCase())) throw BigQueryError.insertAllNoSuchField(k);
  return columns.map((c) => {
    const e = byName.get(c.name.toLowerCase());
    if (e === undefined || e.v === null) {
      if (c.required) throw BigQueryError.missingRequiredField(c.name, c.name);
      if (isPicosColumn(c)) picos.push(null);
      return c.type.kind === 'ARRAY' ? [] : null;
    }
    if (isPicosColumn(c)) {
      const p = decodePicosTimestamp(e.v, c.name);
      picos.push(p.picos);
      return p.micros;
    }
    return decodeJsonValue(e.v, c.type, c.name, { ignoreUnknownValues: ignoreUnknown });
  });
}
