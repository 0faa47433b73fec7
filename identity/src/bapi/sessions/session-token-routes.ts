import { jwtVerify } from 'jose';
import { errors } from '../../errors.ts';
import { tokenForSubject } from '../../organizations/active-organization.ts';
import { findSessionById, isSignedIn } from '../../store/sessions.ts';
import { findJwtTemplateByName } from '../../store/jwt-templates.ts';
import { mintTemplateToken } from '../../jwt-templates/jwt-template.ts';
import { tokenSubjectBySessionId } from '../../store/token-subjects.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { queryFlag } from '../request-input.ts';
import type { BapiRequest, BapiRoute } from '../route.ts';
import type { IdentityDeps } from '../../deps.ts';
import { sessionAnswer } from './session-routes.ts';

/** Clerk's bounds on `expires_in_seconds` (30 seconds to ten years). */
const MIN_TOKEN_SECONDS = 30;
const MAX_TOKEN_SECONDS = 315_360_000;

/** The session, which must exist, before anything else of the request is read: a 404 comes first. */
async function existingSession(deps: IdentityDeps, id: string) {
  const session = await findSessionById(deps.db, id);
  if (!session) throw errors.notFound('session');
  return session;
}

/** `expires_in_seconds` within Clerk's bounds, or undefined when the caller leaves it to the default. */
function requestedLifetime(req: BapiRequest): number | undefined {
  const seconds = req.fields.integer('expires_in_seconds');
  if (seconds === undefined) return undefined;
  if (seconds < MIN_TOKEN_SECONDS || seconds > MAX_TOKEN_SECONDS) {
    throw errors.paramValueInvalid(
      'expires_in_seconds',
      `expires_in_seconds must be between ${MIN_TOKEN_SECONDS} and ${MAX_TOKEN_SECONDS}.`,
    );
  }
  return seconds;
}

/**
 * Backend API: `sessions.getToken(sessionId, template?, expiresInSeconds?)`, `verifySession` and
 * `refreshSession` (@clerk/backend 2.10.1). A token is minted only for a signed-in session, with what the
 * Frontend API's would say (the session's active organisation, its `fva`), and no `azp`: no page asked.
 * With a template name, the template's token (jwt-templates/jwt-template.ts); `expires_in_seconds` then
 * stands in for the template's lifetime.
 */
export const sessionTokenRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/sessions/:id/tokens',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ expires_in_seconds: 'integer' }) },
    async handler(req, deps) {
      const now = deps.clock();
      const subject = await tokenSubjectBySessionId(
        deps.db,
        req.params.id!,
        { session: true },
        deps.billing.catalogue() !== null,
      );
      // A revoked, ended or expired session gets no token, as in the Frontend API.
      if (!subject || !isSignedIn(subject.session, now)) throw errors.notFound('session');
      const ttlSeconds = requestedLifetime(req) ?? deps.tokens.ttlSeconds;
      const minting = { ...deps, tokens: { ...deps.tokens, ttlSeconds } };
      return { object: 'token', jwt: await tokenForSubject(minting, subject, { azp: null, now }) };
    },
  },
  {
    // A token of the JWT template named in the path, for the session's own user and active organisation.
    method: 'POST',
    path: '/v1/sessions/:id/tokens/:template',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ expires_in_seconds: 'integer' }) },
    async handler(req, deps) {
      const now = deps.clock();
      const subject = await tokenSubjectBySessionId(deps.db, req.params.id!, { session: true });
      if (!subject || !isSignedIn(subject.session, now)) throw errors.notFound('session');
      const lifetimeSeconds = requestedLifetime(req);
      const template = await findJwtTemplateByName(deps.db, req.params.template!);
      if (!template) throw errors.notFound('JWT template');
      return {
        object: 'token',
        jwt: await mintTemplateToken(deps, template, subject, { azp: null, now, lifetimeSeconds }),
      };
    },
  },
  {
    // Deprecated by Clerk (networkless verification replaces it); served as its older API versions did.
    method: 'POST',
    path: '/v1/sessions/:id/verify',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ token: 'string' }) },
    async handler(req, deps) {
      const id = req.params.id!;
      const session = await existingSession(deps, id);
      const token = req.fields.string('token');
      if (token === undefined) throw errors.paramMissing('token');
      const now = deps.clock();
      let sid: unknown;
      try {
        ({
          payload: { sid },
        } = await jwtVerify(token, deps.signingKeys.verificationKey, {
          algorithms: ['RS256'],
          issuer: deps.tokens.issuer,
          currentDate: now,
          clockTolerance: 5,
        }));
      } catch {
        throw errors.sessionTokenInvalid();
      }
      if (sid !== session.id || !isSignedIn(session, now)) throw errors.sessionTokenInvalid();
      return sessionAnswer(deps, id, now);
    },
  },
  {
    method: 'POST',
    path: '/v1/sessions/:id/refresh',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({ suffixed_cookies: 'flag' }),
      body: jsonInput({
        expired_token: 'string',
        refresh_token: 'string',
        request_origin: 'string',
        request_originating_ip: 'string',
        request_headers: 'object',
        format: 'string',
      }),
    },
    async handler(req, deps) {
      await existingSession(deps, req.params.id!);
      queryFlag(req.query, 'suffixed_cookies');
      for (const name of ['expired_token', 'refresh_token', 'request_origin']) {
        if (req.fields.string(name) === undefined) throw errors.paramMissing(name);
      }
      req.fields.string('request_originating_ip');
      req.fields.object('request_headers');
      const format = req.fields.string('format');
      if (format !== undefined && format !== 'token' && format !== 'cookie') {
        throw errors.paramValueInvalid('format', 'format must be token or cookie.');
      }
      throw errors.refreshTokenInvalid();
    },
  },
];
