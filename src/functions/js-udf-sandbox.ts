/**
 * The JavaScript UDF sandbox: a QuickJS interpreter compiled to WebAssembly (`quickjs-emscripten`),
 * run inside a UDF worker thread (src/functions/js-udf-worker.ts).
 *
 * The code sees only the ECMAScript built-ins (Object, Array, JSON, Math, Date, RegExp, Map, Set,
 * typed arrays, …): no `process`, `require`, module loader (`import()` fails with "could not load
 * module"), file system, network or timers, and no object of the host — arguments arrive as JSON
 * text parsed inside the sandbox, results leave as JSON text. BigQuery's UDF page
 * (https://cloud.google.com/bigquery/docs/user-defined-functions) describes standard JavaScript
 * without the browser's DOM objects. QuickJS lacks `Intl` (V8, BigQuery's engine, has it).
 *
 * Limits: an interrupt handler stops a batch at its deadline (QuickJS raises an uncatchable
 * `InternalError: interrupted`); the interpreter's WebAssembly memory has a maximum, so every
 * allocation past it fails (strings and array buffers included, which QuickJS's own malloc limit
 * does not count), and QuickJS's malloc limit (half of it) stops floods of small objects early;
 * the stack is capped too (a stack overflow is reported like any thrown error).
 *
 * Type mapping (BigQuery's "Supported JavaScript UDF data types" table on that page; the JSON each
 * argument arrives as is prepared by src/functions/js-udf-encoding.ts): FLOAT64 a Number; NUMERIC
 * and BIGNUMERIC a Number when the value is an integer in [-2^53, 2^53], else its decimal String
 * (1.25 → "1.25"); BOOL a Boolean; STRING a String; BYTES its base64 String (b'ab' → "YWI="); DATE
 * a Date at midnight UTC; TIMESTAMP a Date with a `microsecond` field (the fraction below the
 * millisecond, 0–999); ARRAY an Array; STRUCT an Object; JSON the parsed value. The table has no
 * row for INT64 — the recording wins: it arrives as a decimal String (recorded js_udf_int_to_int:
 * `return x + 1` with 41 answers 411) — nor for DATETIME and TIME, which stay Strings.
 *
 * Results are converted by the declared type: a Date for DATE, DATETIME or TIME gives its UTC
 * calendar date / date and time / time of day (the page is silent; UTC matches the DATE argument
 * mapping, so a DATE round-trips), for TIMESTAMP its instant (with a returned `microsecond` field
 * 0–999); NUMERIC, BIGNUMERIC, BYTES and the civil types leave as strings that the lowering
 * converts as CAST/FROM_BASE64 do (src/functions/js-udf-encoding.ts).
 */
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { udfSignature, type SandboxResult, type SandboxUdf } from './js-udf-signature.js';

export { typeText, udfSignature, type SandboxResult, type SandboxUdf } from './js-udf-signature.js';

/**
 * Runs inside QuickJS: `__bq_run(udf, argTypes, returnType, sig, rowsJson)` converts each row's JSON
 * arguments to BigQuery's JavaScript values, calls the UDF, converts the result to JSON text by the
 * declared return type, and answers `R<json>\n<json>…` or `E<json {text, stack}>` (the first
 * failing row) or `M` (out of memory, also when the UDF caught it). Built-ins are captured before
 * any UDF runs, so a UDF that replaces `JSON.stringify` only changes its own answers.
 */
