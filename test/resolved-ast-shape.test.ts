/**
 * The generated resolved-AST types (src/analyzer/generated/resolved-ast.ts) describe what the
 * normaliser (src/analyzer/ast.ts) really produces: statements analyzed by the real analyzer are
 * walked, and every node's `kind` and fields are checked against ZetaSQL's own definition of the
 * tree, resolved_ast.proto, read here with protobufjs:
 * - a node reached through an `AnyResolved…Proto` oneof has the kind its oneof member names
 *   (`resolved_table_scan_node` → `TableScan`), one of RESOLVED_KINDS;
 * - a node in a field typed by a concrete node message has the field's name as its kind when its
 *   base classes carry a singular field (its `parent` arrives), else it is a plain object (no kind);
 * - a node's fields are its message's fields and its `parent` chain's (camelCase, `kind` → `kind_`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../src/engine/engine.js';
import { executeRequest } from '../src/scripting/request.js';
import { RESOLVED_KINDS, walk, type Node } from '../src/analyzer/ast.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function loadProto(): protobuf.Root {
  const dirs = [path.join(root, 'node_modules/@fivetrandevelopers/zetasql/lib/zetasql/protos'), path.join(root, 'node_modules/protobufjs')];
  const r = new protobuf.Root();
  r.resolvePath = (_o, target) => dirs.map((d) => path.join(d, target)).find((p) => fs.existsSync(p)) ?? target;
  r.loadSync('zetasql/resolved_ast/resolved_ast.proto', { keepCase: false });
  r.resolveAll();
  return r;
}

const proto = loadProto();
const isWrapper = (t: protobuf.Type) => /^AnyResolved.*Proto$/.test(t.name) && !!t.oneofs?.node;
const isNodeMessage = (t: protobuf.Type) => /^Resolved.*Proto$/.test(t.name) && !!t.fields.parent;

/** Concrete kinds a wrapper holds (nested wrappers flattened) → their messages. */
function kindsOf(w: protobuf.Type, out = new Map<string, protobuf.Type>()): Map<string, protobuf.Type> {
  for (const f of w.oneofs.node.fieldsArray) {
    const t = f.resolvedType as protobuf.Type;
    if (isWrapper(t)) kindsOf(t, out);
    else out.set(f.name.replace(/^resolved(.*)Node$/, '$1'), t);
  }
  return out;
}

/** A node message's fields with its parents' (the normaliser's merge). */
function fieldsOf(t: protobuf.Type): Map<string, protobuf.Field> {
  const out = new Map<string, protobuf.Field>();
  for (let cur: protobuf.Type | undefined = t; cur; cur = cur.fields.parent?.resolvedType as protobuf.Type | undefined)
    for (const f of cur.fieldsArray) if (f.name !== 'parent') out.set(f.name === 'kind' ? 'kind_' : f.name, out.get(f.name) ?? f);
  return out;
}

/** Whether a node message's base classes have a singular field (other than the parse location). */
function baseCarriesData(t: protobuf.Type): boolean {
  for (let cur = t.fields.parent?.resolvedType as protobuf.Type | undefined; cur; cur = cur.fields.parent?.resolvedType as protobuf.Type | undefined)
    if (cur.fieldsArray.some((f) => f.name !== 'parent' && !f.repeated && f.name !== 'parseLocationRange')) return true;
  return false;
}

/**
 * Problems found in a normalised node that should be of message `t` and kind `kind`
 * (`undefined`: a plain object — no kind, and a proto field `kind` keeps its name).
 */
function check(n: Node, t: protobuf.Type, kind: string | undefined, problems: string[]): void {
  const fields = fieldsOf(t);
  if (kind === undefined) {
    if (t.fields.kind) fields.set('kind', t.fields.kind);
    else if (n.kind !== undefined) problems.push(`${t.name}: kind ${n.kind}, expected none`);
  } else if (n.kind !== kind) problems.push(`${t.name}: kind ${n.kind}, expected ${kind}`);
  for (const [k, v] of Object.entries(n)) {
    if (k === 'kind' && kind !== undefined) continue;
    const f = fields.get(k);
    if (!f) {
      problems.push(`${kind}.${k} is not a field of ${t.name}`);
      continue;
    }
    const ft = f.resolvedType;
    if (!(ft instanceof protobuf.Type)) continue;
    for (const e of Array.isArray(v) ? v : [v]) {
      if (!e || typeof e !== 'object') continue;
      if (isWrapper(ft)) {
        const kinds = kindsOf(ft);
        const child = e as Node;
        if (!kinds.has(child.kind)) problems.push(`${kind}.${k}: kind ${child.kind} is not one of ${ft.name}`);
        else check(child, kinds.get(child.kind)!, child.kind, problems);
      } else if (isNodeMessage(ft)) check(e as Node, ft, baseCarriesData(ft) ? k[0].toUpperCase() + k.slice(1) : undefined, problems);
    }
  }
}

