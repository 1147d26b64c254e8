/**
 * `JSON_SET(json, path, value[, path, value …], create_if_missing => b)`: this analyzer build
 * (about 2023) has no `create_if_missing` argument, so the call is rewritten, on the analyzer's
 * own parse tree, into JSON_SET calls that apply each pair in order, each one only when `b` is
 * TRUE or the path already exists (json_functions#json_set: "If create_if_missing is FALSE … a
 * path that doesn't exist is ignored"; examples `JSON_SET(JSON '{"a": 1}', "$.b", 999,
 * create_if_missing => false)` → `{"a":1}` and the same on `$.a` → `{"a":999}`). A path exists
 * when JSON_QUERY finds a value there (JSON `null` included).
 */
import { normalize, walk, type Node } from './ast.js';

interface Range {
  start: number;
  end: number;
}

const MAX_PAIRS = 3; // each pair repeats the document text three times

/**
 * Rewrites the JSON_SET calls of a statement that pass `create_if_missing`.
 * @returns the rewritten text, or undefined when no call applies
 */
export function rewriteJsonSetCreateIfMissing(sql: string, parsed: unknown): string | undefined {
  const tree = normalize(parsed);
  const buf = Buffer.from(sql, 'utf8');
  const text = (n: Node) => buf.subarray(n.parseLocationRange.start, n.parseLocationRange.end).toString('utf8');
  const edits: { range: Range; text: string }[] = [];
  walk(tree, (n) => {
    if (n.kind !== 'FunctionCall' || !n.parseLocationRange) return;
    const name = ((n.function?.names ?? []) as Node[]).map((x) => String(x.idString).toUpperCase()).join('.');
    if (name !== 'JSON_SET') return;
    const args = (n.arguments ?? []) as Node[];
    const named = args.filter((a) => a.kind === 'NamedArgument');
    if (named.length !== 1 || String(named[0].name?.idString).toLowerCase() !== 'create_if_missing' || args[args.length - 1] !== named[0]) return;
    const plain = args.slice(0, -1);
    if (plain.length < 3 || plain.length % 2 === 0 || (plain.length - 1) / 2 > MAX_PAIRS || plain.some((a) => !a.parseLocationRange)) return;
    if (edits.some((e) => e.range.start <= n.parseLocationRange.start && n.parseLocationRange.end <= e.range.end)) return;
    const flag = `(${text(named[0].expr)})`;
    let doc = `(${text(plain[0])})`;
    for (let i = 1; i < plain.length; i += 2) {
      const p = `(${text(plain[i])})`;
      const v = text(plain[i + 1]);
      doc = `(CASE WHEN ${flag} OR JSON_QUERY(${doc}, ${p}) IS NOT NULL THEN JSON_SET(${doc}, ${p}, ${v}) ELSE ${doc} END)`;
    }
    edits.push({ range: n.parseLocationRange, text: doc });
  });
  if (!edits.length) return undefined;
  edits.sort((a, b) => b.range.start - a.range.start);
  let out = buf;
  for (const e of edits) out = Buffer.concat([out.subarray(0, e.range.start), Buffer.from(e.text), out.subarray(e.range.end)]);
  return out.toString('utf8');
}
