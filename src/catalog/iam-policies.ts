/**
 * IAM policies of tables and views, routines and row access policies (REST `Policy`,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/Policy): the stored form and its etags.
 * The catalog store (src/catalog/store.ts) keeps one per resource that has had a policy set,
 * persisted with `--data-dir` like the other entries, and removes it with its resource.
 */
import { createHash } from 'node:crypto';
import type { IamResourceType } from './iam-roles.js';

/** A binding's condition (REST `Expr`): a CEL expression, stored as given. */
export interface IamCondition {
  expression?: string;
  title?: string;
  description?: string;
  location?: string;
}

/** One binding: a role, its members, optionally a condition. */
export interface IamBinding {
  role: string;
  members: string[];
  condition?: IamCondition;
}

/** The resource a policy belongs to: `path` is [project, dataset, table|routine] or [project, dataset, table, policyId]. */
export interface IamResource {
  type: IamResourceType;
  path: string[];
}

/** A stored policy. */
export interface IamPolicyMeta {
  resource: IamResource;
  /** The resource's `creationTime` (ms): the policy belongs to that incarnation of the name only. */
  resourceCreationTime: number;
  /** 1, or 3 when a binding has a condition. */
  version: number;
  bindings: IamBinding[];
  /** REST `auditConfigs`, stored as given. */
  auditConfigs?: unknown[];
  /** Base64 of the policy's 8-byte version tag (REST `etag`, format byte). */
  etag: string;
}

/** The store key of a resource's policy. */
export function iamKey(r: IamResource): string {
  return JSON.stringify([r.type, ...r.path]);
}

/**
 * The etag of a resource that has no policy: `ACAB` (base64 of 00 00 01), the etag IAM answers for
 * an empty policy (getIamPolicy: "Returns an empty policy if the resource exists and does not have
 * a policy set", https://cloud.google.com/bigquery/docs/reference/rest/v2/tables/getIamPolicy).
 */
export const EMPTY_POLICY_ETAG = 'ACAB';

let etagSeq = 0;

/**
 * A fresh etag for a policy just written: 8 bytes, `0x07` then 7 bytes of a hash of the resource,
 * the policy and a per-process sequence with the time, in base64 (`BwX…=`, the form IAM's etags
 * take), so that every write — even of the same bindings — gets a new etag.
 */
export function newPolicyEtag(r: IamResource, content: unknown): string {
  const h = createHash('sha256').update(JSON.stringify([iamKey(r), content, Date.now(), ++etagSeq])).digest();
  return Buffer.concat([Buffer.from([0x07]), h.subarray(0, 7)]).toString('base64');
}
