/**
 * INFORMATION_SCHEMA views of routines (BigQuery "ROUTINES view", "ROUTINE_OPTIONS view",
 * "PARAMETERS view"): one row per routine, per routine option and per routine parameter (plus the
 * return value of a function with a declared return type, ordinal 0), at dataset scope
 * (`[p.]d.INFORMATION_SCHEMA.ROUTINES`) and region scope (`[p.]region-us.INFORMATION_SCHEMA.ROUTINES`).
 * Column names, types and order are the documented ones; values follow the documented examples
 * (`routine_type` FUNCTION / AGGREGATE FUNCTION / PROCEDURE / TABLE FUNCTION, `routine_body` SQL or
 * EXTERNAL, `external_language` JAVASCRIPT, `data_type` ANY TYPE for a templated parameter).
 */
import type { CatalogStore, DatasetMeta, RoutineArgument, RoutineMeta } from '../catalog/store.js';
import { scalar, typeToSql, type BqType, type Value } from '../types/types.js';

type ColSpec = [string, BqType];
const S = scalar('STRING');
const I = scalar('INT64');
const TS = scalar('TIMESTAMP');

/** Column sets of the routine views (documented order). */
export const ROUTINE_VIEWS: Record<string, ColSpec[]> = {
  ROUTINES: [
    ['specific_catalog', S], ['specific_schema', S], ['specific_name', S], ['routine_catalog', S], ['routine_schema', S],
    ['routine_name', S], ['routine_type', S], ['data_type', S], ['routine_body', S], ['routine_definition', S],
    ['external_language', S], ['is_deterministic', S], ['security_type', S], ['created', TS], ['last_altered', TS],
    ['ddl', S], ['connection', S],
  ],
  ROUTINE_OPTIONS: [['specific_catalog', S], ['specific_schema', S], ['specific_name', S], ['option_name', S], ['option_type', S], ['option_value', S]],
  PARAMETERS: [
    ['specific_catalog', S], ['specific_schema', S], ['specific_name', S], ['ordinal_position', I], ['parameter_mode', S],
    ['is_result', S], ['parameter_name', S], ['data_type', S], ['parameter_default', S], ['is_aggregate', S],
  ],
};

const micros = (ms: number): Value => (Number.isFinite(ms) ? BigInt(Math.trunc(ms)) * 1000n : null);
/** A GoogleSQL string literal as BigQuery writes option values (`"text"`). */
const strLit = (s: string) => JSON.stringify(s);

const ROUTINE_TYPE: Record<RoutineMeta['routineType'], string> = {
  SCALAR_FUNCTION: 'FUNCTION',
  AGGREGATE_FUNCTION: 'AGGREGATE FUNCTION',
  PROCEDURE: 'PROCEDURE',
  TABLE_VALUED_FUNCTION: 'TABLE FUNCTION',
};

const argType = (a: RoutineArgument) => (a.dataType ? typeToSql(a.dataType) : 'ANY TYPE');

/** The return type as BigQuery spells it: the declared type, `TABLE<…>` of a table function, else NULL. */
function returnTypeText(r: RoutineMeta): string | null {
  if (r.returnType) return typeToSql(r.returnType);
  if (r.returnTableType?.length) return `TABLE<${r.returnTableType.map((c) => `${c.name} ${typeToSql(c.type)}`).join(', ')}>`;
  return null;
}

/** `p.d.r`, backquoted as a whole when a part is not a plain identifier (`test-project`). */
function routinePath(r: RoutineMeta): string {
  const parts = [r.projectId, r.datasetId, r.routineId];
  return parts.every((p) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) ? parts.join('.') : `\`${parts.join('.')}\``;
}

/**
 * A CREATE statement that recreates the routine (ROUTINES.ddl), in the layout of the documented
 * example: `CREATE FUNCTION p.d.f(x FLOAT64)\nAS (\nx + 3\n);`.
 */