const STATEMENTS = [
  `WITH w AS (SELECT 1 AS a, 'x' AS b) SELECT a, b, COUNT(*) OVER (PARTITION BY b ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c FROM w`,
  `SELECT t.id, x, o, STRUCT(t.id AS i, t.name AS n).n AS s, CAST(t.amount AS STRING) FROM ds.t AS t LEFT JOIN UNNEST([1, 2]) AS x WITH OFFSET o ON TRUE WHERE t.id > @p ORDER BY 1 LIMIT 5 OFFSET 1`,
  `SELECT name, SUM(amount) AS s, ARRAY_AGG(id ORDER BY id LIMIT 2) AS ids, GROUPING(name) AS g FROM ds.t GROUP BY ROLLUP (name) HAVING s > 0`,
  `(SELECT id FROM ds.t UNION ALL SELECT 2) EXCEPT DISTINCT SELECT 3`,
  `SELECT ANY_VALUE(name HAVING MAX id) FROM ds.t`,
  `SELECT (SELECT MAX(id) FROM ds.t), EXISTS(SELECT 1 FROM ds.t), 1 IN (SELECT id FROM ds.t), ARRAY(SELECT id FROM ds.t), JSON '{"a":1}'.a`,
  `WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r`,
  `INSERT INTO ds.t (id, name) VALUES (1, 'a'), (2, DEFAULT)`,
  `UPDATE ds.t SET name = 'b' WHERE id = 1`,
  `DELETE FROM ds.t WHERE id = 2`,
  `MERGE ds.t AS d USING (SELECT 3 AS id) AS s ON d.id = s.id WHEN MATCHED THEN UPDATE SET name = 'c' WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)`,
  `CREATE TABLE ds.t2 (a INT64 OPTIONS (description = 'd'), b STRING(10)) PARTITION BY _PARTITIONDATE OPTIONS (description = 'x')`,
  `CREATE VIEW ds.v AS SELECT id FROM ds.t`,
  `CREATE TEMP FUNCTION f(x INT64) RETURNS INT64 AS (x + 1)`,
  `ALTER TABLE ds.t ADD COLUMN c DATE, ALTER COLUMN name SET OPTIONS (description = 'n')`,
];

describe('the generated resolved-AST types match the normalised trees', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await Engine.start();
    await executeRequest(e, 'CREATE SCHEMA ds; CREATE TABLE ds.t (id INT64, name STRING, amount NUMERIC)', { projectId: 'p' });
  });
  afterAll(() => e?.stop());

  it('every node has a kind and fields of resolved_ast.proto, named as the generated types name them', async () => {
    const statementKinds = kindsOf(proto.lookupType('zetasql.AnyResolvedStatementProto'));
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const sql of STATEMENTS) {
      const { stmt } = await e.statements.analyze(sql, 0, { projectId: 'p' }, { named: new Map([['p', { kind: 'INT64' }]]) });
      expect(statementKinds.has(stmt.kind), `${stmt.kind} is a statement kind`).toBe(true);
      check(stmt, statementKinds.get(stmt.kind)!, stmt.kind, problems);
      walk(stmt, (n) => void seen.add(n.kind));
    }
    expect(problems).toEqual([]);
    // The statements reach well beyond a handful of kinds, all of them generated (or field-named).
    const generated = new Set<string>(RESOLVED_KINDS);
    expect([...seen].filter((k) => generated.has(k)).length).toBeGreaterThan(30);
  });

  it('leaves out the fields that carry nothing (empty annotation maps, default literal flags), keeps those that do', async () => {
    const { stmt } = await e.statements.analyze("SELECT 5 AS a, CAST('x' AS STRING) AS b, 1.5 AS c", 0, { projectId: 'p' }, {});
    const literals: Node[] = [];
    walk(stmt, (n) => {
      if (n.kind === 'Literal') literals.push(n);
    });
    expect(literals.length).toBe(3);
    for (const n of literals) {
      for (const k of ['typeAnnotationMap', 'preserveInLiteralRemover']) expect(n, k).not.toHaveProperty(k);
      expect(n.type?.typeKind).toMatch(/^TYPE_/);
      expect(n.value?.value).toBeDefined();
    }
    expect(literals.map((n) => n.value.value.int64Value ?? n.value.value.stringValue ?? n.value.value.doubleValue)).toEqual(['5', 'x', 1.5]);
    // `CAST('x' AS STRING)` folds to a literal with an explicit type: the flag that says so stays.
    expect(literals[1].hasExplicitType).toBe(true);
    expect(literals[0]).not.toHaveProperty('hasExplicitType');
  });
});