const DRIVER = String.raw`
(function () {
  const parse = JSON.parse, stringify = JSON.stringify, isArray = Array.isArray, apply = Reflect.apply;
  const D = Date, N = Number, S = String, isFinite = Number.isFinite, isInteger = Number.isInteger, trunc = Math.trunc, IE = InternalError;
  const CIVIL = /^(\d{4})-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:[+-]00)?)?$/;
  const pad = (n, w) => S(n).padStart(w, '0');
  // NUMERIC/BIGNUMERIC canonical text: a Number for an integer within [-2^53, 2^53], else the text.
  function decimal(s) {
    const digits = s[0] === '-' ? s.slice(1) : s;
    const safe = /^\d+$/.test(digits) && (digits.length < 16 || (digits.length === 16 && digits <= '9007199254740992'));
    return safe ? N(s) : s;
  }
  // DuckDB's DATE / TIMESTAMPTZ text (UTC) as a Date; a TIMESTAMP's Date carries the microseconds
  // below its millisecond as \`microsecond\`. Undefined for another shape.
  function civil(s) {
    const m = CIVIL.exec(s);
    if (!m) return undefined;
    const d = new D(0);
    d.setUTCFullYear(N(m[1]), N(m[2]) - 1, N(m[3]));
    const f = (m[7] || '').padEnd(6, '0');
    d.setUTCHours(N(m[4] || 0), N(m[5] || 0), N(m[6] || 0), N(f.slice(0, 3)));
    if (m[4] !== undefined) d.microsecond = N(f.slice(3));
    return d;
  }
  // A Date's UTC fields as \`YYYY-MM-DD\`, \`HH:MM:SS.mmm\` or both (\`part\` 'date', 'time', 'datetime');
  // an invalid Date gives "Invalid Date", which the conversion after the sandbox rejects.
  function utcText(d, part) {
    if (!isFinite(d.getTime())) return 'Invalid Date';
    const y = d.getUTCFullYear();
    const date = (y < 0 ? '-' : '') + pad(y < 0 ? -y : y, 4) + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2);
    const time = pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) + '.' + pad(d.getUTCMilliseconds(), 3);
    return part === 'date' ? date : part === 'time' ? time : date + ' ' + time;
  }
  // A returned TIMESTAMP Date's \`microsecond\` field (0-999) as three more fraction digits.
  const micros = (u) => (isInteger(u) && u >= 0 && u <= 999 ? pad(u, 3) : '');
  function toJs(v, t) {
    if (v === null || v === undefined) return null;
    switch (t.kind) {
      case 'INT64': return typeof v === 'string' ? v : S(v);
      case 'FLOAT64': return typeof v === 'number' ? v : N(v);
      case 'NUMERIC': case 'BIGNUMERIC': return typeof v === 'number' ? v : decimal(S(v));
      case 'BOOL': return !!v;
      case 'DATE': return civil(S(v)) || S(v);
      case 'TIMESTAMP': return civil(S(v)) || new D(S(v).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
      case 'JSON': return v;
      case 'ARRAY': { const out = []; for (let i = 0; i < v.length; i++) out.push(toJs(v[i], t.element)); return out; }
      case 'STRUCT': { const o = {}; for (const f of t.fields) o[f.name || ''] = toJs(v[f.name || ''], f.type); return o; }
      default: return typeof v === 'string' ? v : stringify(v);
    }
  }
  function fromJs(v, t, sig) {
    if (v === null || v === undefined) return null;
    switch (t.kind) {
      case 'INT64': {
        const n = N(v);
        if (!isFinite(n)) throw new Error('Cannot convert ' + S(v) + ' to INT64 in ' + sig);
        return trunc(n);
      }
      case 'FLOAT64': return N(v);
      case 'BOOL': return !!v;
      case 'STRING': return S(v);
      case 'DATE': return v instanceof D ? utcText(v, 'date') : S(v);
      case 'DATETIME': return v instanceof D ? utcText(v, 'datetime') : S(v);
      case 'TIME': return v instanceof D ? utcText(v, 'time') : S(v);
      case 'TIMESTAMP': return v instanceof D ? utcText(v, 'datetime') + micros(v.microsecond) + '+00' : S(v);
      case 'JSON': return v;
      case 'ARRAY': {
        if (!isArray(v)) throw new Error('Expected an array result in ' + sig);
        const out = []; for (let i = 0; i < v.length; i++) out.push(fromJs(v[i], t.element, sig)); return out;
      }
      case 'STRUCT': { const o = {}; for (const f of t.fields) o[f.name || ''] = fromJs(v[f.name || ''], f.type, sig); return o; }
      default: return S(v);
    }
  }
  function failure(e) {
    if (e instanceof IE && e.message === 'out of memory') return 'M';
    let text, stack = '';
    try {
      text = e instanceof Object && 'name' in e && 'message' in e ? S(e.name) + ': ' + S(e.message) : S(e);
      stack = e instanceof Object && typeof e.stack === 'string' ? e.stack.slice(0, 2000) : '';
    } catch (e2) {
      text = 'Error';
    }
    return 'E' + stringify({ text: text, stack: stack });
  }
  globalThis.__bq_run = function (udf, argTypes, returnType, sig, rowsJson) {
    const rows = parse(rowsJson), out = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i], args = [];
      for (let j = 0; j < argTypes.length; j++) args.push(toJs(row[j], argTypes[j]));
      try {
        const r = fromJs(apply(udf, null, args), returnType, sig);
        out.push(r === undefined ? 'null' : stringify(r));
      } catch (e) {
        return failure(e);
      }
    }
    return 'R' + out.join('\n');
  };
})();
`;

