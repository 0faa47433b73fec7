import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { FapiRoute } from '../context.ts';
import { assertRedirectParams, mayRedirectToPopup } from '../redirect-params.ts';
import { changesFromInput } from './apply-input.ts';
import { completeIfReady } from './complete-sign-up.ts';
import { insertSignUp } from '../../store/sign-ups.ts';
import { parseSignUpInput } from './validate.ts';
import { prepareSignUpInput } from './prepare-input.ts';
import { transferSignInToSignUp } from '../oauth/social-transfers.ts';
import { startSocialSignUp } from '../oauth/start-social-sign-in.ts';
import { signUpWithGoogleOneTap } from '../oauth/google-one-tap.ts';
import { field } from '../form.ts';
import { guardSignUp, prepareSignUpCaptcha } from '../captcha/sign-up-captcha.ts';
import { enterpriseSignUpChanges, startEnterpriseSignUp } from '../enterprise-sso/enterprise-sign-up.ts';
import { assertMaySignUp } from '../../sign-up-modes/sign-up-mode.ts';
import { connectionForEmail } from '../../enterprise-sso/connections.ts';
import { formInput } from '../form-input.ts';

/** POST /client/sign_ups — starts a sign-up (an empty body starts over). */
export const createSignUpRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sign_ups',
  auth: 'client',
  permission: null,
  input: {
    body: formInput({
      email_address: 'email',
      username: 'text',
      password: 'password',
      first_name: 'text',
      last_name: 'text',
      phone_number: 'phone',
      strategy: 'enum',
      ticket: 'token',
      token: 'token',
      unsafe_metadata: 'json',
      legal_accepted: 'bool',
      redirect_url: 'url',
      captcha_token: 'token',
      captcha_widget_type: 'enum',
      captcha_error: 'text',
    }),
  },
  rateLimits: (req) => [{ key: `sign_up:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  beforeTransaction: async (req, deps) => ({
    ...(await prepareSignUpInput(req, deps, null)),
    ...(await prepareSignUpCaptcha(req, deps)),
  }),
  async handler(ctx) {
    await assertRedirectParams(ctx.tx, ctx.body, ctx.deps, {
      popup: mayRedirectToPopup(field(ctx.body, 'strategy')),
    });
    const input = ctx.prepared.signUpInput ?? parseSignUpInput(ctx.body, ctx.deps.config.passwordPolicy);
    // Restricted and waitlist modes: only an invitation (or an enterprise connection) opens sign-up, on
    // every way in (password, code, social, One Tap, web3). Refused before anything is written, the
    // browser's client included. A transfer from sign-in is decided by who its sign-in met
    // (transferSignInToSignUp: a social provider's newcomer, or an enterprise IdP's).
    const settings = ctx.deps.settings.settings;
    if (!input.transfer) {
      assertMaySignUp(settings, {
        ticket: input.ticket !== undefined,
        enterprise:
          input.enterpriseSso === true ||
          connectionForEmail(settings.enterpriseConnections, input.email) !== null,
      });
    }
    const client = await ctx.ensureClient();
    const captcha = await guardSignUp(ctx);
    await assertMayOpenSession(ctx, client.id, null);
    const changes = { ...(await changesFromInput(ctx, input, null)), ...captcha };
    if (input.transfer) return transferSignInToSignUp(ctx, client, changes);
    if (input.socialStrategy) return startSocialSignUp(ctx, client.id, input.socialStrategy, changes);
    if (input.googleOneTap) return signUpWithGoogleOneTap(ctx, client, input.googleOneTap.token, changes);
    const signUp = await insertSignUp(
      ctx.tx,
      client.id,
      enterpriseSignUpChanges(ctx, changes, null),
      ctx.now,
    );
    await ctx.updateClient({ sign_up_id: signUp.id });
    if (input.enterpriseSso) return startEnterpriseSignUp(ctx, signUp);
    return completeIfReady(ctx, signUp);
  },
};
