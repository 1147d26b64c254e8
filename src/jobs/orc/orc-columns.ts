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
 * Each column of a stripe is a resumable reader (its streams keep their positions), so a stripe
 * is read a slice of rows at a time.
 */
import { BigQueryError } from '../../errors/errors.js';
import { scaledToText } from '../../types/decimal.js';
import { DATE_MAX_DAYS, DATE_MIN_DAYS, TIMESTAMP_MAX_MICROS, TIMESTAMP_MIN_MICROS, formatDateDays } from '../../types/temporal.js';
import type { BqType, Value } from '../../types/types.js';
import { OrcFormatError, orcCheck } from './orc-compression.js';
import type { OrcStripe } from './orc-file.js';
import type { OrcType } from './orc-proto.js';
import { StreamReader, booleanRle, byteRle, integerRle, numberRle, type RunReader } from './orc-rle.js';
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

/** A column of one stripe, read a slice at a time. */
export interface ColumnReader {
  /**
   * The next `n` entries (NULL where PRESENT says so; an empty array for a NULL list or map).
   * @throws OrcFormatError for missing or malformed streams; BigQueryError for values BigQuery cannot hold
   */
  read(n: number): Value[];
}

/** What the readers of one stripe share. */
interface Context {
  types: OrcType[];
  bqTypes: BqType[];
  stripe: OrcStripe;
  names: string[];
}

/** The reader of column `id` of a stripe (and of its children). */
export function columnReader(types: OrcType[], bqTypes: BqType[], stripe: OrcStripe, names: string[], id = 0): ColumnReader {
  return makeReader({ types, bqTypes, stripe, names }, id);
}

function stream(cx: Context, id: number, kind: string): StreamReader {
  const s = cx.stripe.streams.get(`${id}:${kind}`);
  if (!s) throw new OrcFormatError(`column ${id} (${cx.names[id]}) has no ${kind} stream`);
  return new StreamReader(s);
}

/** A stream that is read only when a value is asked for (an all-NULL column may lack its streams). */
function lazy<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => (v ??= make());
}

function makeReader(cx: Context, id: number): ColumnReader {
  const t = cx.types[id];
  if (!t) throw new OrcFormatError(`the type tree has no column ${id}`);
  const enc = cx.stripe.encodings[id]?.kind ?? 'DIRECT';
  const v2 = enc === 'DIRECT_V2' || enc === 'DICTIONARY_V2';
  const name = cx.names[id];
  const values = valuesReader(cx, id, t, v2, enc === 'DICTIONARY' || enc === 'DICTIONARY_V2');
  const present = cx.stripe.streams.has(`${id}:PRESENT`) ? booleanRle(stream(cx, id, 'PRESENT')) : undefined;
  const empty = cx.bqTypes[id].kind === 'ARRAY';
  return {
    read(n) {
      if (!present) return n ? values(n) : [];
      const p = present.next(n);
      let nn = 0;
      for (const x of p) if (x) nn++;
      const vals = nn ? values(nn) : [];
      orcCheck(vals.length === nn, `column ${id} (${name}) has ${vals.length} values for ${nn} entries`);
      const out = new Array<Value>(n);
      for (let i = 0, j = 0; i < n; i++) out[i] = p[i] ? vals[j++] : empty ? [] : null;
      return out;
    },
  };
}

