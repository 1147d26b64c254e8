/**
 * The pipe operators of BigQuery's pipe query syntax
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/pipe-syntax), each rendered as
 * a standard query over the query before it (./pipe-syntax.ts finds the chains).
 *
 * Range variables. The reference: "A pipe operator can see every alias that exists in the table
 * preceding the pipe"; WHERE, EXTEND, SET, DROP, RENAME, ORDER BY, LIMIT, TABLESAMPLE, WINDOW
 * and JOIN keep the input's table aliases (after `|> SET x = …`, `t.x` is still the original
 * value; after `|> RENAME y AS z`, `t.y` still resolves), while SELECT, AGGREGATE, set operations,
 * PIVOT, UNPIVOT and CALL produce a new table with none, and `|> AS alias` names the whole input.
 * A chain is kept as one FROM clause while it is only joined (the aliases are real range
 * variables there); once an operator needs a query over it, each alias a later operator refers to
 * (`alias.` heads) is carried as a STRUCT column `__pipe_alias` (a range variable used as a value
 * is the STRUCT of its row), later references are respelled `__pipe_alias.x`, and `*` excludes
 * those columns.
 *
 * Not rewritten (the text goes to the analyzer as written, which rejects it with its syntax
 * error): operators BigQuery's reference does not list as pipe operators of this rewrite —
 * DESCRIBE, FORK, TEE, MATCH_RECOGNIZE and others. `|> RENAME` moves the renamed columns to the
 * end of the row (the input's column order is not known before analysis).
 */
import { append, gen, isWord, splitCommas, topLevel, withEnd, type ChainContext, type Frag } from './pipe-tokens.js';

/** The query so far: an open FROM clause with real range variables, or a complete query. */
interface State {
  open?: { from: Frag; vars: Set<string> };
  cur?: Frag;
  /** `cur` may be the first input of a set operation as it stands. */
  simple: boolean;
  /** Aliases carried as `__pipe_<alias>` STRUCT columns of the input (upper case). */
  hidden: string[];
  /** `cur` ends with its ORDER BY and has no LIMIT: a following LIMIT applies to that order. */
  ordered?: boolean;
}

const hiddenName = (v: string) => `__pipe_${v.toLowerCase()}`;
const JOINS = new Set(['JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS', 'NATURAL']);
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);
const KEEPS_VARS = new Set(['WHERE', 'EXTEND', 'WINDOW', 'SET', 'DROP', 'RENAME', 'ORDER', 'LIMIT', 'TABLESAMPLE', 'DISTINCT']);

/** Concatenates generated strings and fragments. */
const cat = (...parts: (string | Frag)[]): Frag => {
  const out: Frag = [];
  for (const p of parts) append(out, typeof p === 'string' ? gen(p) : p);
  return out;
};
const join = (frags: Frag[], sep: string): Frag => cat(...frags.flatMap((f, i) => (i ? [sep, f] : [f])));

/**
 * Renders the pipe chain whose query starts at token `qs`, with pipe symbols at `pipes`, up to `b`.
 * @returns the standard query; the chain's own text (unrewritten) when an operator is not supported
 */
