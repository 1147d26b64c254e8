/**
 * REST resource shapes (src/server/rest/bigquery-v2-discovery.json: Dataset, DatasetList, Table, TableList,
 * Job, QueryResponse, GetQueryResultsResponse): every resource carries kind, etag, id, selfLink
 * and its reference; times are milliseconds since the epoch as strings; int64 fields are strings.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { datasetLocation, type DatasetMeta, type TableMeta } from '../catalog/store.js';
import { DEFAULT_LOCATION } from '../types/locations.js';
import { fieldFromColumn, fieldFromType, type TableFieldSchema } from '../types/schema.js';
import type { BqType, Value } from '../types/types.js';
import { cellJsonEncoder, type CellEncodeOptions } from './rest-values.js';
import type { Dataset, Table } from '../types/generated/bigquery-v2.js';

/** A result column as the engine describes it. */
export interface WireField {
  name: string;
  type: BqType;
  required?: boolean;
}

const bigintAsText = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

/**
 * A strong etag of any JSON-able content (bigints as their digits): 16 bytes of its JSON text's
 * SHA-1, in base64 — BigQuery's etags are opaque 24-character base64 strings. The JSON is written
 * without a replacer unless the content holds a bigint, and hashed with SHA-1 rather than MD5: on
 * a 10 MB resource (the request size limit) MD5 took 25–33 ms and SHA-1 9–13 ms, and the JSON
 * text 33–124 ms with the replacer against 32–48 ms without (one loaded 2-core machine).
 */
export function etagOf(content: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(content);
  } catch {
    text = JSON.stringify(content, bigintAsText);
  }
  return createHash('sha1').update(text).digest().subarray(0, 16).toString('base64');
}

/**
 * Etags kept per record: an etag is computed again only when one of the parts it was computed from
 * changed — a different object (records replace their `fields`, `columns` and so on, never change
 * them in place) or a different value. A multi-megabyte resource (a 10 MB request body's fields)
 * is hashed once per change instead of at every get and list.
 */
export class EtagMemo<K extends object> {
  private readonly kept = new WeakMap<K, { parts: readonly unknown[]; etag: string }>();

  /**
   * The etag of `content` (see {@link etagOf}; by default `parts` themselves) for record `key`,
   * kept while `parts` are the same.
   */
  of(key: K, parts: readonly unknown[], content: unknown = parts): string {
    const k = this.kept.get(key);
    if (k && k.parts.length === parts.length && k.parts.every((p, i) => p === parts[i])) return k.etag;
    const etag = etagOf(content);
    this.kept.set(key, { parts, etag });
    return etag;
  }
}

/** BigQuery's REST base path (`https://bigquery.googleapis.com/bigquery/v2/projects/…`): resources' selfLinks, the server's routing. */
export const API_BASE_PATH = '/bigquery/v2';

/** The principal the emulator acts as (the Job resource's `user_email`, src/server/rest/job-resources.ts). */
export const EMULATOR_USER_EMAIL = 'bqemu@localhost';

/**
 * A new dataset's access list when none was given: Dataset.access in the discovery document ("If
 * unspecified at dataset creation time, BigQuery adds default dataset access for the following
 * entities: projectReaders READER; projectWriters WRITER; projectOwners OWNER; [dataset creator
 * email] OWNER"), in the order BigQuery lists them.
 */
export function defaultDatasetAccess(creatorEmail = EMULATOR_USER_EMAIL): Record<string, string>[] {
  return [
    { role: 'WRITER', specialGroup: 'projectWriters' },
    { role: 'OWNER', specialGroup: 'projectOwners' },
    { role: 'OWNER', userByEmail: creatorEmail },
    { role: 'READER', specialGroup: 'projectReaders' },
  ];
}

/** Each dataset record's etag (a DatasetMeta is replaced, never changed in place: src/catalog/store.ts putDataset). */
const datasetEtags = new EtagMemo<DatasetMeta>();
/** Each table's etag (ALTER TABLE and schema changes assign a table new `fields` and `columns`). */
const tableEtags = new EtagMemo<TableMeta>();

