import { errors as oidcErrors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { hashCode } from '../crypto/secrets.ts';
import { findOAuthApplicationByClientId, type OAuthApplicationRow } from '../store/oauth-applications.ts';
import {
  consumeOAuthProviderRecord,
  deleteOAuthProviderGrant,
  deleteOAuthProviderRecord,
  findOAuthProviderRecord,
  upsertOAuthProviderRecord,
} from '../store/oauth-provider-records.ts';

/** The HMAC a record is found by: the table holds no usable code, token or session id. */
export function recordIdHash(pepper: string, model: string, id: string): string {
  return hashCode(pepper, `oauth_provider:${model}`, id);
}

/**
 * An application as oidc-provider's client metadata. `client_secret` holds the secret's hash, which
 * `compareClientSecret` (oidc-provider-instance.ts) compares a presented secret's hash with; the symmetric
 * algorithms that would use it as a key are switched off there. Refresh tokens for an application whose
 * scopes include `offline_access`.
 */
export function clientMetadataOf(app: OAuthApplicationRow): AdapterPayload {
  const refresh = app.scopes.split(' ').includes('offline_access');
  return {
    client_id: app.client_id,
    client_name: app.name,
    redirect_uris: app.redirect_uris,
    response_types: ['code'],
    grant_types: refresh ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    scope: app.scopes,
    ...(app.public
      ? { token_endpoint_auth_method: 'none' }
      : { token_endpoint_auth_method: 'client_secret_basic', client_secret: app.secret_hash! }),
  };
}

/**
 * oidc-provider's storage on `oauth_provider_records` (migration 030), one adapter per model. The record's
 * id is kept only as its HMAC, and taken out of the stored payload (`jti`); clients are the rows of
 * `oauth_applications`, read at every use, so a deleted application or a rotated secret counts at once.
 */
const CLIENT_ID_SHAPE = /^[\x21-\x7e]{1,256}$/;

/** Whether any string in `value` (keys included) holds U+0000. */
function holdsNul(value: unknown): boolean {
  let found = false;
  JSON.stringify(value, (key: string, v: unknown) => {
    if (key.includes('\0') || (typeof v === 'string' && v.includes('\0'))) found = true;
    return v;
  });
  return found;
}

export function oidcAdapterFactory(db: Database, pepper: string) {
  return (model: string): Adapter => {
    const key = (id: string) => recordIdHash(pepper, model, id);
    return {
      async upsert(id, payload, expiresIn) {
        const { jti: _jti, ...stored } = payload;
        // PostgreSQL's jsonb cannot hold U+0000, which only a client's own parameters (state, nonce…) can
        // bring: refused as RFC 6749's invalid_request, answered by oidc-provider, rather than a 500.
        if (holdsNul(stored)) {
          throw new oidcErrors.InvalidRequest('request parameters must not contain NUL characters');
        }
        await upsertOAuthProviderRecord(db, {
          model,
          idHash: key(id),
          grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
          accountId: typeof payload.accountId === 'string' ? payload.accountId : null,
          clientId: typeof payload.clientId === 'string' ? payload.clientId : null,
          payload: stored,
          expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        });
      },
      async find(id) {
        if (model === 'Client') {
          // A client id is printable ASCII (ours are generated); anything else names no client and is
          // not sent to the database (PostgreSQL refuses a NUL in text with a 5xx; fuzz-fapi.test.ts).
          if (!CLIENT_ID_SHAPE.test(id)) return undefined;
          const app = await findOAuthApplicationByClientId(db, id);
          return app ? clientMetadataOf(app) : undefined;
        }
        const row = await findOAuthProviderRecord(db, model, key(id), new Date());
        if (!row) return undefined;
        return {
          ...row.payload,
          jti: id,
          ...(row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {}),
        } as AdapterPayload;
      },
      // Device flow and logout by session uid are not served (docs/oauth-provider.md).
      async findByUserCode() {
        return undefined;
      },
      async findByUid() {
        return undefined;
      },
      async consume(id) {
        await consumeOAuthProviderRecord(db, model, key(id), new Date());
      },
      async destroy(id) {
        await deleteOAuthProviderRecord(db, model, key(id));
      },
      async revokeByGrantId(grantId) {
        await deleteOAuthProviderGrant(db, grantId);
      },
    };
  };
}