export function renderChain(ctx: ChainContext, qs: number, pipes: number[], b: number, outer: ReadonlyMap<string, string>): Frag {
  const { lx } = ctx;
  const tok = (i: number) => lx.tokens[i];
  // Left as written (the analyzer reports its syntax error at the user's text).
  const raw = (): Frag => [{ text: lx.sql.slice(tok(qs).start, tok(b - 1).end), orig: tok(qs).start }];
  if (pipes[0] === qs) return raw();
  const ops = pipes.map((p, k) => [p + 1, pipes[k + 1] ?? b] as const);
  // Heads of paths (`t` in `t.x`) each operator names, and those named after each operator.
  const heads = ops.map(([s, e]) => {
    const out = new Set<string>();
    for (let i = s; i < e; i++) if (tok(i).kind === 'word' && tok(i + 1)?.text === '.' && tok(i - 1)?.text !== '.') out.add(tok(i).text);
    return out;
  });
  const after = ops.map((_, k) => new Set(heads.slice(k + 1).flatMap((h) => [...h])));
  const candidates = (s: number, e: number) => new Set(topLevel(lx, s, e, (t, i) => t.kind === 'word' && tok(i + 1)?.text !== '.').map((i) => tok(i).text));

  // WITH clauses: the base query's and those of `|> WITH`, all placed before the final query.
  let recursive = false;
  const ctes: Frag[] = [];
  const addWith = (s: number, e: number) => {
    let i = s + 1;
    if (isWord(lx, i, 'RECURSIVE')) {
      recursive = true;
      i++;
    }
    for (const [x, y] of splitCommas(lx, i, e)) ctes.push(ctx.slice(x, y, outer));
  };

  const p0 = pipes[0];
  const body = withEnd(lx, qs, p0);
  if (body > qs) addWith(qs, body);
  let st: State;
  const last = p0 - 1;
  if (isWord(lx, body, 'FROM')) st = { open: { from: ctx.slice(body + 1, p0, outer), vars: candidates(body + 1, p0) }, simple: false, hidden: [] };
  else if (tok(body)?.text === '(' && lx.close.get(body) !== undefined && lx.close.get(body)! < last && tok(last).kind === 'word' && (lx.close.get(body) === last - 1 || (lx.close.get(body) === last - 2 && isWord(lx, last - 1, 'AS'))))
    st = { open: { from: ctx.slice(body, p0, outer), vars: new Set([tok(last).text]) }, simple: false, hidden: [] };
  else {
    const complex = topLevel(lx, body, p0, (t) => t.kind === 'word' && ['ORDER', 'LIMIT', 'UNION', 'INTERSECT', 'EXCEPT'].includes(t.text)).length > 0;
    st = { cur: ctx.slice(body, p0, outer), simple: !complex && tok(body)?.text !== '(', hidden: [] };
  }

  const src = (s: State): Frag => (s.open ? s.open.from : cat('(', s.cur!, ')'));
  const star = (s: State, extra: Frag[] = []): Frag => {
    const names = [...s.hidden.map((h) => [gen(hiddenName(h))]), ...extra];
    return names.length ? cat('* EXCEPT (', join(names, ', '), ')') : cat('*');
  };
  /** Path-head respellings inside an operator: carried aliases, unless a real range variable of that name is in scope. */
  const renames = (s: State) => {
    const m = new Map(outer);
    for (const h of s.hidden) if (!s.open?.vars.has(h)) m.set(h, hiddenName(h));
    return m;
  };
  const carry = (s: State, k: number): { items: Frag; hidden: string[] } => {
    const items: string[] = [];
    const hidden: string[] = [];
    for (const v of after[k]) {
      if (s.open?.vars.has(v)) items.push(`${v} AS ${hiddenName(v)}`);
      else if (s.hidden.includes(v)) items.push(hiddenName(v));
      else continue;
      hidden.push(v);
    }
    return { items: cat(...items.map((i) => `, ${i}`)), hidden };
  };
  const closed = (s: State): Frag => (s.open || s.hidden.length ? cat('SELECT ', star(s), ' FROM ', src(s)) : s.cur!);
  /** Slice of [s, e) where each select-list `*` also excludes the carried columns. */
  const withStars = (s: State, x: number, e: number, rn: ReadonlyMap<string, string>): Frag => {
    if (!s.hidden.length) return ctx.slice(x, e, rn);
    const out: Frag = [];
    let from = x;
    const starts = topLevel(lx, x, e, (t, i) => t.text === '*' && (i === x || [',', 'DISTINCT', 'ALL'].includes(tok(i - 1).text)));
    for (const i of starts) {
      if (i > from) append(out, ctx.slice(from, i, rn), gen(' '));
      const hid = s.hidden.map(hiddenName).join(', ');
      if (isWord(lx, i + 1, 'EXCEPT') && tok(i + 2)?.text === '(') {
        append(out, gen(`* EXCEPT (${hid}, `));
        from = i + 3;
      } else {
        append(out, gen(`* EXCEPT (${hid})`));
        from = i + 1;
      }
    }
    if (from < e) append(out, gen(' '), ctx.slice(from, e, rn));
    return out;
  };

  const finish = (s: State, rest: Frag = []): Frag => {
    const final = cat(s.open ? cat('SELECT ', star(s), ' FROM ', s.open.from) : closed(s), rest);
    return ctes.length ? cat(recursive ? 'WITH RECURSIVE ' : 'WITH ', join(ctes, ', '), ' ', final) : final;
  };
  // An operator this rewrite does not know: the chain so far, then the rest as written, so that the
  // analyzer's syntax error points at that operator's `|>` in the user's text.
  const unknown = (k: number): Frag => finish(st, [gen(' '), { text: lx.sql.slice(tok(pipes[k]).start, tok(b - 1).end), orig: tok(pipes[k]).start }]);

  for (let k = 0; k < ops.length; k++) {
    const [s, e] = ops[k];
    if (s >= e) return unknown(k);
    const name = tok(s).text;
    const rn = renames(st);
    const arg = (x: number, y: number) => ctx.slice(x, y, rn);
    const keep = KEEPS_VARS.has(name) ? carry(st, k) : { items: [] as Frag, hidden: [] as string[] };
    const query = (cur: Frag, hidden = keep.hidden, simple = true): State => ({ cur, hidden, simple });
    // SELECT and EXTEND may end with a WINDOW clause of named windows, which follows FROM.
    const win = name === 'SELECT' || name === 'EXTEND' ? (topLevel(lx, s + 1, e, (_t, i) => isWord(lx, i, 'WINDOW'))[0] ?? e) : e;
    const windows = win < e ? cat(' ', arg(win, e)) : [];
    if (name === 'SELECT') st = query(cat('SELECT ', withStars(st, s + 1, win, rn), ' FROM ', src(st), windows), []);
    else if (name === 'EXTEND' || name === 'WINDOW') st = query(cat('SELECT ', star(st), ', ', arg(s + 1, win), keep.items, ' FROM ', src(st), windows));
    else if (name === 'WHERE') st = query(cat('SELECT ', star(st), keep.items, ' FROM ', src(st), ' WHERE ', arg(s + 1, e)));
    else if (name === 'LIMIT' && st.ordered && st.cur) st = { cur: cat(st.cur, ' ', arg(s, e)), hidden: st.hidden, simple: false };
    else if (name === 'ORDER' || name === 'LIMIT') st = { ...query(cat('SELECT ', star(st), keep.items, ' FROM ', src(st), ' ', arg(s, e)), keep.hidden, false), ordered: name === 'ORDER' };
    else if (name === 'TABLESAMPLE') st = { open: { from: cat(src(st), ' ', arg(s, e)), vars: st.open?.vars ?? new Set() }, hidden: st.hidden, simple: false };
    else if (name === 'DISTINCT') st = query(cat('SELECT DISTINCT ', star(st), keep.items, ' FROM ', src(st)));
    else if (name === 'DROP') st = query(cat('SELECT ', star(st, [arg(s + 1, e)]), keep.items, ' FROM ', src(st)));
    else if (name === 'SET') {
      const items = splitCommas(lx, s + 1, e).map(([x, y]) => {
        const eq = topLevel(lx, x, y, (t) => t.text === '=')[0] ?? y;
        return cat(arg(eq + 1, y), ' AS ', arg(x, eq));
      });
      st = query(cat('SELECT ', star(st), ' REPLACE (', join(items, ', '), ')', keep.items, ' FROM ', src(st)));
    } else if (name === 'RENAME') {
      const pairs = splitCommas(lx, s + 1, e).map(([x, y]) => [arg(x, isWord(lx, y - 2, 'AS') ? y - 2 : y - 1), arg(y - 1, y)] as const);
      const renamed = pairs.map(([o, n]) => cat(', ', o, ' AS ', n));
      st = query(cat('SELECT ', star(st, pairs.map(([o]) => o)), ...renamed, keep.items, ' FROM ', src(st)));
    } else if (name === 'AS') st = { open: { from: cat('(', closed(st), ') AS ', arg(s + 1, e)), vars: new Set([tok(e - 1).text]) }, hidden: [], simple: false };
    else if (JOINS.has(name)) {
      const vars = new Set([...(st.open?.vars ?? []), ...candidates(s, e)]);
      st = { open: { from: cat(src(st), ' ', arg(s, e)), vars }, hidden: st.hidden, simple: false };
    } else if (SET_OPS.has(name)) {
      const paren = topLevel(lx, s, e, (t) => t.text === '(')[0];
      if (paren === undefined) return unknown(k);
      const words = arg(s, paren);
      const first = st.simple && !st.open && !st.hidden.length ? st.cur! : cat('SELECT ', star(st), ' FROM ', src(st));
      const inputs = splitCommas(lx, paren, e).map(([x, y]) => arg(x, y));
      st = query(cat(first, ...inputs.map((i) => cat(' ', words, ' ', i))), [], false);
    } else if (name === 'AGGREGATE') {
      const agg = aggregate(ctx, s + 1, e, rn);
      st = { ...query(cat('SELECT ', agg.select, ' FROM ', src(st), agg.tail), [], false), ordered: agg.ordered };
    } else if (name === 'CALL') {
      const paren = s + 1 < e ? topLevel(lx, s + 1, e, (t) => t.text === '(')[0] : undefined;
      const close = paren === undefined ? undefined : lx.close.get(paren);
      if (paren === undefined || close === undefined) return unknown(k);
      const input = cat('(SELECT ', star(st), ' FROM ', src(st), ')');
      const call = cat(arg(s + 1, paren), '(', input, close > paren + 1 ? cat(', ', arg(paren + 1, close)) : [], ')');
      st = close + 1 < e ? { open: { from: cat(call, ' ', arg(close + 1, e)), vars: new Set([tok(e - 1).text]) }, hidden: [], simple: false } : query(cat('SELECT * FROM ', call), [], false);
    } else if (name === 'PIVOT' || name === 'UNPIVOT') {
      const from = cat('(SELECT ', star(st), ' FROM ', src(st), ') ', arg(s, e));
      st = { open: { from, vars: new Set([tok(e - 1).text]) }, hidden: [], simple: false };
    } else if (name === 'WITH') addWith(s, e);
    else return unknown(k);
  }
  return finish(st);
}

