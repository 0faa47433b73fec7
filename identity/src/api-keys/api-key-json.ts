import type { ApiKeyRow } from '../store/api-keys.ts';
import { isApiKeyExpired } from './api-keys.ts';

const ms = (d: Date | null) => (d ? d.getTime() : null);

/**
 * ApiKeyJSON as clerk-js 5.90.0 (`APIKey.fromJSON`) and @clerk/backend 2.10.1 (`APIKey.fromJSON`) read it:
 * times in epoch milliseconds, `expiration` null for a key that never expires. `secret` only where the
 * Backend API's create answers it.
 */
export function apiKeyJSON(key: ApiKeyRow, now: Date, secret?: string) {
  return {
    object: 'api_key' as const,
    id: key.id,
    type: key.type,
    name: key.name,
    subject: (key.user_id ?? key.organization_id)!,
    scopes: key.scopes ?? [],
    claims: key.claims ?? null,
    revoked: key.revoked_at !== null,
    revocation_reason: key.revocation_reason,
    expired: isApiKeyExpired(key, now),
    expiration: ms(key.expires_at),
    created_by: key.created_by,
    description: key.description,
    last_used_at: ms(key.last_used_at),
    created_at: key.created_at.getTime(),
    updated_at: key.updated_at.getTime(),
    ...(secret === undefined ? {} : { secret }),
  };
}
