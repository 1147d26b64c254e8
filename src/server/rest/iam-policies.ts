/**
 * IAM policies of tables and views, routines and row access policies:
 * tables.getIamPolicy/setIamPolicy/testIamPermissions, routines.getIamPolicy/setIamPolicy,
 * rowAccessPolicies.getIamPolicy/testIamPermissions
 * (https://cloud.google.com/bigquery/docs/reference/rest/v2/tables/getIamPolicy and siblings;
 * shapes: Policy, GetIamPolicyRequest, SetIamPolicyRequest, TestIamPermissionsRequest/Response in
 * src/server/rest/bigquery-v2-discovery.json; bodies validated there first).
 *
 * - getIamPolicy of a resource without a policy answers the empty policy `{version: 1, etag: 'ACAB'}`;
 *   a row access policy's IAM policy is its grantee list bound to `roles/bigquery.filteredDataViewer`
 *   (https://cloud.google.com/bigquery/docs/row-level-security-intro), so it has no setIamPolicy.
 * - setIamPolicy replaces the fields of `updateMask` (default `bindings, etag`): members are checked
 *   as IAM checks them, bindings without members dropped and equal (role, condition) bindings merged,
 *   a condition requires version 3, a request `etag` other than the stored one is 409 ABORTED;
 *   the answer is the stored policy with a new etag.
 * - testIamPermissions answers the requested permissions the caller holds: without identity headers
 *   the caller is the project owner (every permission of the resource type); with
 *   `x-bqemu-caller`/`x-bqemu-groups` the permissions of the roles the policy binds to the caller,
 *   its groups, its domain, `allUsers` or `allAuthenticatedUsers` (src/catalog/iam-roles.ts), and of
 *   the roles the dataset's `access` entries grant it (inherited by the dataset's resources; legacy
 *   OWNER/WRITER/READER mapped to dataOwner/dataEditor/dataViewer as Dataset.access.role describes).
 *   A missing resource answers no permissions, as the method's description says.
 * - A missing resource is the resource's usual 404 for getIamPolicy and setIamPolicy.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import { grants } from '../../engine/row-access.js';
import { EMPTY_POLICY_ETAG, newPolicyEtag, type IamBinding, type IamPolicyMeta, type IamResource } from '../../catalog/iam-policies.js';
import { permissionsOf, permissionsOfRoles } from '../../catalog/iam-roles.js';
import { callerFromHeaders, objectBody, requireDataset, requireTable, type RestContext } from './context.js';
import type { Binding, GetIamPolicyRequest, Policy, RequestJson, SetIamPolicyRequest, TestIamPermissionsRequest, TestIamPermissionsResponse } from '../../types/generated/bigquery-v2.js';

type Params = { projectId: string; datasetId: string; tableId: string; routineId: string; policyId: string };
type Req = FastifyRequest<{ Params: Params; Body: unknown }>;

/** What a route knows of its resource: its policy key, its creation time, or undefined when it does not exist. */
interface Target {
  resource: IamResource;
  creationTime: number;
  /** Row access policies: the grantees, which are their IAM policy. */
  grantees?: string[];
  grantEtag?: string;
}

const VERSIONS = [0, 1, 3];
const MEMBER_TYPES = ['user', 'group', 'serviceAccount', 'domain', 'deleted', 'principal', 'principalSet', 'projectOwner', 'projectEditor', 'projectViewer'];

/** IAM's member check: `allUsers`, `allAuthenticatedUsers`, or `<type>:<value>` of a known type. */
function checkMember(m: unknown): string {
  const s = String(m ?? '').trim();
  if (s === 'allUsers' || s === 'allAuthenticatedUsers') return s;
  const colon = s.indexOf(':');
  if (colon <= 0 || colon === s.length - 1) throw BigQueryError.iamMemberWithoutType();
  if (!MEMBER_TYPES.includes(s.slice(0, colon))) throw BigQueryError.iamMemberUnknownType(s);
  return s;
}

/** Bindings as IAM stores them: members checked and de-duplicated, empty bindings dropped, equal (role, condition) merged, sorted by role. */
function normalizeBindings(raw: (Binding<RequestJson> | null)[]): IamBinding[] {
  const byKey = new Map<string, IamBinding>();
  for (const b of raw) {
    if (!b || !b.members?.length) continue;
    const role = String(b.role ?? '');
    const condition = b.condition ? (Object.fromEntries(Object.entries(b.condition).filter(([, v]) => v != null)) as IamBinding['condition']) : undefined;
    const key = JSON.stringify([role, condition ?? null]);
    const into = byKey.get(key) ?? { role, members: [], ...(condition ? { condition } : {}) };
    for (const m of b.members as unknown[]) {
      const member = checkMember(m);
      if (!into.members.includes(member)) into.members.push(member);
    }
    byKey.set(key, into);
  }
  return [...byKey.values()].map((b) => ({ ...b, members: [...b.members].sort() })).sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
}