/** The reader of `n` non-null values of column `id`. */
function valuesReader(cx: Context, id: number, t: OrcType, v2: boolean, dictionary: boolean): (n: number) => Value[] {
  const name = cx.names[id];
  const data = lazy(() => stream(cx, id, 'DATA'));
  switch (t.kind) {
    case 'BOOLEAN': {
      const r = lazy(() => booleanRle(data()));
      return (n) => r().next(n);
    }
    case 'BYTE': {
      const r = lazy(() => byteRle(data()));
      return (n) => r().next(n).map((b) => BigInt((b << 24) >> 24));
    }
    case 'SHORT':
    case 'INT':
    case 'LONG': {
      const r = lazy(() => integerRle(data(), v2, true));
      return (n) => r().next(n);
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const size = t.kind === 'FLOAT' ? 4 : 8;
      return (n) => {
        const s = data();
        orcCheck(s.pos + n * size <= s.buf.length, `column ${id} (${name}) has a short DATA stream`);
        const view = new DataView(s.buf.buffer, s.buf.byteOffset, s.buf.byteLength);
        const out = new Array<Value>(n);
        for (let i = 0; i < n; i++, s.pos += size) out[i] = size === 4 ? view.getFloat32(s.pos, true) : view.getFloat64(s.pos, true);
        return out;
      };
    }
    case 'STRING':
    case 'VARCHAR':
    case 'CHAR':
    case 'BINARY':
      return stringsReader(cx, id, t.kind === 'BINARY', v2, dictionary);
    case 'DATE': {
      const r = lazy(() => numberRle(data(), v2, true));
      return (n) =>
        r()
          .next(n)
          .map((d) => {
            if (d < DATE_MIN_DAYS || d > DATE_MAX_DAYS) throw new OrcFormatError(`date ${d} days from 1970-01-01 of column ${name} is out of range`);
            return formatDateDays(d);
          });
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP_INSTANT': {
      const seconds = lazy(() => numberRle(data(), v2, true));
      const nanos = lazy(() => numberRle(stream(cx, id, 'SECONDARY'), v2, false));
      const conv = timestampConverter(t.kind === 'TIMESTAMP_INSTANT', cx.stripe.writerTimezone);
      return (n) => {
        const ns = nanos().next(n);
        return seconds()
          .next(n)
          .map((s, i) => {
            const micros = conv(s, ns[i]);
            if (micros < TIMESTAMP_MIN_MICROS || micros > TIMESTAMP_MAX_MICROS) throw new OrcFormatError(`timestamp of column ${name} is out of range`);
            return micros;
          });
      };
    }
    case 'DECIMAL':
      return decimalsReader(cx, id, t, v2);
    case 'STRUCT': {
      const children = t.subtypes.map((c) => makeReader(cx, c));
      return (n) => {
        const cols = children.map((c) => c.read(n));
        const out = new Array<Value>(n);
        for (let i = 0; i < n; i++) out[i] = cols.map((col) => col[i]);
        return out;
      };
    }
    case 'LIST':
    case 'MAP':
      return listsReader(cx, id, t, v2);
    case 'UNION':
      return unionsReader(cx, id, t);
    default:
      throw new OrcFormatError(`unknown type kind ${t.kind}`);
  }
}

function stringsReader(cx: Context, id: number, binary: boolean, v2: boolean, dictionary: boolean): (n: number) => Value[] {
  const name = cx.names[id];
  const decode = (b: Uint8Array): Value => {
    if (binary) return Uint8Array.from(b);
    try {
      return utf8.decode(b);
    } catch {
      throw new OrcFormatError(`column ${name} holds a string that is not UTF-8`);
    }
  };
  const check = (len: number, pos: number, size: number) =>
    orcCheck(len >= 0 && pos + len <= size, `column ${id} (${name}) has a string length past the end of its data`);
  if (!dictionary) {
    const lengths = lazy(() => numberRle(stream(cx, id, 'LENGTH'), v2, false));
    const data = lazy(() => stream(cx, id, 'DATA'));
    return (n) => {
      const s = data();
      return lengths()
        .next(n)
        .map((len) => {
          check(len, s.pos, s.buf.length);
          return decode(s.buf.subarray(s.pos, (s.pos += len)));
        });
    };
  }
  const dict = lazy(() => {
    const size = cx.stripe.encodings[id].dictionarySize;
    if (!size) return [];
    const bytes = stream(cx, id, 'DICTIONARY_DATA').buf;
    let pos = 0;
    return numberRle(stream(cx, id, 'LENGTH'), v2, false)
      .next(size)
      .map((len) => {
        check(len, pos, bytes.length);
        return decode(bytes.subarray(pos, (pos += len)));
      });
  });
  const indexes = lazy(() => numberRle(stream(cx, id, 'DATA'), v2, false));
  return (n) => {
    const d = dict();
    return indexes()
      .next(n)
      .map((k) => {
        orcCheck(k >= 0 && k < d.length, `column ${id} (${name}) refers to dictionary entry ${k} of ${d.length}`);
        return d[k];
      });
  };
}

