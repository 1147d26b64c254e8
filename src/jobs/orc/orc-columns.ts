/**
 * Column readers of one ORC stripe (Apache ORC specification v1, "Column Encodings",
 * https://orc.apache.org/specification/ORCv1/), producing BigQuery values (src/types/types.ts
 * Value) of the types orc-types.ts maps:
 * - every column may have a PRESENT stream (boolean RLE); the other streams hold only the
 *   non-null values, and a compound column's children only the entries of its non-null values;
 * - boolean: DATA boolean RLE; tinyint: DATA byte RLE; smallint / int / bigint / date: DATA
 *   signed integer RLE (v1 for DIRECT, v2 for DIRECT_V2); float / double: DATA IEEE 754
 *   little-endian;
 * - string / varchar / char / binary: DIRECT — DATA bytes and LENGTH unsigned RLE; DICTIONARY
 *   — DATA the entries' indexes, LENGTH the dictionary entries' lengths, DICTIONARY_DATA their
 *   bytes (dictionarySize entries, from the column's encoding);
 * - timestamp: DATA seconds and SECONDARY nanoseconds (orc-timestamps.ts);
 * - decimal: DATA unbounded zigzag varints and SECONDARY signed RLE scales (decimal64 of ORC v2:
 *   DATA signed RLE v2 at the column's scale, no SECONDARY);
 * - struct: its children; list: LENGTH unsigned RLE and the element child; map: LENGTH and
 *   the key and value children; union: DATA byte RLE tags and one child per variant.
 */
import { BigQueryError } from '../../errors/errors.js';
import { scaledToText } from '../../types/decimal.js';
import { DATE_MAX_DAYS, DATE_MIN_DAYS, TIMESTAMP_MAX_MICROS, TIMESTAMP_MIN_MICROS, formatDateDays } from '../../types/temporal.js';
import type { BqType, Value } from '../../types/types.js';
import { OrcFormatError, orcCheck } from './orc-compression.js';
import type { OrcStripe } from './orc-file.js';
import type { OrcType } from './orc-proto.js';
import { StreamReader, readBooleans, readByteRle, readIntegers, readNumbers } from './orc-rle.js';
import { timestampConverter } from './orc-timestamps.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A decimal's text with exactly `scale` fraction digits (how a decimal loaded as STRING reads). */
function fixedScaleText(value: bigint, scale: number): string {
  const neg = value < 0n;
  let digits = (neg ? -value : value).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return neg ? '-' + digits : digits;
}

/** Reads the columns of one stripe. */
export class StripeColumns {
  /**
   * @param types the file's type tree (Footer.types)
   * @param bqTypes the BigQuery type of each column id (orc-types.ts bigQueryType)
   * @param stripe the stripe's streams and encodings
   * @param names the dotted field path of each column id (error messages)
   */
  constructor(
    private readonly types: OrcType[],
    private readonly bqTypes: BqType[],
    private readonly stripe: OrcStripe,
    private readonly names: string[],
  ) {}

  private stream(id: number, kind: string): StreamReader {
    const s = this.stripe.streams.get(`${id}:${kind}`);
    if (!s) throw new OrcFormatError(`column ${id} (${this.names[id]}) has no ${kind} stream`);
    return new StreamReader(s);
  }

  private v2(id: number): boolean {
    const k = this.stripe.encodings[id]?.kind;
    return k === 'DIRECT_V2' || k === 'DICTIONARY_V2';
  }

  /**
   * The `n` entries of column `id` (NULL where PRESENT says so; an empty array for a NULL list or map).
   * @throws OrcFormatError for missing or malformed streams; BigQueryError for values BigQuery cannot hold
   */
  read(id: number, n: number): Value[] {
    const present = this.stripe.streams.has(`${id}:PRESENT`) ? readBooleans(this.stream(id, 'PRESENT'), n) : undefined;
    let nn = n;
    if (present) nn = present.reduce((c, p) => c + (p ? 1 : 0), 0);
    const values = nn === 0 ? [] : this.values(id, nn);
    orcCheck(values.length === nn, `column ${id} (${this.names[id]}) has ${values.length} values for ${nn} entries`);
    if (!present) return values;
    const empty = this.bqTypes[id].kind === 'ARRAY';
    const out = new Array<Value>(n);
    for (let i = 0, j = 0; i < n; i++) out[i] = present[i] ? values[j++] : empty ? [] : null;
    return out;
  }

