/**
 * FORMAT(format_string, …) (GoogleSQL "String functions" → FORMAT). The format string must be a
 * constant: it is parsed here and each specifier becomes a piece of SQL, concatenated.
 *
 * Supported: `%d %i %o %x %X %f %F %e %E %g %G %s %t %T %%` with flags `- + space # 0 '`, width
 * and precision. Not supported: `*` width/precision — it raises "not supported". As the ZetaSQL
 * reference evaluator: `%o %x %X` are signed (`FORMAT('%x', -255)` = `-ff`, `'%#08x'` = `-0x000ff`);
 * the `'` flag groups the integer digits — by 3 with `,` (`%'d` 123456789 = `123,456,789`, also
 * `%f %F %g %G`), by 4 with `,` for `%o`, by 4 with `:` for `%x %X` (`75b:cd15`) — before the width
 * is applied (zero padding is not grouped: `%'012d` = `0001,234,567`); `%e %E %s %t %T` ignore it.
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
import { defineUdf } from './builtin-udfs.js';
import { formatT } from './text.js';
import { isNullLiteral, q, stringLiteral } from './util.js';

const SPEC = /%([-+ #0']*)(\d+|\*)?(?:\.(\d+|\*))?([diouxXfFeEgGstT%])/g;

/** Pads `text` (SQL) to `width` characters: right-aligned, or left-aligned with the `-` flag. */
function widthPad(text: string, flags: string, width?: string): string {
  if (!width) return text;
  const fn = flags.includes('-') ? 'rpad' : 'lpad';
  return `(CASE WHEN length(${text}) >= ${width} THEN ${text} ELSE ${fn}(${text}, ${width}, ' ') END)`;
}

/**
 * A formatted number's text `core` (sign, then an optional `0x`/`0X` when `hex`, digits, then any
 * fraction or exponent) with its leading digits grouped by `size` with `sep` (size 0: not grouped),
 * then brought to `width`: `mode` '-' pads on the right, '0' with zeros after the sign and prefix,
 * '' with spaces on the left.
 */
export function finishNumber(core: string, size: number, sep: string, hex: boolean, width: number, mode: string): string {
  const m = (hex ? /^([-+ ]?)(0[xX])?([0-9a-fA-F]*)(.*)$/s : /^([-+ ]?)()(\d*)(.*)$/s).exec(core)!;
  const [, sign, prefix, digits, tail] = m as unknown as [string, string, string | undefined, string, string];
  let run = digits;
  if (size > 0) for (let i = digits.length - size; i > 0; i -= size) run = `${run.slice(0, i)}${sep}${run.slice(i)}`;
  const text = `${sign}${prefix ?? ''}${run}${tail}`;
  if (text.length >= width) return text;
  if (mode === '-') return text.padEnd(width, ' ');
  if (mode === '0' && digits) return `${sign}${prefix ?? ''}${'0'.repeat(width - text.length)}${run}${tail}`;
  return text.padStart(width, ' ');
}

defineUdf('bq_format_finish', ['VARCHAR', 'BIGINT', 'VARCHAR', 'BOOLEAN', 'BIGINT', 'VARCHAR'], 'VARCHAR', (core, size, sep, hex, width, mode) =>
  finishNumber(core, Number(size), sep, hex, Number(width), mode),
);

/** Digit grouping of the `'` flag per specifier: [group size, separator]. */
const GROUPING: Record<string, [number, string]> = { d: [3, ','], i: [3, ','], u: [3, ','], f: [3, ','], F: [3, ','], g: [3, ','], G: [3, ','], o: [4, ','], x: [4, ':'], X: [4, ':'] };

/**
 * A number's piece through {@link finishNumber}: `core` (SQL, formatted without width, `-`, `0` or
 * `'`) grouped when `flags` holds `'`, and padded to `width`.
 */
function finished(core: string, flags: string, width: string | undefined, spec: string): string {
  const [size, sep] = flags.includes("'") ? GROUPING[spec]! : [0, ''];
  if (!size && !width) return core;
  const mode = flags.includes('-') ? '-' : flags.includes('0') ? '0' : '';
  return `bq_format_finish(${core}, ${size}, '${sep}', ${spec === 'x' || spec === 'X'}, ${width ?? 0}, '${mode}')`;
}

function piece(flags: string, width: string | undefined, prec: string | undefined, spec: string, arg: string, t: BqType): string {
  if (width === '*' || prec === '*') throw BigQueryError.notSupported(`FORMAT specifier '%${flags}${width ?? ''}${prec ? '.' + prec : ''}${spec}'`);
  const p = prec !== undefined ? `.${prec}` : '';
  const grouped = flags.includes("'") && GROUPING[spec] !== undefined;
  flags = flags.replace(/'/g, '');
  // Flags printf keeps when the width is applied afterwards.
  const inner = flags.replace(/[-0]/g, '');
  switch (spec) {
    case 'o':
    case 'x':
    case 'X': {
      // Signed: the magnitude's digits (HUGEINT: INT64's minimum has one) after the value's sign.
      const v = `CAST(${arg} AS BIGINT)`;
      const sign = `(CASE WHEN ${v} < 0 THEN '-' ${flags.includes('+') ? `ELSE '+'` : flags.includes(' ') ? `ELSE ' '` : `ELSE ''`} END)`;
      const core = `(${sign} || printf('%${inner.replace(/[+ ]/g, '')}${p}${spec}', abs(CAST(${v} AS HUGEINT))))`;
      return finished(core, grouped ? `${flags}'` : flags, width, spec);
    }
    case 'd':
    case 'i':
    case 'u': {
      const v = `CAST(${arg} AS BIGINT)`;
      if (!grouped) return `printf('%${flags}${width ?? ''}${p}d', ${v})`;
      return finished(`printf('%${inner}${p}d', ${v})`, `${flags}'`, width, spec);
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      if (!grouped) return `printf('%${flags}${width ?? ''}${p}${spec}', CAST(${arg} AS DOUBLE))`;
      return finished(`printf('%${inner}${p}${spec}', CAST(${arg} AS DOUBLE))`, `${flags}'`, width, spec);
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
