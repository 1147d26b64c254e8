/**
 * The ZetaSQL reference evaluator as a test oracle: `EvaluateQuery` of the ZetaSQL local service
 * (`remote_server.so` from `@fivetrandevelopers/zetasql`, RPC `ZetaSqlLocalService.EvaluateQuery`
 * in `lib/zetasql/protos/local_service.proto`), run in its own analyzer child with BigQuery's
 * language options (src/analyzer/options.ts) and default time zone UTC.
 *
 * Results are decoded here, independently of bqemu's own ValueProto decoder
 * (src/analyzer/values.ts), into the plain comparable form of src/conformance/compare.ts: INT64 as
 * decimal text, FLOAT64 as number, NUMERIC/BIGNUMERIC as decimal text, BYTES as base64, DATE as
 * `YYYY-MM-DD`, DATETIME as `YYYY-MM-DDTHH:MM:SS[.ffffff]`, TIME as `HH:MM:SS[.ffffff]`, TIMESTAMP as
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ`, ARRAY as a JS array, STRUCT as an object keyed by field name.
 */
import { AnalyzerClient } from '../../src/analyzer/client.js';
import type { SchemaField } from '../../src/conformance/fixtures.js';

/** What the reference evaluator answered for one query: a table, or an error message. */
export type ReferenceResult =
  | { ok: true; schema: SchemaField[]; rows: Record<string, unknown>[] }
  | { ok: false; message: string };

interface TypeProto {
  typeKind?: string;
  arrayType?: { elementType?: TypeProto };
  structType?: { field?: { fieldName?: string; fieldType?: TypeProto }[] };
}

type ValueProto = Record<string, any> | undefined | null;

/**
 * ZetaSQL type kinds → BigQuery REST schema type names (BigQuery's legacy names, as
 * TableFieldSchema.type in src/server/rest/bigquery-v2-discovery.json).
 */
const SCHEMA_TYPE: Record<string, string> = {
  TYPE_INT64: 'INTEGER',
  TYPE_DOUBLE: 'FLOAT',
  TYPE_NUMERIC: 'NUMERIC',
  TYPE_BIGNUMERIC: 'BIGNUMERIC',
  TYPE_BOOL: 'BOOLEAN',
  TYPE_STRING: 'STRING',
  TYPE_BYTES: 'BYTES',
  TYPE_DATE: 'DATE',
  TYPE_DATETIME: 'DATETIME',
  TYPE_TIME: 'TIME',
  TYPE_TIMESTAMP: 'TIMESTAMP',
  TYPE_STRUCT: 'RECORD',
};

/**
 * The BigQuery schema field a ZetaSQL column type is returned as (ARRAY<T> → mode REPEATED of T).
 * @throws Error for types the differential suite never generates (INTERVAL, JSON, protos …).
 */
