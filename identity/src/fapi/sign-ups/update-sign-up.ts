import { errors } from '../../errors.ts';
import type { FapiRoute } from '../context.ts';
import { assertRedirectParams } from '../redirect-params.ts';
import { changesFromInput } from './apply-input.ts';
import { completeIfReady } from './complete-sign-up.ts';
import { loadSignUp } from './load-sign-up.ts';
import { updateSignUp } from '../../store/sign-ups.ts';
import { parseSignUpInput } from './validate.ts';
import { prepareSignUpInput } from './prepare-input.ts';
import { enterpriseSignUpChanges, startEnterpriseSignUp } from '../enterprise-sso/enterprise-sign-up.ts';
import { formInput } from '../form-input.ts';

/** PATCH /client/sign_ups/:id — supplies missing fields (`/sign-up#/continue`). */
export const updateSignUpRoute: FapiRoute = {
  method: 'PATCH',
  path: '/client/sign_ups/:id',
  auth: 'client',
  permission: null,
  input: {
    body: formInput({
      email_address: 'email',
      username: 'text',
      password: 'password',
      first_name: 'text',
      last_name: 'text',
      unsafe_metadata: 'json',
      legal_accepted: 'bool',
      redirect_url: 'url',
    }),
  },
  beforeTransaction: (req, deps, clientToken) => prepareSignUpInput(req, deps, { clientToken }),
  async handler(ctx) {
    const input = ctx.prepared.signUpInput ?? parseSignUpInput(ctx.body, ctx.deps.config.passwordPolicy);
    await assertRedirectParams(ctx.tx, ctx.body, ctx.deps, { popup: input.enterpriseSso });
    // A provider is chosen when the sign-up starts (or by a transfer), not added to one under way.
    if (input.socialStrategy) throw errors.paramValueInvalid('strategy', 'strategy cannot be changed here.');
    if (input.transfer) throw errors.paramValueInvalid('transfer', 'transfer cannot be changed here.');
    const signUp = await loadSignUp(ctx, { actionable: true });
    const changes = enterpriseSignUpChanges(ctx, await changesFromInput(ctx, input, signUp), signUp);
    const updated = Object.keys(changes).length
      ? await updateSignUp(ctx.tx, signUp.id, changes, ctx.now)
      : signUp;
    if (input.enterpriseSso) return startEnterpriseSignUp(ctx, updated);
    return completeIfReady(ctx, updated);
  },
};
