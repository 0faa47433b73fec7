import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import {
  createActorToken,
  revokeActorToken,
  type ActorTokenRequest,
} from '../../impersonation/actor-tokens.ts';
import { actorTokenJSON } from '../../serializers/actor-token.ts';
import { sendJson } from '../send-json.ts';

/** Backend API: actor tokens, as `@clerk/backend` 2.10.1's `actorTokens.create` and `.revoke` call them. */
export async function registerActorTokenBapi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  app.post('/v1/actor_tokens', async (req, reply) => {
    const request = actorTokenRequest(req.body);
    const issued = await deps.db.transaction((tx) => createActorToken(tx, deps, request, deps.clock()));
    return sendJson(reply, 200, actorTokenJSON(issued.actorToken, issued));
  });

  app.post<{ Params: { id: string } }>('/v1/actor_tokens/:id/revoke', async (req, reply) => {
    const revoked = await deps.db.transaction((tx) => revokeActorToken(tx, req.params.id, deps.clock()));
    return sendJson(reply, 200, actorTokenJSON(revoked));
  });
}

/**
 * The create body, snake_cased at the top level only by the SDK: `actor` reaches us as written
 * (`{ sub, additionalProperties? }`) and is kept as it is, since it becomes the `act` claim.
 */
function actorTokenRequest(body: unknown): ActorTokenRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.bodyInvalid('The request body must be a JSON object.');
  }
  const b = body as Record<string, unknown>;
  const userId = b.user_id;
  if (userId !== undefined && userId !== null && typeof userId !== 'string') {
    throw errors.paramFormatInvalid('user_id', 'a string');
  }
  const actor = b.actor;
  if (actor !== undefined && actor !== null && (typeof actor !== 'object' || Array.isArray(actor))) {
    throw errors.paramFormatInvalid('actor', 'a JSON object');
  }
  const seconds = (name: string): number | undefined => {
    const v = b[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number') throw errors.paramFormatInvalid(name, 'a number');
    return v;
  };
  return {
    userId: userId || undefined,
    actor: (actor as Record<string, unknown> | null) ?? undefined,
    expiresInSeconds: seconds('expires_in_seconds'),
    sessionMaxDurationInSeconds: seconds('session_max_duration_in_seconds'),
  };
}
