import type { ExternalIdentity } from '../../social/oauth-client.ts';
import {
  findExternalAccount,
  linkExternalAccount,
  refreshExternalAccount,
  userIdWithVerifiedEmail,
} from '../../store/external-accounts.ts';
import type { FapiContext } from '../context.ts';

/**
 * The user a provider's account belongs to: the one it is linked to, or else (Clerk's default linking)
 * the user holding the same email address verified, provided the provider itself asserts the address
 * verified — the external account is then linked to that user. An unverified address never links: anyone
 * can type an address at some providers, and linking on it would hand them the account. Null: nobody.
 */
export async function externalAccountOwner(
  ctx: FapiContext,
  identity: ExternalIdentity,
  opts: { link: boolean },
): Promise<string | null> {
  const linked = await findExternalAccount(ctx.tx, identity.strategy, identity.providerUserId);
  if (linked) {
    if (opts.link) await refreshExternalAccount(ctx.tx, linked.id, identity, ctx.now);
    return linked.user_id;
  }
  if (!identity.email || !identity.emailVerified) return null;
  const userId = await userIdWithVerifiedEmail(ctx.tx, identity.email);
  if (userId && opts.link) await linkExternalAccount(ctx.tx, userId, identity, ctx.now);
  return userId;
}
