/**
 * IAM roles → the permissions they hold on the resources whose IAM policies the emulator keeps:
 * tables and views (`bigquery.tables.*`), routines (`bigquery.routines.*`) and row access policies
 * (`bigquery.rowAccessPolicies.*`). Permissions the roles hold on other resource types (datasets,
 * jobs, models, connections …) are left out: testIamPermissions on one of these resources never
 * answers them.
 *
 * Source: BigQuery's "BigQuery IAM roles and permissions" page
 * (https://cloud.google.com/bigquery/docs/access-control, predefined roles and the basic roles
 * Owner/Editor/Viewer) and the row-level security page for the Filtered Data Viewer role, which a
 * row access policy's grantees hold on it
 * (https://cloud.google.com/bigquery/docs/row-level-security-intro).
 */

const T = (...verbs: string[]) => verbs.map((v) => `bigquery.tables.${v}`);
const R = (...verbs: string[]) => verbs.map((v) => `bigquery.routines.${v}`);
const P = (...verbs: string[]) => verbs.map((v) => `bigquery.rowAccessPolicies.${v}`);

const METADATA_VIEWER = [...T('get', 'getIamPolicy', 'list'), ...R('get', 'list')];
const DATA_VIEWER = [...METADATA_VIEWER, ...T('createSnapshot', 'export', 'getData', 'replicateData')];
const DATA_EDITOR = [
  ...DATA_VIEWER,
  ...T('create', 'createIndex', 'delete', 'deleteIndex', 'deleteSnapshot', 'restoreSnapshot', 'update', 'updateData', 'updateIndex', 'updateTag'),
  ...R('create', 'delete', 'update', 'updateTag'),
];
const DATA_OWNER = [
  ...DATA_EDITOR,
  ...T('setCategory', 'setColumnDataPolicy', 'setIamPolicy'),
  ...R('getIamPolicy', 'setIamPolicy'),
  ...P('create', 'delete', 'get', 'getIamPolicy', 'list', 'setIamPolicy', 'update'),
];
const ADMIN = [...DATA_OWNER, ...P('overrideTimeTravelRestrictions')];
const VIEWER = [...DATA_VIEWER, ...P('get', 'list')];
const EDITOR = [...DATA_EDITOR, ...P('create', 'delete', 'get', 'list', 'update')];

/** Role name → the permissions it holds on tables, views, routines and row access policies. */
export const ROLE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  'roles/bigquery.admin': ADMIN,
  'roles/bigquery.dataOwner': DATA_OWNER,
  'roles/bigquery.dataEditor': DATA_EDITOR,
  'roles/bigquery.dataViewer': DATA_VIEWER,
  'roles/bigquery.metadataViewer': METADATA_VIEWER,
  'roles/bigquery.user': [...T('list'), ...R('list')],
  'roles/bigquery.jobUser': [],
  'roles/bigquery.filteredDataViewer': P('getFilteredData'),
  'roles/owner': ADMIN,
  'roles/editor': EDITOR,
  'roles/viewer': VIEWER,
};

/** The resource types with IAM policies, by the permission prefix that applies to them. */
export type IamResourceType = 'table' | 'routine' | 'rowAccessPolicy';

const PREFIX: Record<IamResourceType, string> = {
  table: 'bigquery.tables.',
  routine: 'bigquery.routines.',
  rowAccessPolicy: 'bigquery.rowAccessPolicies.',
};

/** Every permission any role above holds on a resource of `type` (what the project owner can do there). */
export function permissionsOf(type: IamResourceType): Set<string> {
  const all = new Set<string>([...Object.values(ROLE_PERMISSIONS).flat(), ...P('getFilteredData')]);
  return new Set([...all].filter((p) => p.startsWith(PREFIX[type])));
}

/** The permissions `roles` hold on a resource of `type` (unknown and custom roles hold none here). */
export function permissionsOfRoles(roles: Iterable<string>, type: IamResourceType): Set<string> {
  const out = new Set<string>();
  for (const r of roles) for (const p of ROLE_PERMISSIONS[r] ?? []) if (p.startsWith(PREFIX[type])) out.add(p);
  return out;
}