function decimalsReader(cx: Context, id: number, t: OrcType, v2: boolean): (n: number) => Value[] {
  const scale = t.scale;
  const asString = cx.bqTypes[id].kind === 'STRING';
  const text = (x: bigint) => (asString ? fixedScaleText(x, scale) : scaledToText(x, scale));
  if (!cx.stripe.streams.has(`${id}:SECONDARY`)) {
    // decimal64 (ORC v2): RLE v2 integers at the column's scale.
    const r = lazy(() => integerRle(stream(cx, id, 'DATA'), true, true));
    return (n) => r().next(n).map(text);
  }
  const data = lazy(() => stream(cx, id, 'DATA'));
  const scales = lazy(() => numberRle(stream(cx, id, 'SECONDARY'), v2, true));
  return (n) => {
    const sc = scales().next(n);
    const d = data();
    return sc.map((s) => {
      const v = d.signedVarint();
      return text(s === scale ? v : s < scale ? v * 10n ** BigInt(scale - s) : v / 10n ** BigInt(s - scale));
    });
  };
}

function listsReader(cx: Context, id: number, t: OrcType, v2: boolean): (n: number) => Value[] {
  const name = cx.names[id];
  const lengths = lazy(() => numberRle(stream(cx, id, 'LENGTH'), v2, false));
  const children = t.subtypes.map((c) => makeReader(cx, c));
  return (n) => {
    const lens = lengths().next(n);
    let total = 0;
    for (const l of lens) total += l;
    orcCheck(lens.every((l) => l >= 0) && total < 2 ** 31, `column ${id} (${name}) has invalid lengths`);
    const out = new Array<Value>(n);
    if (t.kind === 'LIST') {
      const elements = children[0].read(total);
      if (elements.some((e) => e === null)) throw BigQueryError.orcNullListElement(name);
      for (let i = 0, pos = 0; i < n; i++) out[i] = elements.slice(pos, (pos += lens[i]));
      return out;
    }
    const keys = children[0].read(total);
    const values = children[1].read(total);
    for (let i = 0, pos = 0; i < n; i++) {
      const entries: Value[] = [];
      for (let k = 0; k < lens[i]; k++, pos++) entries.push([keys[pos], values[pos]]);
      out[i] = entries;
    }
    return out;
  };
}

function unionsReader(cx: Context, id: number, t: OrcType): (n: number) => Value[] {
  const name = cx.names[id];
  const tagsReader: () => RunReader<number> = lazy(() => byteRle(stream(cx, id, 'DATA')));
  const children = t.subtypes.map((c) => makeReader(cx, c));
  const single = t.subtypes.length === 1;
  return (n) => {
    const tags = tagsReader().next(n);
    const counts = new Array<number>(children.length).fill(0);
    for (const tag of tags) {
      orcCheck(tag < children.length, `column ${id} (${name}) has union tag ${tag} of ${children.length}`);
      counts[tag]++;
    }
    const values = children.map((c, k) => c.read(counts[k]));
    const next = new Array<number>(children.length).fill(0);
    return tags.map((tag) => {
      const v = values[tag][next[tag]++];
      if (single) return v;
      const fields = new Array<Value>(children.length).fill(null);
      fields[tag] = v;
      return fields;
    });
  };
}
