/**
 * BigQuery's HyperLogLog++ sketches (HLL_COUNT.*,
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions): the open-source
 * zetasketch format, a protobuf `zetasketch.AggregatorStateProto` (type HYPERLOGLOG_PLUS_UNIQUE =
 * 112, encoding version 2) carrying a `HyperLogLogPlusUniqueStateProto` in extension field 112.
 *
 * Two representations (the HLL++ paper, Heule, Nunkesser and Hall 2013, §5.3):
 * - sparse: the sorted, de-duplicated sparse values at sparse precision sp = p + 5 (at most 25),
 *   difference-encoded as varints in `sparse_data`, their count in `sparse_size`. A sparse value
 *   is the sp-bit index of the hash when its lowest sp − p bits are not all zero; otherwise a flag
 *   bit (bit max(sp, p + 6)), the p-bit normal index and the 6-bit ρ(w') of the hash after sp bits.
 * - normal: 2^p one-byte registers in `data`, each the largest ρ(w) (leading zeros + 1 of the
 *   hash after the p index bits) seen for that index.
 * A sketch stays sparse while its encoded sparse data takes at most 0.75 · 2^p bytes.
 *
 * The layout, field numbers and thresholds are those of zetasketch's published protos and
 * documentation; the INT64 path is checked by reproducing BigQuery's recorded sketch bytes exactly
 * (conformance fixture agg_hll_count_merge_partial_basic).
 */
import protobuf from 'protobufjs';

/**
 * The messages, as published in zetasketch's `aggregator.proto` and `hllplus-unique.proto`
 * (package zetasketch; only the fields a sketch of this kind uses; field numbers are theirs).
 */
const ZETASKETCH_PROTO = `
syntax = "proto2";
package zetasketch;
enum AggregatorType { AGGREGATOR_TYPE_UNSPECIFIED = 0; SUM = 100; HYPERLOGLOG_PLUS_UNIQUE = 112; }
message AggregatorStateProto {
  required AggregatorType type = 1;
  required int64 num_values = 2;
  optional int32 encoding_version = 3 [default = 1];
  optional int32 value_type = 4;
  extensions 100 to 140;
}
message HyperLogLogPlusUniqueStateProto {
  optional int32 sparse_size = 2;
  optional int32 precision_or_num_buckets = 3;
  optional int32 sparse_precision_or_num_buckets = 4;
  optional bytes data = 5;
  optional bytes sparse_data = 6;
}
extend AggregatorStateProto { optional HyperLogLogPlusUniqueStateProto hyperloglogplus_unique_state = 112; }
`;

const HLL_TYPE = 112;
const ENCODING_VERSION = 2;
const EXTENSION = '.zetasketch.hyperloglogplus_unique_state';
const RHOW_BITS = 6;
const MAX_SPARSE_PRECISION = 25;

/**
 * zetasketch `DefaultOpsType.Id` value types BigQuery writes: INT64 sketches carry 8 (recorded
 * fixture), STRING sketches BYTES_OR_UTF8_STRING (11: the HLL_COUNT.INIT example of the
 * HyperLogLog++ functions page prints its sketches byte for byte); BYTES sketches share that id
 * (zetasketch hashes bytes and UTF-8 strings alike).
 */
export const VALUE_TYPE = { INT64: 8, BYTES_OR_UTF8_STRING: 11 } as const;

let root: protobuf.Root | undefined;
const stateType = (): protobuf.Type => {
  root ??= protobuf.parse(ZETASKETCH_PROTO, { keepCase: true }).root;
  return root.lookupType('zetasketch.AggregatorStateProto');
};

/** A sketch in memory: counts, precisions and exactly one of the two representations. */
export interface HllState {
  /** Number of (non-NULL) values added, duplicates included. */
  numValues: number;
  valueType?: number;
  precision: number;
  sparsePrecision: number;
  /** Sparse representation: sorted, de-duplicated sparse values. */
  sparse?: number[];
  /** Normal representation: 2^precision registers. */
  registers?: Uint8Array;
}

/** A byte string that is not a sketch this code can read (the caller words the query error). */
export class SketchError extends Error {}

/** The sparse precision BigQuery pairs with normal precision `p`. */
export const sparsePrecisionOf = (p: number): number => Math.min(p + 5, MAX_SPARSE_PRECISION);

const flagOf = (p: number, sp: number): number => 2 ** Math.max(sp, p + RHOW_BITS);

