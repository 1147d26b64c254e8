/**
 * String and bytes literal concatenation (BigQuery lexical structure, "String and bytes literals":
 * a literal may be divided into chunks, each with its own quoting or raw prefix, separated by
 * whitespace or comments; the value is the concatenation; string and bytes chunks can't be mixed;
 * this also applies to the string of typed literals such as `DATE '2014' "-01-31"`). This analyzer
 * build (about 2023) does not parse adjacent literals, so the chunks are merged into one
 * single-quoted literal of the same value before the statement reaches it.
 *
 * Each chunk's text is re-encoded, not decoded: escapes of quoted chunks are kept as written (an
 * illegal escape still fails in the analyzer), raw chunks get their backslashes and quotes escaped,
 * and quotes and line breaks of triple-quoted chunks are escaped.
 */

/** A literal chunk: its byte-independent string offsets, whether bytes, and its text re-encoded for a `'…'` literal. */
interface Chunk {
  start: number;
  end: number;
  bytes: boolean;
  body: string;
}

const TOKEN = /--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/|([rRbB]{0,2})('{3}[\s\S]*?'{3}|"{3}[\s\S]*?"{3}|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|`(?:\\.|[^`\\])*`/g;

/** Escapes what a `'…'` literal cannot hold as is; `raw` chunks also escape backslashes. */
function reencode(content: string, raw: boolean): string {
  let out = '';
  for (let i = 0; i < content.length; i++) {
    const ch = content[i];
    if (ch === '\\') {
      if (raw) out += '\\\\';
      else {
        out += ch + (content[i + 1] ?? '');
        i++;
      }
    } else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else out += ch;
  }
  return out;
}

/** The literal chunk of a token match, or undefined for comments and quoted identifiers. */
function chunkOf(m: RegExpMatchArray): Chunk | undefined {
  if (m[2] === undefined) return undefined;
  const prefix = (m[1] ?? '').toLowerCase();
  const q = m[2];
  const n = q.startsWith("'''") || q.startsWith('"""') ? 3 : 1;
  return { start: m.index!, end: m.index! + m[0].length, bytes: prefix.includes('b'), body: reencode(q.slice(n, q.length - n), prefix.includes('r')) };
}

/**
 * Merges adjacent string (or bytes) literal chunks into single literals.
 * @returns the rewritten text, or undefined when the text has no adjacent chunks
 */
export function concatLiterals(sql: string): string | undefined {
  const runs: Chunk[][] = [];
  let run: Chunk[] = [];
  let last = 0;
  const close = () => {
    if (run.length > 1) runs.push(run);
    run = [];
  };
  for (const m of sql.matchAll(TOKEN)) {
    const between = sql.slice(last, m.index);
    last = m.index! + m[0].length;
    if (between.trim() !== '') close();
    const c = chunkOf(m);
    if (c === undefined) {
      if (!m[0].startsWith('`')) continue; // a comment separates chunks without ending a run
      close();
      continue;
    }
    // A letter or digit right before the quote belongs to an identifier, not a prefix: not a chunk.
    if (c.start > 0 && /[\w]/.test(sql[c.start - 1] ?? '')) {
      close();
      continue;
    }
    if (run.length && run[0].bytes !== c.bytes) close();
    run.push(c);
  }
  close();
  if (!runs.length) return undefined;
  let out = '';
  let pos = 0;
  for (const r of runs) {
    out += sql.slice(pos, r[0].start) + (r[0].bytes ? 'b' : '') + `'${r.map((c) => c.body).join('')}'`;
    pos = r[r.length - 1].end;
  }
  return out + sql.slice(pos);
}