/** An AGGREGATE operator's select list and GROUP BY / ORDER BY tail (grouping columns first, as documented). */
function aggregate(ctx: ChainContext, s: number, e: number, rn: ReadonlyMap<string, string>): { select: Frag; tail: Frag; ordered: boolean } {
  const { lx } = ctx;
  const g = topLevel(lx, s, e, (_t, i) => isWord(lx, i, 'GROUP') && (isWord(lx, i + 1, 'BY') || (isWord(lx, i + 1, 'AND') && isWord(lx, i + 2, 'ORDER'))))[0];
  const andOrder = g !== undefined && isWord(lx, g + 1, 'AND');
  const keyStart = g === undefined ? e : g + (andOrder ? 4 : 2);
  /** An item without its trailing `ASC|DESC [NULLS FIRST|LAST]`, and that order. */
  const item = (x: number, y: number) => {
    let end = y;
    let order = '';
    if (isWord(lx, end - 2, 'NULLS') && (isWord(lx, end - 1, 'FIRST') || isWord(lx, end - 1, 'LAST'))) {
      order = ` NULLS ${lx.tokens[end - 1].text}`;
      end -= 2;
    }
    if (isWord(lx, end - 1, 'ASC') || isWord(lx, end - 1, 'DESC')) {
      order = ` ${lx.tokens[end - 1].text}${order}`;
      end--;
    }
    return { text: ctx.slice(x, end, rn), order };
  };
  const aggs = splitCommas(lx, s, g ?? e).map(([x, y]) => item(x, y));
  // GROUPING SETS, ROLLUP and CUBE: the grouping columns are the expressions inside them, the
  // GROUP BY keeps the construct as written.
  const ranges = g === undefined ? [] : splitCommas(lx, keyStart, e);
  if (ranges.some(([x]) => isWord(lx, x, 'ROLLUP') || isWord(lx, x, 'CUBE') || (isWord(lx, x, 'GROUPING') && isWord(lx, x + 1, 'SETS')))) {
    const cols: [number, number][] = [];
    const seen = new Set<string>();
    const add = (x: number, y: number) => {
      if (x >= y) return;
      if (lx.tokens[x].text === '(' && lx.close.get(x) === y - 1) return splitCommas(lx, x + 1, y - 1).forEach(([a, b]) => add(a, b));
      if (isWord(lx, x, 'ROLLUP') || isWord(lx, x, 'CUBE') || isWord(lx, x, 'GROUPING')) {
        const open = isWord(lx, x, 'GROUPING') ? x + 2 : x + 1;
        return splitCommas(lx, open + 1, (lx.close.get(open) ?? y) as number).forEach(([a, b]) => add(a, b));
      }
      const key = lx.sql.slice(lx.tokens[x].start, lx.tokens[y - 1].end).replace(/\s+/g, ' ').toLowerCase();
      if (!seen.has(key)) cols.push([x, y]);
      seen.add(key);
    };
    for (const [x, y] of ranges) add(x, y);
    const select = join([...cols.map(([x, y]) => ctx.slice(x, y, rn)), ...aggs.map((a) => a.text)], ', ');
    return { select, tail: cat(' GROUP BY ', ctx.slice(keyStart, e, rn)), ordered: false };
  }
  const keys = ranges.map(([x, y]) => item(x, y));
  const all = [...keys, ...aggs];
  const order: string[] = [];
  keys.forEach((k, i) => {
    if (andOrder || k.order) order.push(`${i + 1}${k.order || ' ASC'}`);
  });
  aggs.forEach((a, i) => {
    if (a.order) order.push(`${keys.length + i + 1}${a.order}`);
  });
  const tail = cat(keys.length ? ` GROUP BY ${keys.map((_k, i) => i + 1).join(', ')}` : '', order.length ? ` ORDER BY ${order.join(', ')}` : '');
  return { select: join(all.map((a) => a.text), ', '), tail, ordered: order.length > 0 };
}