/** Leading zeros + 1 of the lowest `bits` bits of `v` (bits + 1 when they are all zero). */
function rhoW(v: number, bits: number): number {
  if (bits === 0) return 1;
  const w = (v << (32 - bits)) >>> 0;
  return w === 0 ? bits + 1 : Math.clz32(w) + 1;
}

/** ρ(w) at a lower precision from an index and its ρ(w) at a higher one. */
function downgradeRhoW(index: number, rho: number, fromP: number, toP: number): number {
  if (fromP === toP) return rho;
  const suffix = (index << (32 - fromP + toP)) >>> 0;
  return suffix === 0 ? rho + fromP - toP : Math.clz32(suffix) + 1;
}

function encodeSparse(sparseIndex: number, sparseRho: number, p: number, sp: number): number {
  const low = sparseIndex & ((1 << (sp - p)) - 1);
  if (low !== 0) return sparseIndex;
  return flagOf(p, sp) + (sparseIndex >>> (sp - p)) * 2 ** RHOW_BITS + sparseRho;
}

/** The sparse value of a 64-bit hash at precisions (p, sp). */
export function sparseValueOfHash(hash: bigint, p: number, sp: number): number {
  const index = Number(hash >> BigInt(64 - sp));
  const rest = (hash << BigInt(sp)) & 0xffffffffffffffffn;
  let rho: number;
  if (rest === 0n) rho = 64 - sp + 1;
  else {
    const hi = Number(rest >> 32n);
    rho = (hi !== 0 ? Math.clz32(hi) : 32 + Math.clz32(Number(rest & 0xffffffffn))) + 1;
  }
  return encodeSparse(index, rho, p, sp);
}

const isRhoEncoded = (v: number, p: number, sp: number): boolean => v >= flagOf(p, sp);
const sparseIndexOf = (v: number, p: number, sp: number): number =>
  isRhoEncoded(v, p, sp) ? Math.floor((v - flagOf(p, sp)) / 2 ** RHOW_BITS) * 2 ** (sp - p) : v;
/** The normal index and ρ(w) (at p) a sparse value stands for. */
function normalOf(v: number, p: number, sp: number): [number, number] {
  if (!isRhoEncoded(v, p, sp)) return [v >>> (sp - p), rhoW(v, sp - p)];
  const r = v - flagOf(p, sp);
  return [Math.floor(r / 2 ** RHOW_BITS), (r & (2 ** RHOW_BITS - 1)) + sp - p];
}

/** A sparse value at (p, sp) re-encoded at lower precisions (p2, sp2). */
function downgradeSparse(v: number, p: number, sp: number, p2: number, sp2: number): number {
  if (p === p2 && sp === sp2) return v;
  const index = sparseIndexOf(v, p, sp);
  const rho = isRhoEncoded(v, p, sp) ? v & (2 ** RHOW_BITS - 1) : 0;
  return encodeSparse(index >>> (sp - sp2), downgradeRhoW(index, rho, sp, sp2), p2, sp2);
}

/**
 * Sorted unique sparse values → the stored list: of several ρ-encoded values with one index only
 * the largest ρ(w') is kept (ρ-encoded values sort by index, then ρ(w')).
 */
function dedupe(sorted: ArrayLike<number>, p: number, sp: number): number[] {
  const flag = flagOf(p, sp);
  const out: number[] = [];
  let lastIndex = -1;
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i]!;
    if (v < flag) {
      out.push(v);
      continue;
    }
    const index = Math.floor((v - flag) / 2 ** RHOW_BITS);
    if (index === lastIndex) out[out.length - 1] = v;
    else out.push(v);
    lastIndex = index;
  }
  return out;
}

/** Values sorted ascending without repeats. */
function sortUnique(values: ArrayLike<number>): ArrayLike<number> {
  let ascending = true;
  for (let i = 1; i < values.length && ascending; i++) ascending = values[i - 1]! < values[i]!;
  if (ascending) return values;
  // Sparse values are below 2^31; V8 sorts a Uint32Array natively, many times faster than doubles.
  const s = Uint32Array.from(values).sort();
  let n = 0;
  for (let i = 0; i < s.length; i++) if (n === 0 || s[n - 1] !== s[i]) s[n++] = s[i]!;
  return s.subarray(0, n);
}

