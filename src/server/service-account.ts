/**
 * Service-account keys bqemu issues (`bqemu credentials`, `emulator.credentials()`) and the JWTs
 * signed with them: the assertion of the OAuth 2.0 JWT-bearer grant
 * (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests,
 * RFC 7523) that Python's, Go's and Java's auth libraries send to the key's `token_uri`, and the
 * self-signed JWT that google-auth-library (Node) sends directly as the bearer token
 * (https://developers.google.com/identity/protocols/oauth2/service-account#jwt-auth).
 *
 * A key's `private_key_id` (the JWT header's `kid`) carries its public key: `bqemu1_` followed by
 * the base64url SubjectPublicKeyInfo (DER). The emulator checks every signature against that
 * public key with node:crypto, so a key works with any bqemu, started before or after it was made,
 * with no shared state. This makes tokens hard to forge by accident, not secure: bqemu is a test
 * double, never an authentication boundary. The keys are useless against real Google Cloud.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

/** A service-account key file, as Google's IAM writes it (`gcloud iam service-accounts keys create`). */
export interface ServiceAccountKey {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  /** PKCS#8 PEM of an RSA-2048 key. */
  private_key: string;
  client_email: string;
  client_id: string;
  /** The emulator's token endpoint (`<restUrl>/token`). */
  token_uri: string;
  universe_domain: 'googleapis.com';
}

export interface ServiceAccountKeyOptions {
  /** The emulator's REST URL, e.g. `http://127.0.0.1:9050`; `token_uri` is `<url>/token`. */
  endpoint: string;
  projectId: string;
  /** The service account's email; default `bqemu@<projectId>.iam.gserviceaccount.com`. */
  clientEmail?: string;
}

const KID_PREFIX = 'bqemu1_';
/** The path of the token endpoint under the REST URL. */
export const TOKEN_PATH = '/token';
/** Prefix of the access tokens the token endpoint issues (followed by the verified assertion). */
const ACCESS_TOKEN_PREFIX = 'bqemu1.';
/** Longest lifetime of an assertion (`exp - iat`), seconds: Google's limit of one hour. */
const MAX_LIFETIME_S = 3600;
/** Clock skew tolerated on `iat` and `exp`, seconds. */
const SKEW_S = 300;

const generateKeyPair = promisify(crypto.generateKeyPair);

/**
 * A new service-account key whose `token_uri` is the emulator's. RSA generation runs on libuv's
 * thread pool (tens of ms), not on the event loop.
 */
export async function createServiceAccountKey(opts: ServiceAccountKeyOptions): Promise<ServiceAccountKey> {
  const { privateKey, publicKey } = await generateKeyPair('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const email = opts.clientEmail ?? `bqemu@${opts.projectId}.iam.gserviceaccount.com`;
  return {
    type: 'service_account',
    project_id: opts.projectId,
    private_key_id: KID_PREFIX + spki.toString('base64url'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    client_id: BigInt(`0x${crypto.createHash('sha256').update(email).digest('hex').slice(0, 15)}`).toString(),
    token_uri: opts.endpoint.replace(/\/+$/, '') + TOKEN_PATH,
    universe_domain: 'googleapis.com',
  };
}

/**
 * A self-signed JWT of `key` (RS256, `kid` = private_key_id; iss = sub = client_email, one hour),
 * as google-auth-library sends it for a key with `useJWTAccessWithScope`.
 */
export function selfSignedJwt(key: ServiceAccountKey, nowS = Math.floor(Date.now() / 1000)): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const signed = `${enc({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id })}.${enc({ iss: key.client_email, sub: key.client_email, scope: 'https://www.googleapis.com/auth/bigquery', iat: nowS, exp: nowS + MAX_LIFETIME_S })}`;
  return `${signed}.${crypto.sign('sha256', Buffer.from(signed), key.private_key).toString('base64url')}`;
}

/** What a verified JWT says: the service account's email and the expiry (Unix seconds). */
export interface VerifiedJwt {
  email: string;
  exp: number;
}

/** Why a JWT was refused: `signature` (not signed by a bqemu key, or not a JWT) or `time` (expired, too long-lived). */
export type JwtFault = 'signature' | 'time';

const decodeJson = (part: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    // Not JSON: not a JWT this module issued a key for.
    return undefined;
  }
};

/**
 * Verifies an RS256 JWT signed by a bqemu-issued key (the `kid` carries the public key).
 * @param nowS current time, Unix seconds.
 * @returns the verified claims, or the fault.
 */
export function verifyServiceAccountJwt(jwt: string, nowS = Date.now() / 1000): VerifiedJwt | JwtFault {
  const parts = jwt.split('.');
  if (parts.length !== 3) return 'signature';
  const header = decodeJson(parts[0]!);
  const claims = decodeJson(parts[1]!);
  if (!header || !claims || header.alg !== 'RS256' || typeof header.kid !== 'string' || !header.kid.startsWith(KID_PREFIX)) return 'signature';
  let ok = false;
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(header.kid.slice(KID_PREFIX.length), 'base64url'), format: 'der', type: 'spki' });
    ok = crypto.verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'));
  } catch {
    // A kid that is not a public key, or a signature of the wrong size: not signed by a bqemu key.
    ok = false;
  }
  const email = claims.iss;
  if (!ok || typeof email !== 'string' || !email) return 'signature';
  const { iat, exp } = claims;
  if (typeof exp !== 'number' || typeof iat !== 'number' || exp < nowS - SKEW_S || iat > nowS + SKEW_S || exp - iat > MAX_LIFETIME_S + SKEW_S) return 'time';
  return { email, exp };
}

/** The access token the token endpoint issues for a verified assertion, and its lifetime in seconds. */
export function accessTokenFor(assertion: string, verified: VerifiedJwt, nowS = Date.now() / 1000): { access_token: string; expires_in: number; token_type: 'Bearer' } {
  return { access_token: ACCESS_TOKEN_PREFIX + assertion, expires_in: Math.max(0, Math.floor(verified.exp - nowS)), token_type: 'Bearer' };
}

const verified = new Map<string, VerifiedJwt>();
const MAX_CACHED = 1000;

/**
 * The service account a bearer token identifies: an access token from bqemu's token endpoint, or a
 * self-signed JWT of a bqemu key. Undefined for any other token (or an expired one). Verified
 * tokens are cached until they expire, so a request costs one map lookup.
 */
export function identityOfBearer(token: string, nowS = Date.now() / 1000): VerifiedJwt | undefined {
  const hit = verified.get(token);
  if (hit) return hit.exp >= nowS - SKEW_S ? hit : undefined;
  const jwt = token.startsWith(ACCESS_TOKEN_PREFIX) ? token.slice(ACCESS_TOKEN_PREFIX.length) : token;
  const v = verifyServiceAccountJwt(jwt, nowS);
  if (typeof v === 'string') return undefined;
  if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!);
  verified.set(token, v);
  return v;
}

/** The bearer token of an `Authorization` header value, if it is one. */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  const v = Array.isArray(authorization) ? authorization[0] : authorization;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(v ?? '');
  return m?.[1];
}
