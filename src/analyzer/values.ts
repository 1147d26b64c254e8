/**
 * ZetaSQL `ValueProto` (proto-loader JSON form) → domain `Value` (src/types/types.ts).
 * Source: zetasql/public/value.proto; packed DATETIME/TIME layouts from zetasql/public/civil_time.h;
 * NUMERIC/BIGNUMERIC are little-endian two's-complement bytes of value × 10^scale (docs/ARCHITECTURE.md §1).
 */
import type { BqType, Value } from '../types/types.js';
import { scaledToText } from '../types/decimal.js';
import { formatDateDays } from '../types/temporal.js';

type VP = Record<string, any> | undefined | null;

const pad = (n: number | bigint, w = 2) => String(n).padStart(w, '0');

/** Little-endian two's-complement bytes → bigint. */
export function leBytesToBigInt(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
  if (b.length && b[b.length - 1] & 0x80) v -= 1n << BigInt(8 * b.length);
  return v;
}

/** Scaled integer → canonical decimal text ("1.5", "-0.001", "3"); the shared decimal helper. */
export const scaledToDecimal = scaledToText;

function fracMicros(nanos: number): string {
  if (!nanos) return '';
  return '.' + pad(Math.floor(nanos / 1000), 6).replace(/0+$/, '');
}

/** Civil date from days since 1970-01-01; the shared temporal helper. */
export const dateFromDays = formatDateDays;

function decodeInterval(b: Uint8Array): { months: number; days: number; micros: bigint } {
  // IntervalValue::SerializeAsBytes: int64 micros, int32 days, int32 months_nanos
  // in sign-magnitude: bit 31 the sign, then months << 13 | sub-micro nanos; all little-endian
  // (measured on this analyzer build: '1-2' → 0x0001c000, '-1-2' → 0x8001c000).
  const buf = Buffer.from(b);
  const micros = buf.length >= 8 ? buf.readBigInt64LE(0) : 0n;
  const days = buf.length >= 12 ? buf.readInt32LE(8) : 0;
  const mn = buf.length >= 16 ? buf.readUInt32LE(12) : 0;
  const mag = mn & 0x7fffffff;
  const months = (mn & 0x80000000 ? -1 : 1) * (mag >>> 13);
  const nanos = mag & 0x1fff;
  return { months, days, micros: micros + BigInt(Math.trunc(nanos / 1000)) };
}

/** Converts a literal's ValueProto of type `t` to a domain value (NULL when the oneof is unset). */
export function valueFromProto(vp: VP, t: BqType): Value {
  if (!vp || !vp.value) return null;
  const v = vp[vp.value];
  switch (t.kind) {
    case 'INT64':
      return BigInt(v);
    case 'FLOAT64':
      return Number(v);
    case 'BOOL':
      return Boolean(v);
    case 'STRING':
      return String(v);
    case 'BYTES':
      return new Uint8Array(v);
    case 'NUMERIC':
      return scaledToDecimal(leBytesToBigInt(v), 9);
    case 'BIGNUMERIC':
      return scaledToDecimal(leBytesToBigInt(v), 38);
    case 'DATE':
      return dateFromDays(Number(v));
    case 'TIMESTAMP':
      return BigInt(v.seconds ?? 0) * 1000000n + BigInt(Math.floor((v.nanos ?? 0) / 1000));
    case 'DATETIME': {
      const s = BigInt(v.bitFieldDatetimeSeconds ?? 0);
      const f = (sh: bigint, bits: bigint) => Number((s >> sh) & ((1n << bits) - 1n));
      return `${pad(f(26n, 14n), 4)}-${pad(f(22n, 4n))}-${pad(f(17n, 5n))}T${pad(f(12n, 5n))}:${pad(f(6n, 6n))}:${pad(f(0n, 6n))}${fracMicros(v.nanos ?? 0)}`;
    }
    case 'TIME': {
      const p = BigInt(v);
      const nanos = Number(p & ((1n << 30n) - 1n));
      const sec = Number((p >> 30n) & 63n);
      const min = Number((p >> 36n) & 63n);
      const hour = Number((p >> 42n) & 31n);
      return `${pad(hour)}:${pad(min)}:${pad(sec)}${fracMicros(nanos)}`;
    }
    case 'INTERVAL':
      return decodeInterval(v);
    case 'JSON':
      return String(v);
    case 'GEOGRAPHY':
      return String(v);
    case 'ARRAY':
      return ((v?.element ?? []) as VP[]).map((e) => valueFromProto(e, t.element));
    case 'STRUCT':
      return ((v?.field ?? []) as VP[]).map((e, i) => valueFromProto(e, t.fields[i].type));
    case 'RANGE':
      return { start: valueFromProto(v?.start, t.element), end: valueFromProto(v?.end, t.element) };
  }
}