/** Varint difference encoding of sorted values (the `sparse_data` bytes). */
function differenceEncode(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 5);
  let n = 0;
  let prev = 0;
  for (const v of values) {
    let d = v - prev;
    prev = v;
    while (d >= 0x80) {
      out[n++] = (d & 0x7f) | 0x80;
      d = Math.floor(d / 128);
    }
    out[n++] = d;
  }
  return out.subarray(0, n);
}

/** @throws SketchError on a truncated or over-long varint. */
function differenceDecode(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let prev = 0;
  for (let i = 0; i < bytes.length; ) {
    let d = 0;
    let scale = 1;
    let b: number;
    let n = 0;
    do {
      if (i >= bytes.length || n++ === 5) throw new SketchError('bad varint');
      b = bytes[i++]!;
      d += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80);
    prev += d;
    out.push(prev);
  }
  return out;
}

/** Registers at precision `toP` from sparse values at (p, sp), maxed into `regs`. */
function sparseIntoRegisters(values: number[], p: number, sp: number, toP: number, regs: Uint8Array): void {
  for (const v of values) {
    const [i, r] = normalOf(v, p, sp);
    const j = i >>> (p - toP);
    const rho = downgradeRhoW(i, r, p, toP);
    if (rho > regs[j]!) regs[j] = rho;
  }
}

/** A normal sketch's registers at precision `p` maxed into `regs` at `toP` ≤ p. */
function registersInto(src: Uint8Array, p: number, toP: number, regs: Uint8Array): void {
  if (p === toP) {
    for (let i = 0; i < src.length; i++) if (src[i]! > regs[i]!) regs[i] = src[i]!;
    return;
  }
  for (let i = 0; i < src.length; i++) {
    const r = src[i]!;
    if (r === 0) continue;
    const j = i >>> (p - toP);
    const rho = downgradeRhoW(i, r, p, toP);
    if (rho > regs[j]!) regs[j] = rho;
  }
}

/**
 * A sketch from sorted-or-not sparse values at (p, sparsePrecisionOf(p)): sparse while its encoded
 * data fits in 0.75 · 2^p bytes, normal otherwise.
 */
export function sketchFromSparse(values: number[], p: number, numValues: number, valueType?: number, sp = sparsePrecisionOf(p)): HllState {
  const sparse = dedupe(sortUnique(values), p, sp);
  const state: HllState = { numValues, valueType, precision: p, sparsePrecision: sp };
  if (differenceEncode(sparse).length <= Math.floor(2 ** p * 0.75)) return { ...state, sparse };
  const registers = new Uint8Array(2 ** p);
  sparseIntoRegisters(sparse, p, sp, p, registers);
  return { ...state, registers };
}

/** A normal sketch from (normal index, ρ(w)) pairs at precision p, each given as index · 64 + ρ. */
export function sketchFromPairs(pairs: number[], p: number, numValues: number, valueType?: number): HllState {
  const registers = new Uint8Array(2 ** p);
  for (const k of pairs) {
    const i = Math.floor(k / 64);
    const r = k % 64;
    if (r > registers[i]!) registers[i] = r;
  }
  return { numValues, valueType, precision: p, sparsePrecision: sparsePrecisionOf(p), registers };
}

/** The sketch's bytes (AggregatorStateProto wire form, fields in BigQuery's order). */
export function serializeSketch(s: HllState): Uint8Array {
  const hll: Record<string, unknown> = {};
  if (s.sparse && s.sparse.length > 0) hll.sparse_size = s.sparse.length;
  hll.precision_or_num_buckets = s.precision;
  if (s.sparsePrecision) hll.sparse_precision_or_num_buckets = s.sparsePrecision;
  if (s.registers) hll.data = s.registers;
  else hll.sparse_data = differenceEncode(s.sparse ?? []);
  const msg: Record<string, unknown> = { type: HLL_TYPE, num_values: s.numValues, encoding_version: ENCODING_VERSION };
  if (s.valueType) msg.value_type = s.valueType;
  msg[EXTENSION] = hll;
  return stateType().encode(msg).finish();
}

/**
 * Reads a sketch's bytes.
 * @throws SketchError when the bytes are not an HLL++ AggregatorStateProto of encoding version 2
 *   with valid precisions and representation.
 */
