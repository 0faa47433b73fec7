import type { FastifyInstance } from 'fastify';
import { DatabaseUnavailableError } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { ClerkError, errorBody, errors } from '../errors.ts';
import { bodyRefusal } from '../http/body-limits.ts';
import { jwks } from '../instance/signing-keys.ts';
import { registerOrganizationBapi } from './organizations/routes.ts';
import { registerInvitationBapi } from './invitations/routes.ts';
import { registerActorTokenBapi } from './actor-tokens/routes.ts';
import { registerUserBapi } from './users/routes.ts';
import { registerUserLockBapi } from './users/lock-routes.ts';
import { registerPasswordResetBapi } from './users/password-reset-routes.ts';
import { registerJsonParser } from './body-parsers.ts';
import { sendJson } from './send-json.ts';
import { fullUserJSON, loadUsers } from '../users/load-users.ts';

/** The Backend API subset @clerk/backend 2.10.1 calls, behind secret-key Bearer auth. Register under a prefix. */
export async function bapiPlugin(app: FastifyInstance, opts: { deps: IdentityDeps }) {
  const { deps } = opts;

  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const key = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!key || !deps.keys.verifySecretKey(key)) {
      return sendJson(reply, 401, errorBody(errors.clerkKeyInvalid()));
    }
  });
  // After the key check: a caller without the key learns nothing about its input.
  registerJsonParser(app);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ClerkError) return sendJson(reply, err.status, errorBody(err));
    if (err instanceof DatabaseUnavailableError) return sendJson(reply, 503, errorBody(errors.unavailable()));
    // Fastify's own refusals of a body (an unsupported type, one too large) before a handler runs.
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const refusal = bodyRefusal(status);
      return sendJson(reply, refusal.status, errorBody(refusal));
    }
    req.log.error({ err: { message: (err as Error).message } }, 'bapi handler failed');
    return sendJson(reply, 500, errorBody(errors.internal()));
  });
  app.setNotFoundHandler((_req, reply) => sendJson(reply, 404, errorBody(errors.notFound('endpoint'))));

  await registerOrganizationBapi(app, deps);
  await registerInvitationBapi(app, deps);
  await registerUserBapi(app, deps);
  await registerUserLockBapi(app, deps);
  await registerPasswordResetBapi(app, deps);
  await registerActorTokenBapi(app, deps);

  app.get('/v1/jwks', async (_req, reply) => sendJson(reply, 200, jwks(deps.signingKey)));

  app.get<{ Params: { id: string } }>('/v1/users/:id', async (req, reply) => {
    const owner = (await loadUsers(deps.db, [req.params.id])).get(req.params.id);
    if (!owner) throw errors.notFound('user');
    return sendJson(reply, 200, fullUserJSON(deps, owner, deps.clock(), { includePrivate: true }));
  });
}
