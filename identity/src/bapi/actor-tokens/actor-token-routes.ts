import { errors } from '../../errors.ts';
import { createActorToken, revokeActorToken } from '../../impersonation/actor-tokens.ts';
import { actorTokenJSON } from '../../serializers/actor-token.ts';
import type { BapiRoute } from '../route.ts';
import { jsonInput } from '../json-input.ts';

/** Backend API: actor tokens, as `@clerk/backend` 2.10.1's `actorTokens.create` and `.revoke` call them. */
export const actorTokenRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/actor_tokens',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({
        user_id: 'id',
        actor: 'object',
        expires_in_seconds: 'number',
        session_max_duration_in_seconds: 'number',
      }),
    },
    async handler(req, deps) {
      // A create without any body is refused as malformed, as it always was (not as a missing user).
      if (!req.body) throw errors.bodyInvalid('The request body must be a JSON object.');
      // Snake_cased at the top level only by the SDK: `actor` reaches us as written
      // (`{ sub, additionalProperties? }`) and is kept as it is, since it becomes the `act` claim.
      const request = {
        userId: req.fields.string('user_id') || undefined,
        actor: req.fields.object('actor'),
        expiresInSeconds: req.fields.number('expires_in_seconds'),
        sessionMaxDurationInSeconds: req.fields.number('session_max_duration_in_seconds'),
      };
      const issued = await deps.db.transaction((tx) => createActorToken(tx, deps, request, deps.clock()));
      return actorTokenJSON(issued.actorToken, issued);
    },
  },
  {
    method: 'POST',
    path: '/v1/actor_tokens/:id/revoke',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const revoked = await deps.db.transaction((tx) => revokeActorToken(tx, req.params.id!, deps.clock()));
      return actorTokenJSON(revoked);
    },
  },
];