export function parseSketch(bytes: Uint8Array): HllState {
  let o: Record<string, any>;
  try {
    const t = stateType();
    o = t.toObject(t.decode(bytes), { longs: Number, enums: Number, bytes: Uint8Array as never });
  } catch {
    throw new SketchError('not a protobuf AggregatorStateProto');
  }
  const hll = o[EXTENSION] as Record<string, any> | undefined;
  if (o.type !== HLL_TYPE || (o.encoding_version ?? 1) !== ENCODING_VERSION || !hll) throw new SketchError('not an HLL++ state');
  const p = Number(hll.precision_or_num_buckets ?? 0);
  const sp = Number(hll.sparse_precision_or_num_buckets ?? 0);
  if (p < 1 || p > 24 || sp < 0 || sp > MAX_SPARSE_PRECISION || (sp !== 0 && sp < p)) throw new SketchError('bad precision');
  const state: HllState = { numValues: Number(o.num_values ?? 0), valueType: o.value_type || undefined, precision: p, sparsePrecision: sp };
  const data = hll.data as Uint8Array | undefined;
  if (data && data.length > 0) {
    if (data.length !== 2 ** p) throw new SketchError('bad data length');
    return { ...state, registers: new Uint8Array(data) };
  }
  if (sp === 0) return { ...state, registers: new Uint8Array(2 ** p) };
  const sparse = differenceDecode((hll.sparse_data as Uint8Array | undefined) ?? new Uint8Array());
  // Stored values are strictly ascending and below twice the flag bit (a repeated value would
  // also make the linear-counting estimate infinite).
  const top = 2 * flagOf(p, sp);
  for (let i = 0; i < sparse.length; i++) if (sparse[i]! >= top || (i > 0 && sparse[i]! <= sparse[i - 1]!)) throw new SketchError('bad sparse value');
  return { ...state, sparse };
}

/** Why two sketches cannot be merged (the caller words the query error). */
export class MergeError extends Error {
  constructor(
    readonly kind: 'types' | 'precisions',
    readonly a: [number, number] = [0, 0],
    readonly b: [number, number] = [0, 0],
  ) {
    super(kind);
  }
}

/**
 * The union of sketches (HLL_COUNT.MERGE_PARTIAL): the lowest normal and sparse precisions of the
 * inputs, value counts summed; sparse when every input is sparse and the union still fits.
 * @throws MergeError for different value types, or precisions one of which rises while the other falls.
 */
export function mergeSketches(sketches: HllState[]): HllState {
  let p = sketches[0]!.precision;
  let sp = sketches[0]!.sparsePrecision;
  let valueType: number | undefined;
  let numValues = 0;
  for (const s of sketches) {
    const up = s.precision >= p && (s.sparsePrecision >= sp || !s.sparsePrecision);
    const down = s.precision <= p && (s.sparsePrecision <= sp || !sp);
    if (!up && !down) throw new MergeError('precisions', [p, sp], [s.precision, s.sparsePrecision]);
    p = Math.min(p, s.precision);
    sp = Math.min(sp || s.sparsePrecision, s.sparsePrecision || sp);
    if (s.valueType !== undefined && valueType !== undefined && s.valueType !== valueType) throw new MergeError('types');
    valueType ??= s.valueType;
    numValues += s.numValues;
  }
  // Sparse inputs are unioned as sparse values until the union has more values than a sparse
  // sketch may hold bytes (each takes at least one): from then on it can only end normal, and the
  // rest is maxed into registers directly.
  const limit = Math.floor(2 ** p * 0.75);
  let values: number[] | undefined = [];
  let registers: Uint8Array | undefined;
  const toRegisters = (): Uint8Array => {
    if (!registers) {
      registers = new Uint8Array(2 ** p);
      if (values) sparseIntoRegisters(values, p, sp, p, registers);
      values = undefined;
    }
    return registers;
  };
  for (const s of sketches) {
    if (values && s.sparse) {
      for (const v of s.sparse) values.push(downgradeSparse(v, s.precision, s.sparsePrecision, p, sp));
      if (values.length > 2 * limit) {
        values = dedupe(sortUnique(values), p, sp);
        if (values.length > limit) toRegisters();
      }
      continue;
    }
    const regs = toRegisters();
    if (s.sparse) sparseIntoRegisters(s.sparse, s.precision, s.sparsePrecision, p, regs);
    else registersInto(s.registers!, s.precision, p, regs);
  }
  if (values) return sketchFromSparse(values, p, numValues, valueType, sp);
  return { numValues, valueType, precision: p, sparsePrecision: sp, registers: registers! };
}
