/**
 * A message sink for the proto rows of the columnar fast path (src/wire/write-proto-columns.ts):
 * protobufjs's generated decoder of the writer schema (`Type#decode`, which starts with
 * `m = new this.ctor` and assigns each field it reads to `m`) is given, as the type's constructor
 * (protobufjs's documented `Type#ctor` hook), one object whose fields are setters that store each
 * value straight into the columns at the current row. No message object is made per row and no
 * pass over a message's keys follows: per 1M rows of (INT64, FLOAT64, STRING), the message
 * objects and the loop reading them back cost about half of the decoding worker's CPU
 * (bench/storage-write.ts, the columnar decoder alone).
 *
 * The wire format is still read by protobufjs alone; a field read twice keeps the last value, as
 * protobuf's merge rule wants of a scalar (encoding guide, "Last One Wins").
 */
import protobuf from 'protobufjs';
import type { SpanReader, StringSpans } from './write-proto-string-bytes.js';

/** How a field's value is stored: 0 int64 family, 1 int32 family, 2 uint32 family, 3 float, 4 bool, 5 string (a span of a SpanReader). */
export type SinkStore = 0 | 1 | 2 | 3 | 4 | 5;

/** Where one field's values go during a batch (set by {@link ProtoRowSink.use}). */
export interface SlotTarget {
  valid: Uint8Array;
  /** INT64 as two int32 words per row (little-endian halves). */
  words: Int32Array;
  f64: Float64Array;
  u8: Uint8Array;
  spans: StringSpans | undefined;
}

const NO_WORDS = new Int32Array(0);
const NO_F64 = new Float64Array(0);
const NO_U8 = new Uint8Array(0);

/**
 * The decoder of one writer schema bound to a sink: `decode(reader, length)` reads one row message
 * of `length` bytes from `reader` into row {@link ProtoRowSink.row} of the bound columns.
 */
export class ProtoRowSink {
  /** The row the decoder's assignments go to. */
  row = 0;
  private readonly targets: SlotTarget[];
  private reader: SpanReader | undefined;

  /**
   * @param type a copy of the writer schema's message type that nothing else decodes with (its
   *   constructor is replaced); resolved.
   * @param fields per field name of `type` read by the fast path, its slot number and store kind.
   */
  private constructor(
    private readonly type: protobuf.Type,
    fields: readonly { key: string; slot: number; store: SinkStore }[],
  ) {
    this.targets = fields.map(() => ({ valid: NO_U8, words: NO_WORDS, f64: NO_F64, u8: NO_U8, spans: undefined }));
    // The one object every `new this.ctor` of the decoder gives, with a setter per field as its own
    // property (so the decoder's check of a proto2 `required` field finds it; the fast path checks
    // REQUIRED columns itself, from `valid`).
    const proto = Object.create(protobuf.Message.prototype) as object;
    const target = Object.create(proto) as object;
    for (const f of fields) Object.defineProperty(target, f.key, { set: this.setterOf(f.slot, f.store), get: () => undefined, configurable: true });
    const Sink = function Sink() {
      return target;
    } as unknown as protobuf.Constructor<object>;
    (Sink as unknown as { prototype: object }).prototype = proto;
    type.ctor = Sink;
  }

  /**
   * A sink for the fields of `type` named in `fields` (each field name once), or undefined when
   * protobufjs's decoder of the type cannot be given one. `type` must be a copy that nothing else
   * decodes with (write-proto-string-bytes.ts bytesTyped makes one): its constructor is replaced.
   */
  static on(type: protobuf.Type, fields: readonly { key: string; slot: number; store: SinkStore }[]): ProtoRowSink | undefined {
    try {
      return new ProtoRowSink(type, fields);
    } catch {
      return undefined;
    }
  }

  /**
   * The targets of one slot for a batch: `valid` (1 per row whose field was read) and the column's
   * values (`words` for INT64, `f64` for FLOAT64, `u8` for BOOL, `spans` for STRING).
   */
  static target(t: Partial<SlotTarget> & { valid: Uint8Array }): SlotTarget {
    return { valid: t.valid, words: t.words ?? NO_WORDS, f64: t.f64 ?? NO_F64, u8: t.u8 ?? NO_U8, spans: t.spans };
  }

  /**
   * Points the sink at a batch: `targets` per slot ({@link ProtoRowSink.target}), STRING spans read
   * from `reader`. Decodes of several batches may take turns (each yields to the event loop between
   * slices of rows), so each calls this again before every slice it decodes.
   */
  use(targets: readonly SlotTarget[], reader: SpanReader | undefined): void {
    for (let k = 0; k < targets.length; k++) this.targets[k] = targets[k]!;
    this.reader = reader;
  }

  /**
   * Decodes one row message of `length` bytes at `reader`'s position into row {@link row}.
   * @throws protobufjs's errors for a malformed message.
   */
  decode(reader: protobuf.Reader, length: number): void {
    this.type.decode(reader, length);
  }

  /** The setter of one field (a closure per field, so each assignment site of the decoder sees one function). */
  private setterOf(slot: number, store: SinkStore): (v: unknown) => void {
    const targets = this.targets;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the setters run with the sink object as `this`
    const sink = this;
    switch (store) {
      case 0:
        return (v) => {
          const t = targets[slot]!;
          const r = sink.row;
          t.valid[r] = 1;
          if (typeof v === 'object' && v !== null) {
            t.words[2 * r] = (v as { low: number }).low;
            t.words[2 * r + 1] = (v as { high: number }).high;
          } else {
            // protobufjs without long.js gives numbers (exact up to 2^53).
            const n = v as number;
            t.words[2 * r] = n >>> 0;
            t.words[2 * r + 1] = Math.floor(n / 4294967296) | 0;
          }
        };
      case 1:
        return (v) => {
          const t = targets[slot]!;
          const r = sink.row;
          t.valid[r] = 1;
          t.words[2 * r] = v as number;
          t.words[2 * r + 1] = (v as number) < 0 ? -1 : 0;
        };
      case 2:
        return (v) => {
          const t = targets[slot]!;
          const r = sink.row;
          t.valid[r] = 1;
          t.words[2 * r] = (v as number) | 0;
          t.words[2 * r + 1] = 0;
        };
      case 3:
        return (v) => {
          const t = targets[slot]!;
          t.valid[sink.row] = 1;
          t.f64[sink.row] = v as number;
        };
      case 4:
        return (v) => {
          const t = targets[slot]!;
          t.valid[sink.row] = 1;
          t.u8[sink.row] = v ? 1 : 0;
        };
      default:
        return (v) => {
          const t = targets[slot]!;
          const reader = sink.reader!;
          t.valid[sink.row] = 1;
          t.spans!.set(sink.row, reader.start(v as number), reader.length(v as number));
        };
    }
  }
}
