// REST rows (`{f:[{v}]}` cells, https://cloud.google.com/bigquery/docs/reference/rest/v2/tabledata/list)
// turned into plain values a person can read: RECORD cells become objects keyed by field name,
// REPEATED cells arrays, TIMESTAMP microseconds (formatOptions.useInt64Timestamp) a UTC date-time
// text, NULL `null`. Also the CSV and JSON texts of the "download" buttons.

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** `2024-01-02 03:04:05.678901 UTC` from microseconds since the epoch (a decimal string). */
export function timestampText(micros) {
  const us = BigInt(micros);
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const frac = ((us % 1000000n) + 1000000n) % 1000000n;
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return String(micros);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${base}${frac ? '.' + pad(frac, 6).replace(/0+$/, '') : ''} UTC`;
}

function scalar(field, v) {
  if (v === null || v === undefined) return null;
  if (field.type === 'TIMESTAMP' && /^-?\d+$/.test(v)) return timestampText(v);
  if (field.type === 'TIMESTAMP' && /e|\./i.test(v)) return timestampText(String(BigInt(Math.round(Number(v) * 1e6))));
  // JSON numbers and booleans where they are exact (INT64 within 2^53, FLOAT64 finite); NUMERIC,
  // BIGNUMERIC and larger INT64 stay decimal texts.
  if ((field.type === 'INTEGER' || field.type === 'INT64') && Number.isSafeInteger(Number(v))) return Number(v);
  if ((field.type === 'FLOAT' || field.type === 'FLOAT64') && Number.isFinite(Number(v))) return Number(v);
  if (field.type === 'BOOLEAN' || field.type === 'BOOL') return v === 'true';
  return v;
}

/** One cell value (`v` of a `{v}` cell) read with its schema field. */
export function cellValue(field, v) {
  if (v === null || v === undefined) return field.mode === 'REPEATED' ? [] : null;
  if (field.mode === 'REPEATED') return (v || []).map((c) => cellValue({ ...field, mode: 'NULLABLE' }, c.v));
  if (field.type === 'RECORD' || field.type === 'STRUCT') return rowObject(field.fields || [], v);
  if (field.type === 'RANGE' && typeof v === 'string') return v;
  return scalar(field, v);
}

/** A `{f:[{v}]}` row as an object keyed by the schema's field names. */
export function rowObject(fields, row) {
  const out = {};
  fields.forEach((f, i) => {
    out[f.name] = cellValue(f, row && row.f && row.f[i] ? row.f[i].v : null);
  });
  return out;
}

/** Rows of a REST answer as objects (an empty list when there are none). */
export function rowObjects(schema, rows) {
  const fields = (schema && schema.fields) || [];
  return (rows || []).map((r) => rowObject(fields, r));
}

/** The text shown in a grid cell: scalars as they are, arrays and records as compact JSON. */
export function displayText(value) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const csvQuote = (s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** RFC 4180 CSV with a header line; NULL is an empty field, nested values JSON. */
export function toCsv(fields, objects) {
  const names = fields.map((f) => f.name);
  const lines = [names.map(csvQuote).join(',')];
  for (const o of objects) lines.push(names.map((n) => (o[n] === null || o[n] === undefined ? '' : csvQuote(displayText(o[n])))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** A JSON array of the rows (objects keyed by column name). */
export function toJson(objects) {
  return JSON.stringify(objects, null, 2) + '\n';
}

/** Bytes in a person's units: `1.5 KB`, `2 MB` (powers of 1024). */
export function bytesText(n) {
  let v = Number(n || 0);
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 2 : 1).replace(/\.?0+$/, '')} ${units[i]}`;
}

/** A REST millisecond time (decimal string) as a local date-time text. */
export function msText(ms) {
  if (ms === undefined || ms === null || ms === '') return '';
  const d = new Date(Number(ms));
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}
