/**
 * FORMAT(format_string, …) (GoogleSQL "String functions" → FORMAT). The format string must be a
 * constant: it is parsed here and each specifier becomes a piece of SQL, concatenated.
 *
 * Supported: `%d %i %o %x %X %f %F %e %E %g %G %s %t %T %%` with flags `- + space # 0`, width and
 * precision. Not supported: `*` width/precision and the `'` (grouping) flag — they raise "not
 * supported".
 *
 * NULLs (https://cloud.google.com/bigquery/docs/reference/standard-sql/string_functions#format_string,
 * "NULL argument handling"; checked against the ZetaSQL reference evaluator): a NULL format string
 * gives NULL; a NULL argument of `%t` / `%T` prints `NULL` (then padded or cut like any text:
 * `FORMAT('%10t|', NULL)` = `'      NULL|'`), and a NULL argument of any other specifier makes the
 * whole result NULL (`FORMAT('-%s-', NULL)` is NULL) — each piece is NULL then, and `||` carries it.
 */
import { BigQueryError } from '../errors/errors.js';
import type { BqType } from '../types/types.js';
import type { FnCall, FnTable } from './registry.js';
import { formatT } from './text.js';
import { isNullLiteral, q, stringLiteral } from './util.js';

const SPEC = /%([-+ #0']*)(\d+|\*)?(?:\.(\d+|\*))?([diouxXfFeEgGstT%])/g;

/** Pads `text` (SQL) to `width` characters: right-aligned, or left-aligned with the `-` flag. */
function widthPad(text: string, flags: string, width?: string): string {
  if (!width) return text;
  const fn = flags.includes('-') ? 'rpad' : 'lpad';
  return `(CASE WHEN length(${text}) >= ${width} THEN ${text} ELSE ${fn}(${text}, ${width}, ' ') END)`;
}

function piece(flags: string, width: string | undefined, prec: string | undefined, spec: string, arg: string, t: BqType): string {
  if (width === '*' || prec === '*' || flags.includes("'")) throw BigQueryError.notSupported(`FORMAT specifier '%${flags}${width ?? ''}${prec ? '.' + prec : ''}${spec}'`);
  const p = prec !== undefined ? `.${prec}` : '';
  switch (spec) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      return `printf('%${flags}${width ?? ''}${p}${spec === 'i' || spec === 'u' ? 'd' : spec}', CAST(${arg} AS BIGINT))`;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      return `printf('%${flags}${width ?? ''}${p}${spec}', CAST(${arg} AS DOUBLE))`;
    case 's': {
      const s = t.kind === 'STRING' ? arg : formatT(arg, t, false);
      return widthPad(prec !== undefined ? `left(${s}, ${prec})` : s, flags, width);
    }
    case 't':
    case 'T': {
      const s = formatT(arg, t, spec === 'T');
      return widthPad(prec !== undefined ? `left(${s}, ${prec})` : s, flags, width);
    }
  }
  throw BigQueryError.notSupported(`FORMAT specifier %${spec}`);
}

function format(c: FnCall): string {
  if (isNullLiteral(c.args[0])) return 'CAST(NULL AS VARCHAR)';
  const fmt = stringLiteral(c.args[0]);
  if (fmt === undefined) throw BigQueryError.notSupported('FORMAT with a non-constant format string');
  const parts: string[] = [];
  let last = 0;
  let argi = 1;
  for (const m of fmt.matchAll(SPEC)) {
    if (m.index! > last) parts.push(q(fmt.slice(last, m.index)));
    last = m.index! + m[0].length;
    const [, flags, width, prec, spec] = m;
    if (spec === '%') {
      parts.push(`'%'`);
      continue;
    }
    const arg = c.args[argi];
    const t = c.argTypes[argi];
    argi++;
    if (arg === undefined || !t) throw BigQueryError.formatTooFewArguments();
    parts.push(piece(flags, width, prec, spec, arg, t));
  }
  if (last < fmt.length) parts.push(q(fmt.slice(last)));
  if (!parts.length) return `''`;
  return `(${parts.join(' || ')})`;
}

/** FORMAT of the string_functions page. */
export const STRING_FORMAT_FUNCTIONS: FnTable = { format };