/**
 * A Dataset resource. `access` (when the dataset has none stored) and `maxTimeTravelHours`
 * ("The default value is 168 hours if this is not set", discovery) are always answered, as in the
 * recorded datasets.get (corpus http/jobs/datasets_get_basic).
 */
export function datasetResource(base: string, d: DatasetMeta): Dataset {
  const body: Dataset = {
    kind: 'bigquery#dataset',
    id: `${d.projectId}:${d.datasetId}`,
    selfLink: `${base}${API_BASE_PATH}/projects/${d.projectId}/datasets/${d.datasetId}`,
    datasetReference: { datasetId: d.datasetId, projectId: d.projectId },
    access: defaultDatasetAccess(),
    ...d.fields,
    creationTime: String(d.creationTime),
    lastModifiedTime: String(d.lastModifiedTime),
    location: datasetLocation(d),
    type: 'DEFAULT',
    maxTimeTravelHours: String(d.fields.maxTimeTravelHours ?? '168'),
  };
  return { etag: datasetEtags.of(d, [d.fields, d.lastModifiedTime]), ...body };
}

/** A DatasetList item (recorded datasets_list_basic: kind, id, datasetReference, location, type). */
export function datasetListItem(d: DatasetMeta): Record<string, unknown> {
  const item: Record<string, unknown> = {
    kind: 'bigquery#dataset',
    id: `${d.projectId}:${d.datasetId}`,
    datasetReference: { datasetId: d.datasetId, projectId: d.projectId },
    location: datasetLocation(d),
    type: 'DEFAULT',
  };
  if (d.fields.labels) item.labels = d.fields.labels;
  if (d.fields.friendlyName) item.friendlyName = d.fields.friendlyName;
  return item;
}

/** REST `type`: SNAPSHOT for table snapshots, MATERIALIZED_VIEW for materialized views. */
function restTableType(t: TableMeta): string {
  if (t.fields.snapshotDefinition) return 'SNAPSHOT';
  if (t.type === 'VIEW' && t.fields.materializedView) return 'MATERIALIZED_VIEW';
  return t.type;
}

export function tableSchema(t: TableMeta): { fields: TableFieldSchema[] } {
  return { fields: t.columns.map(fieldFromColumn) };
}

/** A table resource; `numRows` is counted by the caller; `location` is its dataset's. */
export function tableResource(base: string, t: TableMeta, numRows: number, view?: 'BASIC' | 'FULL' | string, location = DEFAULT_LOCATION): Table {
  const body: Table = {
    kind: 'bigquery#table',
    id: `${t.projectId}:${t.datasetId}.${t.tableId}`,
    selfLink: `${base}${API_BASE_PATH}/projects/${t.projectId}/datasets/${t.datasetId}/tables/${t.tableId}`,
    tableReference: { projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId },
    ...t.fields,
    schema: tableSchema(t),
    creationTime: String(t.creationTime),
    lastModifiedTime: String(t.lastModifiedTime),
    type: restTableType(t),
    location,
  };
  if (t.type === 'VIEW') body.view = { query: t.viewQuery, useLegacySql: false };
  // view=BASIC: "does not include storage statistics"; STORAGE_STATS (the default) adds "numBytes,
  // numLongTermBytes, numRows and lastModifiedTime" (tables.get `view` in the discovery document).
  if (view === 'BASIC') delete body.lastModifiedTime;
  else if (t.type !== 'VIEW') {
    body.numRows = String(numRows);
    body.numBytes = '0';
    body.numLongTermBytes = '0';
    body.numTotalLogicalBytes = '0';
    // Recorded tables.get answer (corpus http/jobs/tables_get_basic) also carries these two.
    body.numActiveLogicalBytes = '0';
    body.numLongTermLogicalBytes = '0';
  }
  return { etag: tableEtags.of(t, [t.fields, t.columns, t.lastModifiedTime, t.viewQuery]), ...body };
}

