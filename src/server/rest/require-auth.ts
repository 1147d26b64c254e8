/**
 * `bqemu serve --require-auth`: every API request must carry a bearer token bqemu issued (an access
 * token of its token endpoint, or a JWT self-signed with one of its service-account keys,
 * src/server/service-account.ts). Without one the request ends as BigQuery's 401: `required` when
 * there is no `Authorization` header, `authError` for any other token
 * (src/errors/auth-errors.ts). The token endpoint and the discovery document stay open, as
 * Google's are. Without the flag any token (or none) is accepted, as before.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import { bearerToken, identityOfBearer, TOKEN_PATH } from '../service-account.js';

const OPEN_PATHS = [TOKEN_PATH, '/$discovery/', '/discovery/'];

/** The `onRequest` hook enforcing `--require-auth`. @throws BigQueryError required / authError (401) */
export async function requireAuth(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.method === 'OPTIONS' || OPEN_PATHS.some((p) => req.url === p || (p.endsWith('/') && req.url.startsWith(p)))) return;
  const header = req.headers.authorization;
  if (header === undefined) {
    reply.header('www-authenticate', 'Bearer realm="https://accounts.google.com/"');
    throw BigQueryError.loginRequired();
  }
  const token = bearerToken(header);
  if (!token || !identityOfBearer(token)) {
    reply.header('www-authenticate', 'Bearer realm="https://accounts.google.com/", error="invalid_token"');
    throw BigQueryError.invalidCredentials();
  }
}
