/**
 * Placeholder substitution for fixture files (conformance/README.md "Placeholders": an unknown
 * token is an authoring error; conformance/README.md "Recording notes" 7).
 */
import type { JsonValue } from './jsonsafe.js';
import type { Fixture, RestStep } from './fixtures.js';

/**
 * Runner values of the identity placeholders (conformance/README.md "Placeholders": fixed
 * deterministic strings).
 */
export const RUNNER_PRINCIPAL = 'user:conformance-caller@bqemu.test';
export const RUNNER_GROUP = 'group:conformance-group@bqemu.test';
export const RUNNER_OTHER_PRINCIPAL = 'serviceAccount:conformance-other@bqemu.test';
export const RUNNER_GCS_BUCKET = 'bqemu-conformance-bucket';

/** The closed set of placeholder names (conformance/README.md "Placeholders" plus `GCS_BUCKET`). */
export const PLACEHOLDER_NAMES = ['DATASET', 'PROJECT', 'DATASET_ID', 'PRINCIPAL', 'GROUP', 'OTHER_PRINCIPAL', 'GCS_BUCKET'] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

/** Values for one fixture run. `DATASET` is derived as `project.dataset`. */
export interface PlaceholderValues {
  project: string;
  datasetId: string;
  principal?: string;
  group?: string;
  otherPrincipal?: string;
  gcsBucket?: string;
}

/**
 * Raised when a fixture uses a `${...}` token outside the closed set (conformance/README.md
 * "Placeholders").
 */
export class PlaceholderError extends Error {
  readonly token: string;
  constructor(token: string, where: string) {
    super(`authoring error: unknown placeholder ${token} in ${where}`);
    this.name = 'PlaceholderError';
    this.token = token;
  }
}

function table(v: PlaceholderValues): Record<PlaceholderName, string> {
  return {
    DATASET: `${v.project}.${v.datasetId}`,
    PROJECT: v.project,
    DATASET_ID: v.datasetId,
    PRINCIPAL: v.principal ?? RUNNER_PRINCIPAL,
    GROUP: v.group ?? RUNNER_GROUP,
    OTHER_PRINCIPAL: v.otherPrincipal ?? RUNNER_OTHER_PRINCIPAL,
    GCS_BUCKET: v.gcsBucket ?? RUNNER_GCS_BUCKET,
  };
}

/**
 * Expand every `${NAME}` token of a string (conformance/README.md "Placeholders"). Only the upper-case names of
 * {@link PLACEHOLDER_NAMES} are known; any other `${...}` token — including a lower-case variant
 * such as `${dataset}` — throws {@link PlaceholderError}.
 */
export function expandString(text: string, values: PlaceholderValues, where = 'text'): string {
  const t = table(values);
  return text.replace(/\$\{([^}]*)\}/g, (token, name: string) => {
    if (Object.prototype.hasOwnProperty.call(t, name)) return t[name as PlaceholderName];
    throw new PlaceholderError(token, where);
  });
}

/**
 * Expand placeholders recursively through a JSON value: every string (object keys included) is
 * expanded with {@link expandString}; numbers, booleans and null pass through
 * (conformance/README.md "Fixture files", "Placeholders").
 */
export function expandJson<T extends JsonValue | undefined>(value: T, values: PlaceholderValues, where = 'json'): T {
  const walk = (v: JsonValue, path: string): JsonValue => {
    if (typeof v === 'string') return expandString(v, values, path);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (v !== null && typeof v === 'object') {
      const out: { [k: string]: JsonValue } = {};
      for (const [k, x] of Object.entries(v)) out[expandString(k, values, path)] = walk(x, `${path}.${k}`);
      return out;
    }
    return v;
  };
  return (value === undefined ? value : walk(value, where)) as T;
}

/**
 * Expand all placeholders of a fixture up front (conformance/README.md "Placeholders"), so an
 * authoring error is raised before anything is sent: query.sql, setup.sql, setup_rest.json (path
 * and body), headers.json, parameters.json values and job_config.json. `expected.json` is not
 * expanded.
 */
export function expandFixture(fx: Fixture, values: PlaceholderValues): Fixture {
  const out: Fixture = { ...fx, query: expandString(fx.query, values, 'query.sql') };
  if (fx.setupSql !== undefined) out.setupSql = expandString(fx.setupSql, values, 'setup.sql');
  if (fx.setupRest) {
    out.setupRest = fx.setupRest.map((s, i) => {
      const step: RestStep = { method: s.method, path: expandString(s.path, values, `setup_rest.json[${i}].path`) };
      if (s.body !== undefined) step.body = expandJson(s.body, values, `setup_rest.json[${i}].body`);
      return step;
    });
  }
  if (fx.headers) {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(fx.headers)) h[k] = expandString(v, values, `headers.json ${k}`);
    out.headers = h;
  }
  if (fx.parameters) {
    out.parameters = {
      mode: fx.parameters.mode,
      parameters: fx.parameters.parameters.map((p, i) => ({ ...p, value: expandJson(p.value, values, `parameters.json[${i}].value`) })),
    };
  }
  if (fx.jobConfig) out.jobConfig = expandJson(fx.jobConfig, values, 'job_config.json') as Record<string, JsonValue>;
  return out;
}
