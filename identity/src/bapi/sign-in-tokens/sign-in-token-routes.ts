import { errors } from '../../errors.ts';
import { signInTokenJSON } from '../../serializers/sign-in-token.ts';
import { createSignInToken, revokeSignInToken } from '../../tickets/sign-in-tokens.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/** Backend API: sign-in tokens, as `@clerk/backend` 2.10.1's `signInTokens.*` call them. */
export const signInTokenRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/sign_in_tokens',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ user_id: 'id', expires_in_seconds: 'number' }) },
    async handler(req, deps) {
      if (!req.body) throw errors.bodyInvalid('The request body must be a JSON object.');
      const request = {
        userId: req.fields.string('user_id') || undefined,
        expiresInSeconds: req.fields.number('expires_in_seconds'),
      };
      const issued = await deps.db.transaction((tx) => createSignInToken(tx, deps, request, deps.clock()));
      return signInTokenJSON(issued.signInToken, issued);
    },
  },
  {
    method: 'POST',
    path: '/v1/sign_in_tokens/:id/revoke',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const revoked = await deps.db.transaction((tx) => revokeSignInToken(tx, req.params.id!, deps.clock()));
      return signInTokenJSON(revoked);
    },
  },
];
