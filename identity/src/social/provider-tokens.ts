import { sealingKey, seal, unseal } from '../crypto/sealing.ts';
import type { IdentityDeps } from '../deps.ts';
import { replaceTokens, type SealedTokens } from '../store/connected-accounts.ts';
import type { ExternalAccountRow } from '../store/external-accounts.ts';
import {
  providerTokensOf,
  refreshProviderTokens,
  type ExternalIdentity,
  type ProviderTokens,
} from './oauth-client.ts';
import { enabledSocialProvider } from './providers.ts';

/**
 * A connected account's provider tokens: sealed with a key derived from the instance secret key, each
 * bound to its row and kind (an access token copied into another row, or into the refresh column, does
 * not open). They leave the provider only through the Backend API's oauth_access_tokens, never in a
 * Frontend API answer or a log.
 */

/** The key a connected account's tokens are sealed with under the instance secret key `secretKey`. */
export const providerTokenSealingKey = (secretKey: string) => sealingKey(secretKey, 'external-account-token');

const tokenKey = (deps: Pick<IdentityDeps, 'keys'>) => providerTokenSealingKey(deps.keys.secretKey);

/** What a connected account's token is bound to: its row and its kind. */
export const providerTokenContext = (accountId: string, kind: 'access' | 'refresh') => `${accountId}:${kind}`;
const context = providerTokenContext;

/** Seals what the provider issued for the account `accountId`. */
export function sealTokens(
  deps: Pick<IdentityDeps, 'keys'>,
  accountId: string,
  tokens: ProviderTokens,
  now: Date,
): SealedTokens {
  const key = tokenKey(deps);
  return {
    access: seal(key, tokens.accessToken, context(accountId, 'access')),
    refresh: tokens.refreshToken ? seal(key, tokens.refreshToken, context(accountId, 'refresh')) : null,
    expiresAt:
      tokens.expiresInSeconds !== null ? new Date(now.getTime() + tokens.expiresInSeconds * 1000) : null,
  };
}

// Tokens kept with an identity on a sign-in or sign-up are bound to the provider's account they were
// issued for (the attempt changes on a transfer; the account they end on is not known yet).
const attemptContext = (identity: ExternalIdentity) =>
  `attempt:${identity.strategy}:${identity.providerUserId}`;

/** What an identity's sealed tokens hold: the tokens, their expiry as a time (ms), their scopes. */
interface KeptTokens {
  access: string;
  refresh: string | null;
  expiresAt: number | null;
  scope: string | null;
}

/**
 * `identity` to keep on a sign-in or sign-up: with the tokens this request's code exchange issued for it,
 * sealed, so that a transfer or a code completed in a later request still gives them to the external
 * account (the in-memory association of providerTokensOf lasts only this request).
 */
export function withSealedTokens(
  deps: Pick<IdentityDeps, 'keys'>,
  identity: ExternalIdentity,
  now: Date,
): ExternalIdentity {
  const tokens = providerTokensOf(identity);
  if (!tokens) return identity;
  const kept: KeptTokens = {
    access: tokens.accessToken,
    refresh: tokens.refreshToken,
    expiresAt: tokens.expiresInSeconds !== null ? now.getTime() + tokens.expiresInSeconds * 1000 : null,
    scope: tokens.scope,
  };
  return { ...identity, sealedTokens: seal(tokenKey(deps), JSON.stringify(kept), attemptContext(identity)) };
}

/**
 * The tokens the provider issued with `identity`: those of this request's code exchange, or those sealed
 * with it on the attempt it was read from (undefined when neither, or the secret key changed since).
 */
export function tokensIssuedWith(
  deps: Pick<IdentityDeps, 'keys'>,
  identity: ExternalIdentity,
  now: Date,
): ProviderTokens | undefined {
  const issued = providerTokensOf(identity);
  if (issued || !identity.sealedTokens) return issued;
  let kept: KeptTokens;
  try {
    kept = JSON.parse(unseal(tokenKey(deps), identity.sealedTokens, attemptContext(identity))) as KeptTokens;
  } catch {
    return undefined;
  }
  return {
    accessToken: kept.access,
    refreshToken: kept.refresh,
    expiresInSeconds:
      kept.expiresAt !== null ? Math.max(0, Math.floor((kept.expiresAt - now.getTime()) / 1000)) : null,
    scope: kept.scope,
  };
}

/** A token this close to its expiry is refreshed before it is handed out. */
const EXPIRY_MARGIN_MS = 30 * 1000;

export interface UsableAccessToken {
  token: string;
  expiresAt: Date | null;
}

/**
 * The account's access token, refreshed first (openid-client's refresh_token grant) when it has expired
 * and a refresh token is kept. Null when there is none, or it has expired and cannot be refreshed (no
 * refresh token, the provider is no longer enabled or refused): the caller has nothing usable to give.
 * Network I/O: call it with no transaction open.
 */
export async function usableAccessToken(
  deps: IdentityDeps,
  account: ExternalAccountRow,
): Promise<UsableAccessToken | null> {
  if (!account.access_token_sealed) return null;
  const now = deps.clock();
  const key = tokenKey(deps);
  const expired =
    account.token_expires_at !== null &&
    account.token_expires_at.getTime() - EXPIRY_MARGIN_MS <= now.getTime();
  if (!expired) {
    return {
      token: unseal(key, account.access_token_sealed, context(account.id, 'access')),
      expiresAt: account.token_expires_at,
    };
  }
  const provider = enabledSocialProvider(deps.settings.settings.social, account.provider);
  if (!account.refresh_token_sealed || !provider) return null;
  const refreshToken = unseal(key, account.refresh_token_sealed, context(account.id, 'refresh'));
  let fresh: ProviderTokens;
  try {
    fresh = await refreshProviderTokens(provider, refreshToken);
  } catch (err) {
    // openid-client's message names what failed (the provider's error code), never a token.
    console.warn(`identity: ${account.provider} token refresh refused: ${(err as Error).message}`);
    return null;
  }
  const sealed = sealTokens(deps, account.id, fresh, now);
  await replaceTokens(deps.db, account.id, account.access_token_sealed, sealed, now);
  return { token: fresh.accessToken, expiresAt: sealed.expiresAt };
}
