import type { ExternalIdentity } from '../../social/oauth-client.ts';
import { sealTokens, tokensIssuedWith } from '../../social/provider-tokens.ts';
import { keepIssuedTokens } from '../../store/connected-accounts.ts';
import {
  findExternalAccount,
  linkExternalAccount,
  refreshExternalAccount,
  userIdWithVerifiedEmail,
} from '../../store/external-accounts.ts';
import type { FapiContext } from '../context.ts';
import { decidedAgainIfTaken } from './provider-account-race.ts';

/**
 * The user a provider's account belongs to: the one it is linked to, or else (Clerk's default linking)
 * the user holding the same email address verified, provided the provider itself asserts the address
 * verified — the external account is then linked to that user. An unverified address never links: anyone
 * can type an address at some providers, and linking on it would hand them the account. Null: nobody.
 * Linking (a sign-in) also keeps the tokens the provider just issued, as a connection does.
 */
export async function externalAccountOwner(
  ctx: FapiContext,
  identity: ExternalIdentity,
  opts: { link: boolean },
): Promise<string | null> {
  const linked = await findExternalAccount(ctx.tx, identity.strategy, identity.providerUserId);
  if (linked) {
    if (opts.link) {
      await refreshExternalAccount(ctx.tx, linked.id, identity, ctx.now);
      await keepTokensIssuedWith(ctx, linked.id, identity);
    }
    return linked.user_id;
  }
  if (!identity.email || !identity.emailVerified) return null;
  const userId = await userIdWithVerifiedEmail(ctx.tx, identity.email);
  if (userId && opts.link) {
    const account = await decidedAgainIfTaken(linkExternalAccount(ctx.tx, userId, identity, ctx.now));
    await keepTokensIssuedWith(ctx, account.id, identity);
  }
  return userId;
}

/**
 * Keeps on the external account `accountId` (sealed for it) the tokens the provider issued with
 * `identity` (in this request's code exchange, or sealed with it on the sign-in or sign-up it waited on),
 * so `users.getUserOauthAccessToken` answers the latest. Without any, the kept ones stay.
 */
export async function keepTokensIssuedWith(
  ctx: FapiContext,
  accountId: string,
  identity: ExternalIdentity,
): Promise<void> {
  const tokens = tokensIssuedWith(ctx.deps, identity, ctx.now);
  if (!tokens) return;
  await keepIssuedTokens(ctx.tx, accountId, sealTokens(ctx.deps, accountId, tokens, ctx.now), ctx.now);
}
