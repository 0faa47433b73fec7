import { signInJSON } from '../../serializers/sign-in.ts';
import type { SignInRow } from '../../store/rows.ts';
import { loadUsers } from '../../users/load-users.ts';
import type { FapiContext, FapiResult } from '../context.ts';

export async function signInResponse(ctx: FapiContext, signIn: SignInRow): Promise<FapiResult> {
  const owner = signIn.user_id ? (await loadUsers(ctx.tx, [signIn.user_id])).get(signIn.user_id) : undefined;
  return {
    response: signInJSON(
      signIn,
      owner?.user ?? null,
      owner?.emails ?? [],
      ctx.deps,
      owner?.secondFactors ?? null,
      owner?.phones ?? [],
    ),
  };
}
