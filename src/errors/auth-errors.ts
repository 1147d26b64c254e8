/**
 * Authentication refusals (`bqemu serve --require-auth`, src/server/rest/require-auth.ts) and the errors of
 * the OAuth 2.0 token endpoint bqemu serves for its own service-account keys
 * (src/server/rest/oauth-token.ts).
 *
 * The 401 envelopes are BigQuery's, as its API front end answers them (reported verbatim, e.g.
 * googleapis/nodejs-bigquery#808 for a request without credentials and #473 for invalid ones):
 * top-level message, `errors[0]` with its own short message, reason `required` / `authError`,
 * location `Authorization` of type `header`, status `UNAUTHENTICATED`.
 * The token endpoint's errors are OAuth 2.0 error bodies (RFC 6749 §5.2, `{error,
 * error_description}`), with the texts Google's token endpoint gives for a bad assertion
 * (https://developers.google.com/identity/protocols/oauth2/service-account#error-codes).
 */
import { BigQueryError } from './bigquery-error.js';

const SEE = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

/** 401 required: a request with no `Authorization` header where credentials are required. */
export function loginRequired(): BigQueryError {
  return new BigQueryError('required', `Request is missing required authentication credential. ${SEE}`, 'Authorization', 401, { message: 'Login Required.', locationType: 'header' });
}

/** 401 authError: a bearer token bqemu did not issue, or one that has expired. */
export function invalidCredentials(): BigQueryError {
  return new BigQueryError('authError', `Request had invalid authentication credentials. ${SEE}`, 'Authorization', 401, { message: 'Invalid Credentials', locationType: 'header' });
}

/** An OAuth 2.0 token endpoint error: HTTP status and body `{error, error_description}`. */
export interface OAuthError {
  status: number;
  body: { error: string; error_description: string };
}

/** 400 unsupported_grant_type: a `grant_type` other than the JWT-bearer grant. */
export function unsupportedGrantType(grantType: string): OAuthError {
  return { status: 400, body: { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grantType}` } };
}

/** 400 invalid_request: no `assertion` parameter. */
export function missingAssertion(): OAuthError {
  return { status: 400, body: { error: 'invalid_request', error_description: 'Missing required parameter: assertion' } };
}

/** 400 invalid_grant: an assertion that is not a JWT signed by a bqemu service-account key. */
export function invalidJwtSignature(): OAuthError {
  return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
}

/** 400 invalid_grant: an assertion whose `exp`/`iat` are outside their allowed window. */
export function invalidJwtTime(): OAuthError {
  return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.' } };
}