const LEGACY_ROLES: Record<string, string> = { OWNER: 'roles/bigquery.dataOwner', WRITER: 'roles/bigquery.dataEditor', READER: 'roles/bigquery.dataViewer' };

/** The dataset's stored `access` entries as bindings (the entries the client set; views, datasets and routines grant no principal). */
function accessBindings(access: unknown): IamBinding[] {
  if (!Array.isArray(access)) return [];
  return access.flatMap((a: Record<string, unknown> | null) => {
    if (!a || typeof a.role !== 'string') return [];
    const member =
      typeof a.userByEmail === 'string' ? `user:${a.userByEmail}`
      : typeof a.groupByEmail === 'string' ? `group:${a.groupByEmail}`
      : typeof a.domain === 'string' ? `domain:${a.domain}`
      : typeof a.iamMember === 'string' ? a.iamMember
      : a.specialGroup === 'allAuthenticatedUsers' ? 'allAuthenticatedUsers'
      : undefined;
    return member ? [{ role: LEGACY_ROLES[a.role] ?? a.role, members: [member] }] : [];
  });
}

/** The REST Policy of a stored policy (or of none). */
function policyJson(p: Pick<IamPolicyMeta, 'version' | 'bindings' | 'etag' | 'auditConfigs'> | undefined): Policy {
  if (!p) return { version: 1, etag: EMPTY_POLICY_ETAG };
  return {
    version: p.version,
    etag: p.etag,
    ...(p.bindings.length ? { bindings: p.bindings as Binding[] } : {}),
    ...(p.auditConfigs?.length ? { auditConfigs: p.auditConfigs as Policy['auditConfigs'] } : {}),
  };
}

