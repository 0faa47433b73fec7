import { createTestingToken } from '../../testing-tokens/testing-tokens.ts';
import type { BapiRoute } from '../route.ts';

/** Backend API: testing tokens, as `@clerk/backend` 2.10.1's `testingTokens.createTestingToken` calls it. */
export const testingTokenRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/testing_tokens',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(_req, deps) {
      const now = deps.clock();
      const { token, expiresAt } = await deps.db.transaction((tx) =>
        createTestingToken(tx, deps.config, now),
      );
      // Clerk's TestingTokenJSON: `expires_at` in seconds since the epoch, unlike its other timestamps.
      return { object: 'testing_token', token, expires_at: Math.floor(expiresAt.getTime() / 1000) };
    },
  },
];
