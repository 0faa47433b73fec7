import { ApiError } from '../../api/errors.ts';
import type { ConsoleBackend } from '../backend-client.ts';
import { consoleRoute } from '../console-route.ts';
import { apiKeyIdParam, passkeyIdParam, userIdParam } from './ids.ts';

/**
 * A user's passkeys and API keys on the console's user page (docs/console.md). Passkeys are read from the
 * user (`users.getUser` lists the verified ones) and removed with `users.deleteUserPasskey`; API keys are
 * the Backend API's `GET /api_keys?subject=` (hosted Clerk's list; @clerk/backend 2.10.1 only creates,
 * reveals and revokes) and revoked with `apiKeys.revoke`. Both removals are re-verified, and recorded by
 * the provider as the operator's (`passkey.deleted`, `api_key.revoke`).
 */

interface BackendPasskey {
  id: string;
  name: string | null;
  created_at: number | null;
  last_used_at: number | null;
  verification: { status: string } | null;
}

interface BackendApiKey {
  id: string;
  name: string;
  subject: string;
  scopes: string[];
  revoked: boolean;
  expired: boolean;
  expiration: number | null;
  created_at: number;
  last_used_at: number | null;
}

/** The user's valid API keys: `apiKeys.list` of later SDKs, `GET /api_keys?subject=` (no `/v1`). */
async function apiKeysOf(backend: ConsoleBackend, operatorId: string, userId: string) {
  const keys = await backend.call<{ data: BackendApiKey[] }>('GET', '/api_keys', {
    operatorId,
    unversioned: true,
    // The valid ones (not revoked, not expired), as <APIKeys/> shows them; a subject holds at most 100.
    query: { subject: userId, limit: 100 },
  });
  return keys.data;
}

/** Why a key was revoked, kept with it and shown to its owner in <APIKeys/>. */
const OPERATOR_REVOCATION_REASON = 'Revoked by an operator';

/**
 * GET /console/api/users/:userId/credentials — `{ passkeys, api_keys }`: each passkey's name, creation
 * and last use; each live API key's name, scopes, creation, expiry and last use (never a secret).
 */
export const userCredentialsRoute = consoleRoute({
  method: 'GET',
  path: '/users/:userId/credentials',
  permission: 'operator',
  input: { params: { userId: userIdParam } },
  async handler({ operator, params: { userId } }, { backend }) {
    const operatorId = operator.userId;
    const user = await backend.call<{ passkeys?: BackendPasskey[] }>('GET', `/users/${userId}`, {
      operatorId,
    });
    const keys = await apiKeysOf(backend, operatorId, userId);
    return {
      passkeys: (user.passkeys ?? []).map((p) => ({
        id: p.id,
        name: p.name,
        created_at: p.created_at,
        last_used_at: p.last_used_at,
      })),
      api_keys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        scopes: k.scopes,
        expired: k.expired,
        expiration: k.expiration,
        created_at: k.created_at,
        last_used_at: k.last_used_at,
      })),
    };
  },
});

/**
 * DELETE /console/api/users/:userId/passkeys/:passkeyId — `users.deleteUserPasskey`. Re-verified. Another
 * user's passkey is 404 (the Backend API looks it up under the user the path names).
 */
export const removePasskeyRoute = consoleRoute({
  method: 'DELETE',
  path: '/users/:userId/passkeys/:passkeyId',
  permission: 'operator_reverified',
  input: { params: { userId: userIdParam, passkeyId: passkeyIdParam } },
  async handler({ operator, params: { userId, passkeyId } }, { backend }) {
    return backend.call('DELETE', `/users/${userId}/passkeys/${passkeyId}`, { operatorId: operator.userId });
  },
});

/**
 * POST /console/api/users/:userId/api-keys/:apiKeyId/revoke — `apiKeys.revoke`, for a live key of this
 * user only (another subject's key, or one already revoked, is 404: the path names the user). Re-verified.
 */
export const revokeUserApiKeyRoute = consoleRoute({
  method: 'POST',
  path: '/users/:userId/api-keys/:apiKeyId/revoke',
  permission: 'operator_reverified',
  input: { params: { userId: userIdParam, apiKeyId: apiKeyIdParam } },
  async handler({ operator, params: { userId, apiKeyId } }, { backend }) {
    const operatorId = operator.userId;
    const keys = await apiKeysOf(backend, operatorId, userId);
    if (!keys.some((k) => k.id === apiKeyId && k.subject === userId)) {
      throw new ApiError('resource_not_found');
    }
    const revoked = await backend.call<BackendApiKey>('POST', `/api_keys/${apiKeyId}/revoke`, {
      operatorId,
      unversioned: true,
      body: { revocation_reason: OPERATOR_REVOCATION_REASON },
    });
    return { id: revoked.id, revoked: revoked.revoked };
  },
});

export const userCredentialConsoleRoutes = [userCredentialsRoute, removePasskeyRoute, revokeUserApiKeyRoute];
