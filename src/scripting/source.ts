/**
 * The script's source text as the interpreter sees it: UTF-8 byte ranges of parse-tree nodes
 * (the analyzer's `parseLocationRange`, docs/ARCHITECTURE.md §1), their text, their `[line:column]`, and SQL
 * assembled from source fragments whose analyzer error locations are mapped back to the script.
 *
 * Error locations follow BigQuery's `… at [line:column]` (1-based; columns count characters), so
 * an error in `SET x = y + 1` points into the script, not into the `SELECT` built to evaluate it
 * (BigQuery procedural language: each expression is evaluated as a child job of the script).
 */
import type { Node } from '../analyzer/ast.js';
import { BigQueryError } from '../errors/errors.js';

export interface Range {
  start: number;
  end: number;
}

export class ScriptSource {
  readonly bytes: Buffer;

  constructor(readonly text: string) {
    this.bytes = Buffer.from(text, 'utf8');
  }

  /** The byte range of a parse-tree node. */
  range(n: Node): Range {
    const r = n.parseLocationRange;
    return { start: Number(r?.start ?? 0), end: Number(r?.end ?? 0) };
  }

  /** The source text of a node (or byte range). */
  textOf(n: Node | Range): string {
    const r = 'kind' in n ? this.range(n as Node) : (n as Range);
    return this.bytes.subarray(r.start, r.end).toString('utf8');
  }

  /** Character offset of a byte offset. */
  charAt(byte: number): number {
    return this.bytes.subarray(0, byte).toString('utf8').length;
  }

  /** 1-based line and column of a byte offset. */
  lineCol(byte: number): { line: number; column: number } {
    const before = this.bytes.subarray(0, byte).toString('utf8');
    const nl = before.lastIndexOf('\n');
    return { line: before.split('\n').length, column: before.length - nl };
  }
}

/** A piece of generated SQL: literal text, or the text of a script node (its errors map back). */
type Piece = string | Node;

/**
 * SQL built from literal text and script fragments, e.g. `SELECT ` + the expression of a SET.
 * An analyzer error `… at [1:12]` inside a fragment is reported at the fragment's place in the
 * script; outside any fragment, at the first fragment.
 */
export class FragmentSql {
  readonly sql: string;
  private readonly spans: { at: number; length: number; origin: number }[] = [];

  constructor(
    private readonly src: ScriptSource,
    pieces: Piece[],
  ) {
    let sql = '';
    for (const p of pieces) {
      if (typeof p === 'string') sql += p;
      else {
        const text = src.textOf(p);
        this.spans.push({ at: sql.length, length: text.length, origin: src.charAt(src.range(p).start) });
        sql += text;
      }
    }
    this.sql = sql;
  }

  /** Rewrites the `at [l:c]` locations of an analyzer error to script positions. */
  remap(e: unknown): unknown {
    if (!(e instanceof BigQueryError) || !this.spans.length) return e;
    const message = e.message.replace(/ at \[(\d+):(\d+)\]/g, (_m, l: string, c: string) => {
      const { line, column } = this.scriptPosition(Number(l), Number(c));
      return ` at [${line}:${column}]`;
    });
    if (message === e.message) return e;
    return BigQueryError.withMessage(e, message);
  }

  private scriptPosition(line: number, column: number): { line: number; column: number } {
    const lines = this.sql.split('\n');
    let offset = column - 1;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    const span = this.spans.find((s) => offset >= s.at && offset <= s.at + s.length) ?? this.spans[0];
    const inside = Math.min(Math.max(offset - span.at, 0), span.length);
    const scriptChar = span.origin + inside;
    const before = this.src.text.slice(0, scriptChar);
    return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
  }
}