/** Header lines before the UDF body in the compiled source (for error line numbers). */
const HEADER_LINES = 1;

interface Compiled {
  ctx: QuickJSContext;
  run: QuickJSHandle;
  fn?: QuickJSHandle;
  argTypes: QuickJSHandle;
  returnType: QuickJSHandle;
  sig: string;
  /** A compile error, answered for every call. */
  compileError?: string;
}

/** Contexts kept per sandbox (least recently used first out). */
const CONTEXTS_KEPT = 64;

/** WebAssembly page size, bytes. */
const PAGE = 64 * 1024;
/** Initial WebAssembly memory (the interpreter's build needs 16 MiB to start), pages. */
const INITIAL_PAGES = 256;

/** One QuickJS interpreter instance with its memory and stack limits, and one context per UDF definition. */
export class JsUdfSandbox {
  private readonly contexts = new Map<number, Compiled>();
  private deadline = Infinity;

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly memory: WebAssembly.Memory,
    private readonly maxBytes: number,
  ) {
    runtime.setInterruptHandler(() => Date.now() > this.deadline);
  }

  /**
   * A sandbox with its own interpreter instance, its memory capped at `memoryBytes` (at least
   * 32 MiB) and its stack at `stackBytes`.
   */
  static async create(memoryBytes: number, stackBytes: number): Promise<JsUdfSandbox> {
    const maximum = Math.max(2 * INITIAL_PAGES, Math.floor(memoryBytes / PAGE));
    const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
    const qjs = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
    const rt = qjs.newRuntime();
    rt.setMemoryLimit((maximum * PAGE) / 2);
    rt.setMaxStackSize(stackBytes);
    return new JsUdfSandbox(rt, memory, maximum * PAGE);
  }

  /** True when the interpreter's memory can hardly grow further (an allocation failing there throws `null`). */
  private exhausted(): boolean {
    return this.memory.buffer.byteLength >= this.maxBytes - 4 * 1024 * 1024;
  }

  /**
   * Runs UDF `d` on rows of JSON-array arguments (DuckDB's `to_json`), stopping at `timeoutMs`.
   * After a `limit` answer the sandbox should be discarded (its memory may be exhausted).
   */
  run(d: SandboxUdf, rowsJson: string[], timeoutMs: number): SandboxResult {
    this.deadline = Date.now() + timeoutMs;
    try {
      const c = this.compiled(d);
      if (c.compileError) return { error: c.compileError };
      const rows = c.ctx.newString(`[${rowsJson.join(',')}]`);
      const sig = c.ctx.newString(c.sig);
      const r = c.ctx.callFunction(c.run, c.ctx.undefined, c.fn!, c.argTypes, c.returnType, sig, rows);
      rows.dispose();
      sig.dispose();
      if (r.error) {
        const e = c.ctx.dump(r.error) as { name?: string; message?: string } | undefined;
        r.error.dispose();
        if (e?.message === 'interrupted' || Date.now() > this.deadline) return { limit: 'timeout' };
        if (e?.message === 'out of memory' || (e == null && this.exhausted())) return { limit: 'memory' };
        return { error: `${e?.name ?? 'Error'}: ${e?.message ?? String(e)} at ${c.sig} line 1, column 1` };
      }
      const text = c.ctx.typeof(r.value) === 'string' ? c.ctx.getString(r.value) : '';
      r.value.dispose();
      if (text[0] === 'R') {
        // Each row's JSON text is one line (JSON.stringify escapes line breaks).
        const out = text.length > 1 ? text.slice(1).split('\n') : [];
        return out.length === rowsJson.length ? { ok: out } : { error: `Internal error: ${c.sig} answered ${out.length} rows for ${rowsJson.length}` };
      }
      if (text === 'M') return { limit: 'memory' };
      if (text[0] === 'E') {
        const { text: msg, stack } = JSON.parse(text.slice(1)) as { text: string; stack: string };
        if (msg === 'null' && this.exhausted()) return { limit: 'memory' };
        return { error: positioned(msg, stack, d.code, c.sig) };
      }
      return { limit: Date.now() > this.deadline ? 'timeout' : 'memory' };
    } catch (e) {
      // A trap inside the interpreter (host stack exhausted, heap corrupt): treat as out of memory.
      return Date.now() > this.deadline ? { limit: 'timeout' } : { limit: 'memory' };
    } finally {
      this.deadline = Infinity;
    }
  }

  private compiled(d: SandboxUdf): Compiled {
    const hit = this.contexts.get(d.id);
    if (hit) {
      this.contexts.delete(d.id);
      this.contexts.set(d.id, hit);
      return hit;
    }
    const ctx = this.runtime.newContext();
    const sig = udfSignature(d);
    const unwrap = (code: string, file: string): QuickJSHandle => ctx.unwrapResult(ctx.evalCode(code, file));
    unwrap(DRIVER, 'driver').dispose();
    const c: Compiled = {
      ctx,
      sig,
      run: ctx.getProp(ctx.global, '__bq_run'),
      argTypes: unwrap(`(${JSON.stringify(d.argTypes)})`, 'types'),
      returnType: unwrap(`(${JSON.stringify(d.returnType)})`, 'types'),
    };
    const params = d.argNames.map((n) => (/^[A-Za-z_$][\w$]*$/.test(n) ? n : '_')).join(', ');
    const r = ctx.evalCode(`(function(${params}) {\n${d.code}\n})`, 'udf');
    if (r.error) {
      const e = ctx.dump(r.error) as { name?: string; message?: string; stack?: string };
      r.error.dispose();
      c.compileError = positioned(`${e?.name ?? 'SyntaxError'}: ${e?.message ?? ''}`, String(e?.stack ?? ''), d.code, sig);
    } else c.fn = r.value;
    this.contexts.set(d.id, c);
    if (this.contexts.size > CONTEXTS_KEPT) {
      const [oldest, old] = this.contexts.entries().next().value as [number, Compiled];
      this.contexts.delete(oldest);
      for (const h of [old.fn, old.run, old.argTypes, old.returnType]) h?.dispose();
      old.ctx.dispose();
    }
    return c;
  }
}