  private values(id: number, n: number): Value[] {
    const t = this.types[id];
    const v2 = this.v2(id);
    switch (t.kind) {
      case 'BOOLEAN':
        return readBooleans(this.stream(id, 'DATA'), n);
      case 'BYTE':
        return Array.from(readByteRle(this.stream(id, 'DATA'), n), (b) => BigInt((b << 24) >> 24));
      case 'SHORT':
      case 'INT':
      case 'LONG':
        return readIntegers(this.stream(id, 'DATA'), n, v2, true);
      case 'FLOAT':
      case 'DOUBLE': {
        const data = this.stream(id, 'DATA').buf;
        const size = t.kind === 'FLOAT' ? 4 : 8;
        orcCheck(data.length >= n * size, `column ${id} (${this.names[id]}) has a short DATA stream`);
        const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
        const out = new Array<Value>(n);
        for (let i = 0; i < n; i++) out[i] = size === 4 ? view.getFloat32(i * 4, true) : view.getFloat64(i * 8, true);
        return out;
      }
      case 'STRING':
      case 'VARCHAR':
      case 'CHAR':
      case 'BINARY':
        return this.strings(id, n, t.kind === 'BINARY');
      case 'DATE':
        return readNumbers(this.stream(id, 'DATA'), n, v2, true).map((d) => {
          if (d < DATE_MIN_DAYS || d > DATE_MAX_DAYS) throw new OrcFormatError(`date ${d} days from 1970-01-01 of column ${this.names[id]} is out of range`);
          return formatDateDays(d);
        });
      case 'TIMESTAMP':
      case 'TIMESTAMP_INSTANT': {
        const seconds = readNumbers(this.stream(id, 'DATA'), n, v2, true);
        const nanos = readNumbers(this.stream(id, 'SECONDARY'), n, v2, false);
        const conv = timestampConverter(t.kind === 'TIMESTAMP_INSTANT', this.stripe.writerTimezone);
        return seconds.map((s, i) => {
          const micros = conv(s, nanos[i]);
          if (micros < TIMESTAMP_MIN_MICROS || micros > TIMESTAMP_MAX_MICROS) throw new OrcFormatError(`timestamp of column ${this.names[id]} is out of range`);
          return micros;
        });
      }
      case 'DECIMAL':
        return this.decimals(id, n, v2);
      case 'STRUCT': {
        const children = t.subtypes.map((c) => this.read(c, n));
        const out = new Array<Value>(n);
        for (let i = 0; i < n; i++) out[i] = children.map((ch) => ch[i]);
        return out;
      }
      case 'LIST':
      case 'MAP':
        return this.lists(id, n, v2);
      case 'UNION':
        return this.unions(id, n);
      default:
        throw new OrcFormatError(`unknown type kind ${t.kind}`);
    }
  }

