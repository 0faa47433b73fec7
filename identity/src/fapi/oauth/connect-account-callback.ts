import { ClerkError, type ClerkErrorJSON } from '../../errors.ts';
import { providerTokensOf } from '../../social/oauth-client.ts';
import { sealTokens } from '../../social/provider-tokens.ts';
import {
  completeConnection,
  deleteExternalAccount,
  failConnection,
  findOwnExternalAccount,
} from '../../store/connected-accounts.ts';
import { findExternalAccount } from '../../store/external-accounts.ts';
import type { OAuthStateRow } from '../../store/oauth-states.ts';
import { signedInSessionsOfClient } from '../../store/sessions.ts';
import { touchUser } from '../../store/user-profile.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import type { ProviderAnswer } from '../prepared-work.ts';
import { decidedAgainIfTaken } from './provider-account-race.ts';

/** The provider's account is already connected to another user: it stays theirs. */
export const externalAccountClaimed = () =>
  new ClerkError(
    422,
    'external_account_exists',
    'External account exists',
    'This account is already connected to another user. Remove it there first, or connect another account.',
  );

/** A reauthorization came back for another person than the one the account was connected for. */
export const externalAccountMismatch = () =>
  new ClerkError(
    422,
    'external_account_verification_failed',
    'Verification failed',
    'The provider answered for another account than the one connected. Sign in there with that account and try again.',
  );

/**
 * The callback of a connection started from <UserProfile/> (the state's `connect_account` kind; the
 * state was spent and found this browser's by oauth-callback.ts). The session that asked must still be
 * signed in on this browser and the account still its user's; then the provider's account is connected
 * (with its tokens, sealed), or the refusal is kept on the account for <UserProfile/> to show. A
 * provider's account connected to another user is refused (`external_account_exists`); one this user
 * has connected already is brought up to date and the pending one dropped. The browser goes back to
 * `redirect_url` (the profile page it came from) whatever happened.
 */
export async function connectAccountCallback(
  ctx: FapiContext,
  row: OAuthStateRow,
  answer: ProviderAnswer,
): Promise<FapiResult> {
  const back: FapiResult = { redirect: row.redirect_url ?? `${ctx.deps.config.publicUrl}/` };
  const sessions = ctx.client ? await signedInSessionsOfClient(ctx.tx, ctx.client.id, ctx.now) : [];
  const session = sessions.find((s) => s.id === row.session_id);
  if (!session) return { redirect: `${ctx.deps.config.publicUrl}/sign-in` };
  const account = await findOwnExternalAccount(ctx.tx, session.user_id, row.attempt_id);
  if (!account || account.provider !== row.strategy) return back;

  const fail = async (error: ClerkErrorJSON) => {
    await failConnection(ctx.tx, account.id, error, ctx.now);
    return back;
  };
  if ('refusal' in answer) return fail(answer.refusal);
  const identity = answer.identity;
  if (account.provider_user_id !== null && account.provider_user_id !== identity.providerUserId) {
    return fail(externalAccountMismatch().toJSON());
  }
  const owned = await findExternalAccount(ctx.tx, identity.strategy, identity.providerUserId);
  if (owned && owned.user_id !== session.user_id) return fail(externalAccountClaimed().toJSON());
  // Already connected to this user (connected twice, or signed in with it before): that one is kept.
  const target = owned ?? account;
  if (target.id !== account.id) await deleteExternalAccount(ctx.tx, account.id);

  const tokens = providerTokensOf(identity);
  if (!tokens) throw new Error('the provider answered without tokens');
  // The scopes the provider says it granted; if it does not say, the ones asked for.
  const approvedScopes = tokens.scope ?? row.scopes ?? identity.approvedScopes;
  // Another request may connect (or sign up with) the same provider account at this moment: the unique
  // index decides, and this one is decided again on the winner's account (provider-account-race.ts).
  await decidedAgainIfTaken(
    completeConnection(
      ctx.tx,
      target.id,
      identity,
      approvedScopes,
      sealTokens(ctx.deps, target.id, tokens, ctx.now),
      ctx.now,
    ),
  );
  await touchUser(ctx.tx, session.user_id, ctx.now);
  return back;
}
