import { errors } from '../../errors.ts';
import type { ExternalIdentity } from '../../social/oauth-client.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { emailAddressTaken } from '../../store/users.ts';
import { withSealedTokens } from '../../social/provider-tokens.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { completeIfReady } from '../sign-ups/complete-sign-up.ts';
import { externalAccountOwner } from './external-account-owner.ts';
import { externalVerification } from './social-sign-in.ts';

/**
 * What a sign-up takes from the provider's account: the account itself (linked when the user is
 * created), the names, and the email address — verified when the provider asserts it, otherwise to be
 * verified by a code like any typed address. An address some account already holds is left out, so the
 * person is asked for another one rather than being linked to that account.
 */
export async function socialSignUpChanges(
  ctx: FapiContext,
  identity: ExternalIdentity,
  existing: SignUpRow | null,
): Promise<SignUpChanges> {
  const changes: SignUpChanges = {
    external_identity: withSealedTokens(ctx.deps, identity, ctx.now),
    external_account_verification: externalVerification('verified', identity.strategy),
  };
  if (identity.email && !(await emailAddressTaken(ctx.tx, identity.email))) {
    changes.email_address = identity.email;
    changes.email_verification = identity.emailVerified
      ? { status: 'verified', strategy: `from_${identity.strategy}`, attempts: null, expire_at: null }
      : null;
  }
  if (!existing?.first_name && identity.firstName) changes.first_name = identity.firstName.slice(0, 256);
  if (!existing?.last_name && identity.lastName) changes.last_name = identity.lastName.slice(0, 256);
  return changes;
}

/**
 * The provider vouched for `identity` on a sign-up. An account that already exists (linked, or holding
 * the address verified) makes the verification `transferable` with `external_account_exists`, and
 * clerk-js signs in instead (`transfer=true`). Otherwise the sign-up takes the account's details and
 * completes when nothing else is missing.
 */
export async function socialSignUpVerified(
  ctx: FapiContext,
  signUp: SignUpRow,
  identity: ExternalIdentity,
  signUpAllowed: boolean,
): Promise<{ signUp: SignUpRow; complete: boolean }> {
  const strategy = identity.strategy;
  if (await externalAccountOwner(ctx, identity, { link: false })) {
    const transferable = await updateSignUp(
      ctx.tx,
      signUp.id,
      {
        external_identity: withSealedTokens(ctx.deps, identity, ctx.now),
        external_account_verification: externalVerification(
          'transferable',
          strategy,
          errors.externalAccountExists(),
        ),
      },
      ctx.now,
    );
    return { signUp: transferable, complete: false };
  }
  if (!signUpAllowed) {
    const refused = await updateSignUp(
      ctx.tx,
      signUp.id,
      {
        external_account_verification: externalVerification('failed', strategy, errors.notAllowedToSignUp()),
      },
      ctx.now,
    );
    return { signUp: refused, complete: false };
  }
  const updated = await updateSignUp(
    ctx.tx,
    signUp.id,
    await socialSignUpChanges(ctx, identity, signUp),
    ctx.now,
  );
  const result = await completeIfReady(ctx, updated);
  return { signUp: updated, complete: isComplete(result) };
}

export const isComplete = (result: FapiResult) =>
  'response' in result && (result.response as { status?: unknown } | null)?.status === 'complete';