export function iamPoliciesRoutes(app: FastifyInstance, ctx: RestContext): void {
  const cat = ctx.engine.catalog;
  // Param constraints keep `t:getIamPolicy` apart from a table named `t` (find-my-way needs a
  // pattern before a static suffix in the same segment); `::` is a literal colon.
  const table = '/projects/:projectId/datasets/:datasetId/tables/:tableId(^[^:]+)';
  const routine = '/projects/:projectId/datasets/:datasetId/routines/:routineId(^[^:]+)';
  const rap = '/projects/:projectId/datasets/:datasetId/tables/:tableId/rowAccessPolicies/:policyId(^[^:]+)';

  /** The table or view, or its 404 (`throws` false: undefined instead). */
  const tableTarget = (p: Params, throws = true): Target | undefined => {
    if (!throws && !cat.getTable(p.projectId, p.datasetId, p.tableId)) return undefined;
    const t = requireTable(ctx, p.projectId, p.datasetId, p.tableId);
    return { resource: { type: 'table', path: [t.projectId, t.datasetId, t.tableId] }, creationTime: t.creationTime };
  };
  const routineTarget = (p: Params): Target => {
    requireDataset(ctx, p.projectId, p.datasetId);
    const r = cat.getRoutine(p.projectId, p.datasetId, p.routineId);
    if (!r || r.routineId !== p.routineId) throw BigQueryError.resourceNotFound('Routine', `${p.projectId}:${p.datasetId}.${p.routineId}`);
    return { resource: { type: 'routine', path: [r.projectId, r.datasetId, r.routineId] }, creationTime: r.creationTime };
  };
  const rapTarget = (p: Params, throws = true): Target | undefined => {
    const t = throws ? requireTable(ctx, p.projectId, p.datasetId, p.tableId) : cat.getTable(p.projectId, p.datasetId, p.tableId);
    const rp = t && cat.getRowAccessPolicy(t.projectId, t.datasetId, t.tableId, p.policyId);
    if (!rp) {
      if (!throws) return undefined;
      throw BigQueryError.rowAccessPolicyNotFound(p.policyId, `${p.projectId}.${p.datasetId}.${p.tableId}`);
    }
    const grantEtag = Buffer.concat([Buffer.from([0x07]), Buffer.from(String(rp.lastModifiedTime).padStart(7, '0').slice(-7))]).toString('base64');
    return { resource: { type: 'rowAccessPolicy', path: [rp.projectId, rp.datasetId, rp.tableId, rp.policyId] }, creationTime: rp.creationTime, grantees: rp.grantees, grantEtag };
  };

  /** The policy in effect on a target: the stored one, or a row access policy's grantees. */
  const policyOf = (t: Target): IamPolicyMeta | undefined => {
    if (t.grantees) {
      const bindings = normalizeBindings([{ role: 'roles/bigquery.filteredDataViewer', members: t.grantees }]);
      return { resource: t.resource, resourceCreationTime: t.creationTime, version: 1, bindings, etag: t.grantEtag ?? EMPTY_POLICY_ETAG };
    }
    return cat.getIamPolicy(t.resource, t.creationTime);
  };

  const getPolicy = (target: (p: Params) => Target | undefined) => async (req: Req): Promise<Policy> => {
    const t = target(req.params)!;
    const body = (req.body ?? {}) as GetIamPolicyRequest<RequestJson>;
    const requested = body.options?.requestedPolicyVersion == null ? undefined : Number(body.options.requestedPolicyVersion);
    if (requested !== undefined && !VERSIONS.includes(requested)) throw BigQueryError.iamInvalidPolicyVersion(requested);
    const p = policyOf(t);
    if (p && p.version === 3 && requested !== undefined && requested < 3) throw BigQueryError.iamRequestedVersionTooLow(requested, 3);
    return policyJson(p);
  };

  const setPolicy = (target: (p: Params) => Target | undefined) => async (req: Req): Promise<Policy> => {
    const t = target(req.params)!;
    const body = objectBody<SetIamPolicyRequest<RequestJson>>(req.body);
    if (!body.policy) throw BigQueryError.requiredParameterMissing('policy');
    const mask = new Set((body.updateMask ?? 'bindings,etag').split(',').map((s) => s.trim()).filter(Boolean));
    for (const m of mask) if (!['bindings', 'etag', 'version', 'auditConfigs', 'audit_configs'].includes(m)) throw BigQueryError.iamInvalidUpdateMask(m);
    const old = policyOf(t);
    const np = body.policy;
    const version = np.version == null ? undefined : Number(np.version);
    if (version !== undefined && !VERSIONS.includes(version)) throw BigQueryError.iamInvalidPolicyVersion(np.version);
    if (mask.has('etag') && np.etag && np.etag !== (old?.etag ?? EMPTY_POLICY_ETAG)) throw BigQueryError.iamConcurrentPolicyChange();
    const bindings = mask.has('bindings') ? normalizeBindings((np.bindings ?? []) as (Binding<RequestJson> | null)[]) : (old?.bindings ?? []);
    const conditional = bindings.some((b) => b.condition);
    const declared = mask.has('version') || mask.has('bindings') ? version : old?.version;
    if (conditional && declared !== 3) throw BigQueryError.iamConditionNeedsVersion3();
    const auditConfigs = mask.has('auditConfigs') || mask.has('audit_configs') ? ((np.auditConfigs ?? []) as unknown[]) : old?.auditConfigs;
    const content = { bindings, auditConfigs };
    const stored: IamPolicyMeta = {
      resource: t.resource,
      resourceCreationTime: t.creationTime,
      // "If you specify version 3, but the policy has no conditional role bindings, the response uses version 1."
      version: conditional ? 3 : 1,
      bindings,
      ...(auditConfigs?.length ? { auditConfigs } : {}),
      etag: newPolicyEtag(t.resource, content),
    };
    await cat.putIamPolicy(stored);
    return policyJson(stored);
  };

  const testPermissions = (target: (p: Params, throws: boolean) => Target | undefined) => async (req: Req): Promise<TestIamPermissionsResponse> => {
    const body = (req.body ?? {}) as TestIamPermissionsRequest<RequestJson>;
    const asked = ((body.permissions ?? []) as unknown[]).map((x) => String(x ?? ''));
    for (const p of asked) if (!/^[a-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*){2}$/.test(p)) throw BigQueryError.iamInvalidPermission(p);
    const t = target(req.params, false);
    if (!t) return {};
    const caller = callerFromHeaders(req.headers);
    let held: Set<string>;
    if (!caller) held = permissionsOf(t.resource.type);
    else {
      const inherited = accessBindings(cat.getDataset(t.resource.path[0], t.resource.path[1])?.fields.access);
      const roles = [...(policyOf(t)?.bindings ?? []), ...inherited].filter((b) => grants(b.members, caller)).map((b) => b.role);
      held = permissionsOfRoles(roles, t.resource.type);
    }
    const permissions = [...new Set(asked.filter((p) => held.has(p)))];
    return permissions.length ? { permissions } : {};
  };

  app.post(`${table}::getIamPolicy`, getPolicy(tableTarget));
  app.post(`${table}::setIamPolicy`, setPolicy(tableTarget));
  app.post(`${table}::testIamPermissions`, testPermissions(tableTarget));
  app.post(`${routine}::getIamPolicy`, getPolicy(routineTarget));
  app.post(`${routine}::setIamPolicy`, setPolicy(routineTarget));
  app.post(`${rap}::getIamPolicy`, getPolicy(rapTarget));
  app.post(`${rap}::testIamPermissions`, testPermissions(rapTarget));
}
