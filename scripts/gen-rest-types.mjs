// Generates src/types/generated/bigquery-v2.ts (in the types layer, so that jobs, wire and server
// can all use it): TypeScript types of BigQuery's REST v2
// resources from the discovery document the server ships (src/server/rest/bigquery-v2-discovery.json,
// https://bigquery.googleapis.com/discovery/v1/apis/bigquery/v2/rest).
//
// Mapping (the JSON form of the discovery types, https://developers.google.com/discovery/v1/type-format):
// every schema takes a type parameter `J`, the JSON form: `ResponseJson` (the default: as BigQuery
// writes it) or `RequestJson` (as its front end accepts a request body, proto3 JSON,
// https://protobuf.dev/programming-guides/json/ — numbers as strings and the reverse, `null` for unset);
// - `string` → string; `format` int64/uint64 → `J['int64']` (a decimal string in a response);
//   byte (base64), date-time/google-datetime/google-duration/google-fieldmask → string;
// - `integer` (int32/uint32) → `J['int32']`, `number` (float/double) → `J['double']` (numbers in a
//   response); `boolean` → boolean; `any` → unknown;
// - `enum` → a union of the listed names; `array` → `items[]`; `additionalProperties` → a map;
// - `$ref` → the named schema; an inline `object` → an inline object type;
// - every property is optional (the discovery document marks requiredness only in prose).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REST_TYPES_OUT = 'src/types/generated/bigquery-v2.ts';
const DISCOVERY = 'src/server/rest/bigquery-v2-discovery.json';

/** A description as a JSDoc block, wrapped at about 100 columns. */
function doc(text, indent) {
  if (!text) return '';
  const words = text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim().split(' ');
  const width = 100 - indent.length - 3;
  const lines = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + 1 + w.length > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

/**
 * What the request validator accepts beyond the discovery document (mirrors ANY_SCALAR and
 * CLIENT_EXTRAS in src/server/rest/discovery-json-schema.ts): a field whose request form is wider,
 * and fields only clients send.
 */
const REQUEST_WIDER = { 'QueryParameterValue.value': 'string | number | boolean' };
const CLIENT_EXTRAS = {
  Dataset: { projectId: ['string', "The dataset's project, sent in the body by the Node client's createDataset(id, {projectId})."] },
  JobConfigurationQuery: { clusteringFields: ['string[]', "The client libraries' name for clustering.fields (the Node client's createQuery options)."] },
};

const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));

function typeOf(p, indent) {
  if (p.$ref) return `${p.$ref}<J>`;
  if (p.enum) return p.enum.map((e) => JSON.stringify(e)).join(' | ');
  switch (p.type) {
    case 'string':
      return p.format === 'int64' || p.format === 'uint64' ? "J['int64']" : 'string';
    case 'integer':
      return "J['int32']";
    case 'number':
      return "J['double']";
    case 'boolean':
      return 'boolean';
    case 'any':
      return 'unknown';
    case 'array': {
      const t = typeOf(p.items, indent);
      return /^[\w.]+$/.test(t) ? `${t}[]` : `Array<${t}>`;
    }
    case 'object':
      if (p.properties) return objectType(p, indent);
      if (p.additionalProperties) return `Record<string, ${typeOf(p.additionalProperties, indent)}>`;
      return 'Record<string, unknown>';
    default:
      throw new Error(`unknown discovery type ${JSON.stringify(p)}`);
  }
}

function objectType(s, indent) {
  const inner = indent + '  ';
  let out = '{\n';
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const fmt = p.format && p.type === 'string' ? ` (format ${p.format})` : '';
    const wider = s.id && REQUEST_WIDER[`${s.id}.${k}`];
    const t = wider ? `(J extends RequestJson ? ${wider} : ${typeOf(p, inner)})` : typeOf(p, inner);
    out += doc((p.description ?? '') + fmt, inner) + `${inner}${key(k)}?: ${t} | J['null'];\n`;
  }
  for (const [k, [t, d]] of Object.entries((s.id && CLIENT_EXTRAS[s.id]) ?? {}))
    out += doc(`Not in the discovery document; in a request only. ${d}`, inner) + `${inner}${key(k)}?: (J extends RequestJson ? ${t} : never) | J['null'];\n`;
  if (s.additionalProperties) out += `${inner}[key: string]: ${typeOf(s.additionalProperties, inner)};\n`;
  return out + `${indent}}`;
}

/** Every method of the document: `bigquery.jobs.query` → its request and response schemas. */
function methods(d) {
  const out = [];
  const visit = (resources) => {
    for (const r of Object.values(resources ?? {})) {
      for (const m of Object.values(r.methods ?? {})) out.push(m);
      visit(r.resources);
    }
  };
  visit(d.resources);
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** @returns the generated module's text */
export function generateRestTypes() {
  const d = JSON.parse(fs.readFileSync(path.join(root, DISCOVERY), 'utf8'));
  const names = Object.keys(d.schemas).sort();
  let out = `// GENERATED by scripts/gen-rest-types.mjs from ${DISCOVERY}
// (${d.name} ${d.version}, revision ${d.revision}). Do not edit: run \`npm run gen:types\`.
//
// ${names.length} schemas of BigQuery's REST API. Each takes the JSON form \`J\`: \`ResponseJson\` (the
// default) for what the emulator writes, \`RequestJson\` for a request body as the validator
// (src/server/rest/request-validation.ts) lets it through.
/* eslint-disable */

/** Values as BigQuery writes them: int64 as decimal strings, other numbers as JSON numbers. */
export interface ResponseJson {
  int64: string;
  int32: number;
  double: number;
  null: never;
}

/**
 * Values as the front end accepts them in a request body (proto3 JSON, see
 * src/server/rest/discovery-json-schema.ts): int64 as a decimal string or a number, int32 as a
 * number or a decimal string, float/double as a number or a numeric string (\`NaN\`), and \`null\`
 * anywhere a field is unset.
 */
export interface RequestJson {
  int64: string | number;
  int32: number | string;
  double: number | string;
  null: null;
}

/** The two JSON forms of the schemas below. */
export type JsonForm = ResponseJson | RequestJson;

`;
  for (const n of names) {
    const s = d.schemas[n];
    if (s.type === 'object' && s.properties) out += doc(s.description, '') + `export interface ${n}<J extends JsonForm = ResponseJson> ${objectType(s, '')}\n\n`;
    else out += doc(s.description ?? `Discovery schema \`${n}\` (type \`${s.type}\`).`, '') + `export type ${n}<J extends JsonForm = ResponseJson> = ${typeOf(s, '')};\n\n`;
  }
  const ms = methods(d);
  const map = (pick) => ms.filter((m) => pick(m)).map((m) => `  ${JSON.stringify(m.id)}: ${pick(m)};\n`).join('');
  out += `/** The request body of each method that has one (discovery \`request.$ref\`), in request form. */\nexport interface RequestBodies {\n${map((m) => m.request && `${m.request.$ref}<RequestJson>`)}}\n\n`;
  out += `/** The response body of each method that has one (discovery \`response.$ref\`). */\nexport interface ResponseBodies {\n${map((m) => m.response?.$ref)}}\n`;
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.join(root, REST_TYPES_OUT);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, generateRestTypes());
  console.log(`wrote ${REST_TYPES_OUT}`);
}
