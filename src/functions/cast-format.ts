/**
 * CAST(x AS type FORMAT fmt [AT TIME ZONE tz]) (BigQuery "Format clause for CAST"), lowered from
 * the resolved Cast's `format` / `time_zone` (src/engine/lower/exprs.ts) as `$cast_format` with
 * arguments (x, fmt[, tz]):
 * - DATE / DATETIME / TIME / TIMESTAMP → STRING and STRING → those types: format elements of
 *   cast-format-datetime.ts / cast-format-parse.ts (a TIMESTAMP is shown in `tz`, default UTC;
 *   parsing uses TZH/TZM when present, else `tz`);
 * - BYTES ⇄ STRING: HEX, BASE2, BASE8, BASE64, BASE64M, ASCII, UTF-8 / UTF8 (case-insensitive;
 *   cast-format-bytes.ts).
 * Other FORMAT casts (numbers) are rejected as not supported. SAFE_CAST gives
 * NULL where CAST raises.
 */
import { BigQueryError } from '../errors/errors.js';
import { civilOf, formatDateTime, type DtKind } from './cast-format-datetime.js';
import { formatBytes, parseBytes } from './cast-format-bytes.js';
import { parseDateTime, type Parsed } from './cast-format-parse.js';
import { fromLocal, toLocal } from './date-time.js';
import { defineUdf, type UdfType } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';

type Js<T extends UdfType> = T extends 'VARCHAR' ? string : T extends 'BLOB' ? Uint8Array : T extends 'BIGINT' ? bigint : never;
function udf<P extends ('VARCHAR' | 'BLOB' | 'BIGINT')[], R extends 'VARCHAR' | 'BLOB' | 'BIGINT'>(name: string, params: [...P], returns: R, fn: (...a: { [K in keyof P]: Js<P[K]> }) => Js<R> | null): void {
  defineUdf(name, params, returns, fn as never, { raises: true });
  defineUdf(`${name}_safe`, params, returns, fn as never);
}

/** Microseconds since the epoch of civil parts read as UTC. */
function microsOf(p: Parsed): bigint {
  const d = new Date(0);
  d.setUTCFullYear(p.y, p.mo - 1, p.d);
  d.setUTCHours(p.h, p.mi, p.s, 0);
  return BigInt(d.getTime()) * 1000n + BigInt(p.micros);
}

udf('bq_cast_format_dt', ['VARCHAR', 'VARCHAR', 'BIGINT', 'BIGINT'], 'VARCHAR', (fmt, kind, micros, off) => formatDateTime(fmt, kind as DtKind, civilOf(micros), Number(off)));
udf('bq_cast_parse_dt', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR'], 'BIGINT', (fmt, kind, s, today) => microsOf(parseDateTime(fmt, kind as DtKind, s, today)));
udf('bq_cast_parse_tz', ['VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR'], 'BIGINT', (fmt, kind, s, today) => {
  const off = parseDateTime(fmt, kind as DtKind, s, today).offsetMinutes;
  return off === undefined ? null : BigInt(off);
});

udf('bq_cast_format_bytes', ['VARCHAR', 'BLOB'], 'VARCHAR', (fmt, b) => formatBytes(fmt, b));
udf('bq_cast_parse_bytes', ['VARCHAR', 'VARCHAR'], 'BLOB', (fmt, s) => parseBytes(fmt, s));

const DT = ['DATE', 'DATETIME', 'TIME', 'TIMESTAMP'];

function castFormat(c: FnCall): string {
  const [x, fmt, tz] = c.args;
  const from = c.argTypes[0]?.kind;
  const to = c.returnType.kind;
  const u = (name: string) => `${name}${c.safe ? '_safe' : ''}`;
  if (to === 'STRING' && from === 'BYTES') return `${u('bq_cast_format_bytes')}(${fmt}, ${x})`;
  if (from === 'STRING' && to === 'BYTES') return `${u('bq_cast_parse_bytes')}(${fmt}, ${x})`;
  if (to === 'STRING' && from && DT.includes(from)) {
    let civil: string;
    let off = '0';
    if (from === 'DATE') civil = `epoch_us(CAST(${x} AS TIMESTAMP))`;
    else if (from === 'DATETIME') civil = `epoch_us(${x})`;
    else if (from === 'TIME') civil = `epoch_us(DATE '1970-01-01' + ${x})`;
    else {
      civil = `epoch_us(${toLocal(x, tz)})`;
      off = `((${civil} - epoch_us(${x})) // 60000000)`;
    }
    return `${u('bq_cast_format_dt')}(${fmt}, '${from}', ${civil}, ${off})`;
  }
  if (from === 'STRING' && DT.includes(to)) {
    const args = `${fmt}, '${to}', ${x}, CAST(current_date AS VARCHAR)`;
    const civil = `make_timestamp(${u('bq_cast_parse_dt')}(${args}))`;
    if (to === 'DATE') return `CAST(${civil} AS DATE)`;
    if (to === 'DATETIME') return civil;
    if (to === 'TIME') return `CAST(${civil} AS TIME)`;
    const off = `${u('bq_cast_parse_tz')}(${args})`;
    return `(CASE WHEN ${off} IS NOT NULL THEN make_timestamptz(epoch_us(${civil}) - ${off} * 60000000) ELSE ${fromLocal(civil, tz)} END)`;
  }
  throw BigQueryError.notSupported(`CAST from ${from} to ${to} with a FORMAT clause`);
}

/** CAST(… AS STRING/DATE/… FORMAT …) of the conversion_functions page (format_elements). */
export const CAST_FORMAT_FUNCTIONS: FnTable = { $cast_format: castFormat };