export function tableListItem(t: TableMeta): Record<string, unknown> {
  const item: Record<string, unknown> = {
    kind: 'bigquery#table',
    id: `${t.projectId}:${t.datasetId}.${t.tableId}`,
    tableReference: { projectId: t.projectId, datasetId: t.datasetId, tableId: t.tableId },
    type: restTableType(t),
    creationTime: String(t.creationTime),
  };
  for (const k of ['labels', 'friendlyName', 'expirationTime', 'timePartitioning', 'clustering']) if (t.fields[k] !== undefined) item[k] = t.fields[k];
  if (t.type === 'VIEW') item.view = { useLegacySql: false };
  return item;
}

/** The REST `schema` of result columns. */
export function schemaOf(fields: WireField[]): { fields: TableFieldSchema[] } {
  return { fields: fields.map((f) => fieldFromType(f.name, f.type, f.required)) };
}

/**
 * JSON text that a reply embeds verbatim (see `serializeReply`): one string, or pieces to send in
 * order (strings and views of UTF-8 bytes, e.g. EncodedRowsPage.parts of src/wire/encoded-rows.ts).
 */
export class RawJson {
  constructor(
    readonly json: string,
    readonly parts?: readonly (string | Uint8Array)[],
    /** Called once the reply holding the pieces was sent or abandoned (see {@link sentCallbacks}). */
    readonly onSent?: () => void,
  ) {}

  /**
   * Pieces sent as they are: a reply holding them is streamed without joining them into one string.
   * `onSent`: called once the reply was sent (its views read for the last time) or abandoned.
   */
  static fromParts(parts: readonly (string | Uint8Array)[], onSent?: () => void): RawJson {
    return new RawJson('', parts, onSent);
  }
}

/** The `onSent` callbacks of the RawJson pieces a streamed reply body holds (see serializeReply). */
const whenSent = new WeakMap<object, (() => void)[]>();

/**
 * The callbacks to run once `payload` (a reply body serializeReply made) was sent or abandoned —
 * the server runs them when the response closes (src/server/server.ts) — or undefined.
 */
export function sentCallbacks(payload: unknown): (() => void)[] | undefined {
  return payload && typeof payload === 'object' ? whenSent.get(payload) : undefined;
}

/** `pieces` (strings and views of UTF-8 bytes, as RawJson.parts) as one string. */
export function joinPieces(pieces: readonly (string | Uint8Array)[]): string {
  return pieces.map((p) => (typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('utf8'))).join('');
}

/** Answers of pieces shorter than this (characters or bytes) are joined into one string instead of streamed. */
const PIECES_STREAM_MIN = 256 * 1024;

/**
 * Bytes of consecutive pieces joined into one buffer of a streamed reply. A result page is
 * hundreds of pieces of ~20 KB (EncodedRowsPage.parts, src/wire/encoded-rows.ts) with `,` between
 * them: handed to the stream one by one, each cost a pass through the stream's and the socket's
 * JavaScript (paging 1M rows spent more of the event loop's time there than in DuckDB's calls).
 * Small pieces are joined (one extra copy of their bytes, ~1 ms per MB); rows built in DuckDB are
 * kept in blocks of ~1 MB (src/engine/result-json.ts) and go out as they are.
 */
const PIECES_BATCH_BYTES = 1024 * 1024;

/**
 * `pieces` as a stream of buffers of about {@link PIECES_BATCH_BYTES} (strings encoded as UTF-8,
 * small pieces joined, a piece of a quarter batch or more sent alone as it is), one buffer per
 * turn of the event loop.
 */
function piecesStream(pieces: readonly (string | Uint8Array)[]): Readable {
  let batch: Buffer[] = [];
  let bytes = 0;
  let sent = false;
  async function* flush(): AsyncGenerator<Buffer> {
    // Back to the event loop between batches: other clients get a turn while a page is sent.
    if (sent) await new Promise<void>((resolve) => setImmediate(resolve));
    sent = true;
    const out = batch.length === 1 ? batch[0]! : Buffer.concat(batch, bytes);
    batch = [];
    bytes = 0;
    yield out;
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i]!;
      const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p.buffer, p.byteOffset, p.byteLength);
      // A large piece goes alone, uncopied (what was gathered before it goes first).
      const alone = b.length >= PIECES_BATCH_BYTES / 4;
      if (alone && batch.length) yield* flush();
      batch.push(b);
      bytes += b.length;
      if (alone || bytes >= PIECES_BATCH_BYTES || i === pieces.length - 1) yield* flush();
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 2 * PIECES_BATCH_BYTES });
}