export function routineDdl(r: RoutineMeta): string {
  const path = routinePath(r);
  const params = r.arguments
    .map((a) => {
      const mode = r.routineType === 'PROCEDURE' ? `${a.mode ?? 'IN'} ` : '';
      const notAgg = r.routineType === 'AGGREGATE_FUNCTION' && a.isAggregate === false ? ' NOT AGGREGATE' : '';
      return `${mode}${a.name} ${argType(a)}${notAgg}`;
    })
    .join(', ');
  if (r.routineType === 'PROCEDURE') return `CREATE PROCEDURE ${path}(${params})\n${r.definitionBody};`;
  const ret = returnTypeText(r);
  if (r.routineType === 'TABLE_VALUED_FUNCTION') return `CREATE TABLE FUNCTION ${path}(${params})${ret ? `\nRETURNS ${ret}` : ''}\nAS (\n${r.definitionBody}\n);`;
  const kind = r.routineType === 'AGGREGATE_FUNCTION' ? 'AGGREGATE FUNCTION' : 'FUNCTION';
  const returns = ret ? `\nRETURNS ${ret}` : '';
  if (r.language === 'JAVASCRIPT') return `CREATE ${kind} ${path}(${params})${returns}\nLANGUAGE js\nAS r"""${r.definitionBody}""";`;
  return `CREATE ${kind} ${path}(${params})${returns}\nAS (\n${r.definitionBody}\n);`;
}

/** ROUTINE_OPTIONS rows of a routine: [name, type, value] (documented options table). */
function routineOptions(r: RoutineMeta): [string, string, string][] {
  const f = r.fields;
  const out: [string, string, string][] = [];
  if (typeof f.description === 'string') out.push(['description', 'STRING', strLit(f.description)]);
  const libs = f.importedLibraries;
  if (Array.isArray(libs) && libs.length) out.push(['library', 'ARRAY<STRING>', `[${libs.map((l) => strLit(String(l))).join(', ')}]`]);
  if (typeof f.dataGovernanceType === 'string') out.push(['data_governance_type', 'DataGovernanceType', f.dataGovernanceType]);
  return out;
}

const determinism = (r: RoutineMeta): string | null =>
  r.fields.determinismLevel === 'DETERMINISTIC' ? 'YES' : r.fields.determinismLevel === 'NOT_DETERMINISTIC' ? 'NO' : null;

/**
 * Rows of ROUTINES, ROUTINE_OPTIONS or PARAMETERS over the given datasets, in dataset then routine
 * order (values in the column order of ROUTINE_VIEWS).
 */
export function routineViewRows(c: CatalogStore, view: string, datasets: DatasetMeta[]): Value[][] {
  const routines = datasets.flatMap((d) => c.listRoutines(d.projectId, d.datasetId));
  switch (view) {
    case 'ROUTINES':
      return routines.map((r) => [
        r.projectId, r.datasetId, r.routineId, r.projectId, r.datasetId, r.routineId, ROUTINE_TYPE[r.routineType], returnTypeText(r),
        r.language === 'JAVASCRIPT' ? 'EXTERNAL' : 'SQL', r.definitionBody, r.language === 'JAVASCRIPT' ? 'JAVASCRIPT' : null,
        determinism(r), null, micros(r.creationTime), micros(r.lastModifiedTime), routineDdl(r), null,
      ]);
    case 'ROUTINE_OPTIONS':
      return routines.flatMap((r) => routineOptions(r).map(([n, ty, v]) => [r.projectId, r.datasetId, r.routineId, n, ty, v]));
    case 'PARAMETERS':
      return routines.flatMap((r) => {
        const rows: Value[][] = [];
        const ret = r.routineType === 'PROCEDURE' ? null : returnTypeText(r);
        if (ret) rows.push([r.projectId, r.datasetId, r.routineId, 0n, null, 'YES', null, ret, null, null]);
        r.arguments.forEach((a, i) =>
          rows.push([r.projectId, r.datasetId, r.routineId, BigInt(i + 1), r.routineType === 'PROCEDURE' ? (a.mode ?? 'IN') : null, 'NO', a.name, argType(a), null, null]),
        );
        return rows;
      });
  }
  return [];
}
