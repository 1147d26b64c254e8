// The query editor: CodeMirror 6 (basic setup) with @codemirror/lang-sql set up for GoogleSQL's
// lexical structure (https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical):
// backquoted identifiers, `#` and `--` comments, single- and double-quoted strings with
// backslash escapes, its reserved keywords. Errors are marked through @codemirror/lint.
import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import { EditorView, basicSetup } from 'codemirror';
import { keymap } from '@codemirror/view';
import { sql, SQLDialect } from '@codemirror/lang-sql';
import { setDiagnostics, lintGutter } from '@codemirror/lint';

// Reserved keywords, and the statement keywords a console user types most.
const KEYWORDS =
  'all and any array as asc assert_rows_modified at between by case cast collate contains create cross cube current default ' +
  'define desc distinct else end enum escape except exclude exists extract false fetch following for from full group grouping ' +
  'groups hash having if ignore in inner intersect interval into is join lateral left like limit lookup merge natural new no ' +
  'not null nulls of on or order outer over partition preceding proto qualify range recursive respect right rollup rows select ' +
  'set some struct tablesample then to treat true unbounded union unnest using when where window with within ' +
  'insert update delete values table view replace drop alter declare begin exception loop while return call function ' +
  'procedure temp temporary options cluster pivot unpivot schema truncate matched source target returns language offset ordinal';
const TYPES =
  'int64 float64 numeric bignumeric bool boolean string bytes date datetime time timestamp geography json int smallint ' +
  'integer bigint tinyint byteint decimal bigdecimal';

/** GoogleSQL as a lang-sql dialect. */
export const GoogleSQL = SQLDialect.define({
  keywords: KEYWORDS,
  types: TYPES,
  builtin: 'safe_cast safe current_date current_timestamp current_datetime current_time',
  backslashEscapes: true,
  hashComments: true,
  doubleQuotedStrings: true,
  identifierQuotes: '`',
  caseInsensitiveIdentifiers: true,
});

/**
 * The `[line:column]` position of a BigQuery error message (`… at [3:8]`), 1-based, or null.
 */
export function errorPosition(message) {
  const m = /\bat \[(\d+):(\d+)\]/.exec(message || '');
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}

/**
 * The editor. Props: `value` (initial text), `onChange(text)`, `onRun()` (Ctrl/Cmd-Enter),
 * `error` — `{ message }` to mark at its `[line:column]`, or null to clear the marks.
 */
export function SqlEditor({ value, onChange, onRun, error }) {
  const el = useRef(null);
  const view = useRef(null);
  const handlers = useRef({});
  handlers.current = { onChange, onRun };
  useEffect(() => {
    const v = new EditorView({
      doc: value || '',
      parent: el.current,
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run: () => (handlers.current.onRun && handlers.current.onRun(), true) }]),
        basicSetup,
        sql({ dialect: GoogleSQL, upperCaseKeywords: true }),
        lintGutter(),
        EditorView.updateListener.of((u) => u.docChanged && handlers.current.onChange && handlers.current.onChange(u.state.doc.toString())),
      ],
    });
    view.current = v;
    return () => v.destroy();
  }, []);
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const pos = error && errorPosition(error.message);
    if (!pos || pos.line > v.state.doc.lines) {
      v.dispatch(setDiagnostics(v.state, []));
      return;
    }
    const line = v.state.doc.line(pos.line);
    const from = Math.min(line.from + pos.column - 1, line.to);
    const word = /^[\w$]+|^`[^`]*`?|^\S/.exec(v.state.sliceDoc(from, line.to));
    const to = Math.max(from + (word ? word[0].length : 0), Math.min(from + 1, v.state.doc.length));
    v.dispatch(setDiagnostics(v.state, [{ from, to, severity: 'error', message: error.message }]));
  }, [error]);
  return html`<div class="editor" data-testid="editor" ref=${el}></div>`;
}
