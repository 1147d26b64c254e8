/**
 * The OAuth 2.0 token endpoint of bqemu's service-account keys (their `token_uri`,
 * src/server/service-account.ts): `POST /token` with the JWT-bearer grant
 * (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`, form-encoded), as
 * Google's token endpoint takes it
 * (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests).
 * Answers `{access_token, expires_in, token_type: "Bearer"}`; a refused assertion gets an OAuth
 * error body (src/errors/auth-errors.ts).
 */
import type { FastifyInstance } from 'fastify';
import { BigQueryError } from '../../errors/errors.js';
import { accessTokenFor, TOKEN_PATH, verifyServiceAccountJwt } from '../service-account.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Registers `POST /token` (its own scope: a form-encoded body parser, no JSON). */
export async function oauthTokenRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (r) => {
    r.removeAllContentTypeParsers();
    r.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, new URLSearchParams(body as string)));
    r.post(TOKEN_PATH, async (req, reply) => {
      const form = req.body instanceof URLSearchParams ? req.body : new URLSearchParams();
      const grant = form.get('grant_type') ?? '';
      const assertion = form.get('assertion');
      const fail = (e: { status: number; body: object }) => reply.status(e.status).header('cache-control', 'no-store').send(e.body);
      if (grant !== JWT_BEARER) return fail(BigQueryError.unsupportedGrantType(grant));
      if (!assertion) return fail(BigQueryError.missingAssertion());
      const v = verifyServiceAccountJwt(assertion);
      if (v === 'signature') return fail(BigQueryError.invalidJwtSignature());
      if (v === 'time') return fail(BigQueryError.invalidJwtTime());
      return reply.header('cache-control', 'no-store').send(accessTokenFor(assertion, v));
    });
  });
}