/**
 * The `rows` of a result page as JSON text, built directly (no `{f:[{v}]}` object graph): the
 * paging hot path (bench paging_1m spent a third of its time in GC and fastify's serialiser).
 */
export function encodeRowsJson(fields: WireField[], rows: Value[][], opts: CellEncodeOptions): RawJson {
  return rowsJson(encodeRowStrings(fields, rows, opts));
}

/**
 * Each row as its REST JSON text (`{"f":[{"v":…},…]}`), for results kept encoded: strings hold
 * no pointers, so a retained million-row result costs the garbage collector little.
 */
export function encodeRowStrings(fields: WireField[], rows: readonly Value[][], opts: CellEncodeOptions): string[] {
  const cells = fields.map((f) => cellJsonEncoder(f.type, opts));
  const n = cells.length;
  const out = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let s = '{"f":[';
    for (let j = 0; j < n; j++) s += (j ? ',{"v":' : '{"v":') + cells[j](r[j]) + '}';
    out[i] = s + ']}';
  }
  return out;
}

/** The `rows` array of a page from rows already encoded by {@link encodeRowStrings}. */
export function rowsJson(encoded: string[]): RawJson {
  return new RawJson('[' + encoded.join(',') + ']');
}

/** True when a REST encoding option changes how values of these fields are written (TIMESTAMP anywhere). */
export function encodingVaries(fields: WireField[]): boolean {
  const has = (t: BqType): boolean =>
    t.kind === 'TIMESTAMP' || (t.kind === 'ARRAY' && has(t.element)) || (t.kind === 'STRUCT' && t.fields.some((f) => has(f.type))) || (t.kind === 'RANGE' && has(t.element));
  return fields.some((f) => has(f.type));
}

const RAW_MARK = '\u0000raw-json\u0000';

/**
 * Serialises a reply payload; top-level RawJson values are spliced in verbatim. A payload with a
 * RawJson of pieces becomes a stream of those pieces (no string of the whole answer is built).
 * Used as fastify's reply serialiser (src/server/server.ts).
 */
export function serializeReply(payload: unknown): string | Readable {
  if (!payload || typeof payload !== 'object') return JSON.stringify(payload);
  const raws: RawJson[] = [];
  const shallow: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload as Record<string, unknown>)) {
    if (v instanceof RawJson) {
      raws.push(v);
      shallow[k] = RAW_MARK;
    } else shallow[k] = v;
  }
  let text = JSON.stringify(shallow);
  if (!raws.length) return text;
  const mark = JSON.stringify(RAW_MARK);
  const onSent = raws.flatMap((r) => (r.onSent ? [r.onSent] : []));
  // Pieces copied into one string are not read again: their owners hear so at once.
  const joined = (out: string) => {
    for (const f of onSent) f();
    return out;
  };
  if (raws.some((r) => r.parts)) {
    // Streamed piece by piece (chunked transfer encoding, as any large answer, src/server/reply-chunks.ts).
    const pieces: (string | Uint8Array)[] = [];
    let from = 0;
    for (const raw of raws) {
      const at = text.indexOf(mark, from);
      pieces.push(text.slice(from, at), ...(raw.parts ?? [raw.json]));
      from = at + mark.length;
    }
    pieces.push(text.slice(from));
    let size = 0;
    for (const p of pieces) size += p.length;
    if (size >= PIECES_STREAM_MIN) {
      const stream = piecesStream(pieces);
      if (onSent.length) whenSent.set(stream, onSent);
      return stream;
    }
    return joined(joinPieces(pieces));
  }
  for (const raw of raws) {
    const at = text.indexOf(mark);
    text = text.slice(0, at) + raw.json + text.slice(at + mark.length);
  }
  return joined(text);
}

/** Opaque page token for a row offset. */
export const pageToken = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

/** Row offset of a page token, or undefined when malformed. */
export function offsetOfToken(token: string | undefined): number | undefined {
  if (!token) return undefined;
  const m = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString());
  return m ? Number(m[1]) : undefined;
}