/**
 * BigQuery's text of an error thrown by UDF code: `<name>: <message> at f(INT64) line L, column C`,
 * L the line of the body and C the first non-blank column of that line (recorded
 * routines_scripting/js_udf_throws: `Error: boom from js udf at js_boom(INT64) line 1, column 1`).
 */
function positioned(text: string, stack: string, code: string, sig: string): string {
  const pos = /\(udf:(\d+)(?::(\d+))?\)/.exec(stack) ?? /udf:(\d+)(?::(\d+))?/.exec(stack);
  const line = pos ? Math.max(1, Number(pos[1]) - HEADER_LINES) : 1;
  const src = code.split('\n')[line - 1] ?? '';
  const first = src.length - src.trimStart().length + 1;
  const col = pos?.[2] ? Math.min(Number(pos[2]), first) : first;
  return `${v8Wording(text.replace(/\s*\n\s*/g, ' '))} at ${sig} line ${line}, column ${col}`;
}

/**
 * QuickJS's wording of the commonest errors → V8's, the engine BigQuery runs UDFs on (V8 texts:
 * `x is not defined`, `Cannot read properties of undefined (reading 'p')`, `Maximum call stack
 * size exceeded`).
 */
function v8Wording(text: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^ReferenceError: '(.*)' is not defined$/s.exec(text))) return `ReferenceError: ${m[1]} is not defined`;
  if ((m = /^TypeError: cannot read property '(.*)' of (undefined|null)$/s.exec(text))) return `TypeError: Cannot read properties of ${m[2]} (reading '${m[1]}')`;
  if (text === 'InternalError: stack overflow') return 'RangeError: Maximum call stack size exceeded';
  return text;
}
