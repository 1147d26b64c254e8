/**
 * IAM policy errors of tables.getIamPolicy/setIamPolicy/testIamPermissions and their routine and
 * row-access-policy counterparts (https://cloud.google.com/bigquery/docs/reference/rest/v2/tables/setIamPolicy).
 * The texts are IAM's own, as public reports quote them; each factory names its source.
 */
import { BigQueryError } from './bigquery-error.js';

const VERSIONS_PAGE = 'For more information, please refer to https://cloud.google.com/iam/docs/policies#versions.';

/**
 * 409 ABORTED `There were concurrent policy changes. Please retry the whole read-modify-write with
 * exponential backoff.` — setIamPolicy whose `etag` is not the stored policy's (IAM's text, quoted in
 * GoogleCloudPlatform/django-cloud-deploy#268 and pulumi/pulumi-google-native#862; the Policy
 * schema's `etag` description).
 */
export function iamConcurrentPolicyChange(): BigQueryError {
  return new BigQueryError('aborted', 'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.');
}

/**
 * 400 badRequest `Policy members must be of the form "<type>:<value>".` — a member without a type
 * prefix (IAM's text, quoted in hashicorp/terraform-provider-google#4965).
 */
export function iamMemberWithoutType(): BigQueryError {
  return new BigQueryError('badRequest', 'Policy members must be of the form "<type>:<value>".');
}

/**
 * 400 badRequest `The member <m> is of an unknown type. Please set a valid type prefix for the
 * member.` — a member whose prefix IAM does not know (IAM's text, quoted in DefangLabs/defang#1541).
 */
export function iamMemberUnknownType(member: string): BigQueryError {
  return new BigQueryError('badRequest', `The member ${member} is of an unknown type. Please set a valid type prefix for the member.`);
}

/**
 * 400 badRequest `Permission <p> is not valid.` — testIamPermissions with a wildcard (`*`,
 * `bigquery.*`) or a name that is not `service.resource.verb` (the discovery document: "Permissions
 * with wildcards (such as `*` or `storage.*`) are not allowed"; IAM's text quoted in
 * hashicorp/terraform-provider-google#6762).
 */
export function iamInvalidPermission(permission: string): BigQueryError {
  return new BigQueryError('badRequest', `Permission ${permission} is not valid.`);
}

/**
 * 400 badRequest `Requested policy version (<v>) cannot be less than the existing policy version (3).
 * For more information, please refer to https://cloud.google.com/iam/docs/policies#versions.` —
 * getIamPolicy below version 3 of a policy with conditions (IAM's text, quoted in
 * terraform-google-modules/terraform-google-iam#86).
 */
export function iamRequestedVersionTooLow(requested: number, existing: number): BigQueryError {
  return new BigQueryError('badRequest', `Requested policy version (${requested}) cannot be less than the existing policy version (${existing}). ${VERSIONS_PAGE}`);
}

/**
 * 400 badRequest `Invalid policy version <v>: valid values are 0, 1 and 3. …` — a `version` or
 * `requestedPolicyVersion` outside 0, 1, 3 ("Requests that specify an invalid value are rejected",
 * Policy.version in the discovery document); the wording is the emulator's.
 */
export function iamInvalidPolicyVersion(version: unknown): BigQueryError {
  return new BigQueryError('badRequest', `Invalid policy version ${String(version)}: valid values are 0, 1 and 3. ${VERSIONS_PAGE}`);
}

/**
 * 400 badRequest `A policy with conditional role bindings must specify version 3. …` — setIamPolicy
 * with a condition in a version 0/1 policy ("Any operation that affects conditional role bindings
 * must specify version `3`", Policy.version in the discovery document); the wording is the emulator's.
 */
export function iamConditionNeedsVersion3(): BigQueryError {
  return new BigQueryError('badRequest', `A policy with conditional role bindings must specify version 3. ${VERSIONS_PAGE}`);
}

/**
 * 400 badRequest `Invalid update mask path: <p>` — setIamPolicy `updateMask` naming a field other than
 * `bindings`, `etag`, `version` or `auditConfigs` (the Policy fields); the wording is the emulator's.
 */
export function iamInvalidUpdateMask(path: string): BigQueryError {
  return new BigQueryError('badRequest', `Invalid update mask path: ${path}`);
}