export function schemaFieldOf(name: string, t: TypeProto): SchemaField {
  if (t.typeKind === 'TYPE_ARRAY') return { ...schemaFieldOf(name, t.arrayType!.elementType!), mode: 'REPEATED' };
  const type = SCHEMA_TYPE[t.typeKind ?? ''];
  if (!type) throw new Error(`differential: result type ${t.typeKind} is not decoded`);
  const field: SchemaField = { name, type, mode: 'NULLABLE' };
  if (t.typeKind === 'TYPE_STRUCT') field.fields = (t.structType?.field ?? []).map((f) => schemaFieldOf(f.fieldName ?? '', f.fieldType!));
  return field;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Little-endian two's-complement bytes (NUMERIC/BIGNUMERIC wire form) → decimal text at `scale`. */
function decimalFromBytes(data: Uint8Array, scale: number): string {
  let v = 0n;
  for (let i = data.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(data[i]!);
  if (data.length && data[data.length - 1]! & 0x80) v -= 1n << BigInt(8 * data.length);
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? '.' + frac : ''}`;
}

/** Fraction of a second as `.ffffff` (micros), empty when zero. */
function fraction(nanos: number): string {
  const micros = Math.floor(nanos / 1000);
  return micros ? '.' + pad(micros, 6) : '';
}

/** Civil date of `days` since 1970-01-01 (proleptic Gregorian, years 1..9999). */
function civilDate(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/** Decodes one ValueProto (proto-loader JSON form, `oneofs: true`) of type `t` to the plain form. */
function decode(vp: ValueProto, t: TypeProto): unknown {
  if (!vp || !vp.value) return null;
  const v = vp[vp.value];
  switch (t.typeKind) {
    case 'TYPE_INT64':
      return String(v);
    case 'TYPE_DOUBLE':
      return Number(v);
    case 'TYPE_NUMERIC':
      return decimalFromBytes(Uint8Array.from(v), 9);
    case 'TYPE_BIGNUMERIC':
      return decimalFromBytes(Uint8Array.from(v), 38);
    case 'TYPE_BOOL':
      return Boolean(v);
    case 'TYPE_STRING':
      return String(v);
    case 'TYPE_BYTES':
      return Buffer.from(v).toString('base64');
    case 'TYPE_DATE':
      return civilDate(Number(v));
    case 'TYPE_TIMESTAMP': {
      // google.protobuf.Timestamp: seconds since the epoch + nanos.
      const secs = Number(v.seconds ?? 0);
      const base = new Date(secs * 1000).toISOString().slice(0, 19);
      return `${base}${fraction(v.nanos ?? 0) || ''}Z`;
    }
    case 'TYPE_DATETIME': {
      // civil_time.h bit field: year(14) month(4) day(5) hour(5) minute(6) second(6), low bits last.
      const s = BigInt(v.bitFieldDatetimeSeconds ?? 0);
      const f = (shift: bigint, bits: bigint) => Number((s >> shift) & ((1n << bits) - 1n));
      return `${pad(f(26n, 14n), 4)}-${pad(f(22n, 4n))}-${pad(f(17n, 5n))}T${pad(f(12n, 5n))}:${pad(f(6n, 6n))}:${pad(f(0n, 6n))}${fraction(v.nanos ?? 0)}`;
    }
    case 'TYPE_TIME': {
      // civil_time.h bit field: hour(5) minute(6) second(6) nanos(30).
      const p = BigInt(v);
      const f = (shift: bigint, bits: bigint) => Number((p >> shift) & ((1n << bits) - 1n));
      return `${pad(f(42n, 5n))}:${pad(f(36n, 6n))}:${pad(f(30n, 6n))}${fraction(f(0n, 30n))}`;
    }
    case 'TYPE_ARRAY':
      return ((v?.element ?? []) as ValueProto[]).map((e) => decode(e, t.arrayType!.elementType!));
    case 'TYPE_STRUCT': {
      const out: Record<string, unknown> = {};
      const fields = t.structType?.field ?? [];
      ((v?.field ?? []) as ValueProto[]).forEach((e, i) => (out[fields[i]?.fieldName ?? `_field_${i + 1}`] = decode(e, fields[i]!.fieldType!)));
      return out;
    }
    default:
      throw new Error(`differential: value of type ${t.typeKind} is not decoded`);
  }
}

/**
 * The reference evaluator: one supervised analyzer child of its own. `start()` before use, `stop()`
 * after (kills the child and removes its socket directory).
 */
export class ReferenceEvaluator {
  private readonly client = new AnalyzerClient();
  private options: object = {};
  private catalog: object = {};

  /** Starts the child and waits until it answers (up to 30 s, AnalyzerClient.start). */
  async start(): Promise<void> {
    await this.client.start();
    const languageOptions = this.client.languageOptions;
    this.options = { languageOptions, defaultTimezone: 'UTC', errorMessageMode: 'ERROR_MESSAGE_ONE_LINE' };
    // Without builtinFunctionOptions the catalog has no functions at all (not even `$add`).
    this.catalog = { builtinFunctionOptions: { languageOptions } };
  }

  /** Evaluates one query; analysis and runtime errors both come back as `{ ok: false, message }`. */
  async evaluate(sql: string): Promise<ReferenceResult> {
    let res: any;
    try {
      res = await this.client.call('evaluateQuery', { sql, options: this.options, simpleCatalog: this.catalog });
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
    const columns: { name?: string; type: TypeProto }[] = res.prepared?.columns ?? [];
    const schema = columns.map((c) => schemaFieldOf(c.name ?? '', c.type));
    const rows = ((res.content?.tableData?.row ?? []) as { cell?: ValueProto[] }[]).map((r) => {
      const row: Record<string, unknown> = {};
      columns.forEach((c, i) => (row[c.name ?? ''] = decode(r.cell?.[i], c.type)));
      return row;
    });
    return { ok: true, schema, rows };
  }

  /** Pid of the evaluator's child (for the clean-up check). */
  get pid(): number | undefined {
    return this.client.pid;
  }

  /** Stops the child process. */
  stop(): void {
    this.client.stop();
  }
}
