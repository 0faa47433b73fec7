import { signInJSON } from '../../serializers/sign-in.ts';
import type { SignInRow } from '../../store/rows.ts';
import { loadUsers, type Owner } from '../../users/load-users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { web3FactorSource } from '../../web3/web3-first-factors.ts';
import { passkeyFactorOffered } from '../../passkeys/passkey-factor.ts';

/**
 * The sign-in as the answer; made after the handler's last write, so the client's JSON reuses its user.
 * `account`: its user as this transaction read it, when nothing since has changed what it embeds.
 */
export async function signInResponse(
  ctx: FapiContext,
  signIn: SignInRow,
  account?: Owner,
): Promise<FapiResult> {
  const owners =
    account && account.user.id === signIn.user_id
      ? new Map([[account.user.id, account]])
      : signIn.user_id
        ? await loadUsers(ctx.tx, [signIn.user_id])
        : undefined;
  const owner = signIn.user_id ? owners?.get(signIn.user_id) : undefined;
  return {
    owners,
    response: signInJSON(
      signIn,
      owner?.user ?? null,
      owner?.emails ?? [],
      ctx.deps,
      owner?.secondFactors ?? null,
      owner?.phones ?? [],
      web3FactorSource(ctx.deps.settings.settings, owner),
      passkeyFactorOffered(ctx.deps.settings.settings, owner),
    ),
  };
}

/** Whether a handler's answer is a sign-in that completed (its session is open). */
export function isCompleteSignIn(result: FapiResult): boolean {
  return 'response' in result && (result.response as { status?: unknown } | null)?.status === 'complete';
}
