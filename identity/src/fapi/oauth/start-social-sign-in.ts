import { createSignIn, updateSignIn } from '../../store/sign-ins.ts';
import { insertSignUp, updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { errors } from '../../errors.ts';
import { signUpJSON } from '../../serializers/sign-up.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { socialProviderFor, startExternalVerification } from './start-external-verification.ts';

/** POST /client/sign_ins `strategy=oauth_*`: a sign-in waiting for the provider; clerk-js goes there. */
export async function startSocialSignIn(
  ctx: FapiContext,
  clientId: string,
  strategy: string,
): Promise<FapiResult> {
  const provider = socialProviderFor(ctx, strategy);
  const signIn = await createSignIn(ctx.tx, {
    clientId,
    status: 'needs_identifier',
    identifier: null,
    userId: null,
    now: ctx.now,
  });
  const verification = await startExternalVerification(
    ctx,
    { kind: 'sign_in', id: signIn.id, clientId },
    provider,
  );
  await ctx.updateClient({ sign_in_id: signIn.id });
  return signInResponse(
    ctx,
    await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now),
  );
}

/**
 * POST /client/sign_ups `strategy=oauth_*`: a sign-up waiting for the provider (with what the form gave
 * besides, e.g. legal acceptance, unsafe metadata); clerk-js goes there.
 */
export async function startSocialSignUp(
  ctx: FapiContext,
  clientId: string,
  strategy: string,
  inputChanges: SignUpChanges,
): Promise<FapiResult> {
  const provider = socialProviderFor(ctx, strategy);
  if (!provider.signUpAllowed) throw errors.notAllowedToSignUp();
  const signUp = await insertSignUp(ctx.tx, clientId, inputChanges, ctx.now);
  const verification = await startExternalVerification(
    ctx,
    { kind: 'sign_up', id: signUp.id, clientId },
    provider,
  );
  await ctx.updateClient({ sign_up_id: signUp.id });
  return {
    response: signUpJSON(
      await updateSignUp(ctx.tx, signUp.id, { external_account_verification: verification }, ctx.now),
    ),
  };
}