  private strings(id: number, n: number, binary: boolean): Value[] {
    const enc = this.stripe.encodings[id]?.kind ?? 'DIRECT';
    const v2 = this.v2(id);
    const slices = (data: Uint8Array, lengths: number[]): Value[] => {
      let pos = 0;
      return lengths.map((len) => {
        orcCheck(len >= 0 && pos + len <= data.length, `column ${id} (${this.names[id]}) has a string length past the end of its data`);
        const b = data.subarray(pos, (pos += len));
        if (binary) return Uint8Array.from(b);
        try {
          return utf8.decode(b);
        } catch {
          throw new OrcFormatError(`column ${this.names[id]} holds a string that is not UTF-8`);
        }
      });
    };
    if (enc === 'DIRECT' || enc === 'DIRECT_V2') return slices(this.stream(id, 'DATA').buf, readNumbers(this.stream(id, 'LENGTH'), n, v2, false));
    const size = this.stripe.encodings[id].dictionarySize;
    const dict = slices(size ? this.stream(id, 'DICTIONARY_DATA').buf : new Uint8Array(0), size ? readNumbers(this.stream(id, 'LENGTH'), size, v2, false) : []);
    return readNumbers(this.stream(id, 'DATA'), n, v2, false).map((k) => {
      orcCheck(k >= 0 && k < dict.length, `column ${id} (${this.names[id]}) refers to dictionary entry ${k} of ${dict.length}`);
      return dict[k];
    });
  }

  private decimals(id: number, n: number, v2: boolean): Value[] {
    const t = this.types[id];
    const scale = t.scale;
    const asString = this.bqTypes[id].kind === 'STRING';
    let unscaled: bigint[];
    let scales: number[];
    if (this.stripe.streams.has(`${id}:SECONDARY`)) {
      const data = this.stream(id, 'DATA');
      unscaled = new Array<bigint>(n);
      for (let i = 0; i < n; i++) unscaled[i] = data.signedVarint();
      scales = readNumbers(this.stream(id, 'SECONDARY'), n, v2, true);
    } else {
      // decimal64 (ORC v2): RLE v2 integers at the column's scale.
      unscaled = readIntegers(this.stream(id, 'DATA'), n, true, true);
      scales = new Array<number>(n).fill(scale);
    }
    return unscaled.map((v, i) => {
      const s = scales[i];
      const x = s === scale ? v : s < scale ? v * 10n ** BigInt(scale - s) : v / 10n ** BigInt(s - scale);
      return asString ? fixedScaleText(x, scale) : scaledToText(x, scale);
    });
  }

  private lists(id: number, n: number, v2: boolean): Value[] {
    const t = this.types[id];
    const lengths = readNumbers(this.stream(id, 'LENGTH'), n, v2, false);
    const total = lengths.reduce((a, b) => a + b, 0);
    orcCheck(lengths.every((l) => l >= 0) && Number.isSafeInteger(total) && total < 2 ** 31, `column ${id} (${this.names[id]}) has invalid lengths`);
    const out = new Array<Value>(n);
    if (t.kind === 'LIST') {
      const elements = this.read(t.subtypes[0], total);
      if (elements.some((e) => e === null)) throw BigQueryError.orcNullListElement(this.names[id]);
      for (let i = 0, pos = 0; i < n; i++) out[i] = elements.slice(pos, (pos += lengths[i]));
      return out;
    }
    const keys = this.read(t.subtypes[0], total);
    const values = this.read(t.subtypes[1], total);
    for (let i = 0, pos = 0; i < n; i++) {
      const entries: Value[] = [];
      for (let k = 0; k < lengths[i]; k++, pos++) entries.push([keys[pos], values[pos]]);
      out[i] = entries;
    }
    return out;
  }

  private unions(id: number, n: number): Value[] {
    const t = this.types[id];
    const tags = readByteRle(this.stream(id, 'DATA'), n);
    const counts = new Array<number>(t.subtypes.length).fill(0);
    for (const tag of tags) {
      orcCheck(tag < t.subtypes.length, `column ${id} (${this.names[id]}) has union tag ${tag} of ${t.subtypes.length}`);
      counts[tag]++;
    }
    const children = t.subtypes.map((c, k) => this.read(c, counts[k]));
    const next = new Array<number>(t.subtypes.length).fill(0);
    const single = t.subtypes.length === 1;
    return Array.from(tags, (tag) => {
      const v = children[tag][next[tag]++];
      if (single) return v;
      const fields = new Array<Value>(t.subtypes.length).fill(null);
      fields[tag] = v;
      return fields;
    });
  }
}
