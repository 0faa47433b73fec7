import { errors } from '../../errors.ts';
import { emailAddressesOf } from '../../store/users.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { emailOf, sendEmailCode } from './email-code.ts';
import { loadActionableSignIn } from './load-sign-in.ts';
import { prepareEnterpriseSso } from '../enterprise-sso/sign-in-with-enterprise-sso.ts';
import { isEnterpriseSsoStrategy } from '../enterprise-sso/start-enterprise-sso.ts';
import { signInResponse } from './respond.ts';
import { updateSignIn } from '../../store/sign-ins.ts';
import { isResetPasswordStrategy } from '../../password-reset/reset-factors.ts';
import { sendEmailLink } from '../email-links/send-email-link.ts';
import { prepareResetPasswordFactor } from './reset-password-factor.ts';
import { preparePhoneCodeFactor } from './phone-code-factor.ts';
import { isWeb3Strategy } from '../../web3/web3-strategies.ts';
import { prepareWeb3FirstFactor } from '../web3/web3-sign-in-factor.ts';
import { preparePasskeyFirstFactor } from '../passkeys/sign-in-with-passkey.ts';
import { formInput } from '../form-input.ts';

/** POST /client/sign_ins/:id/prepare_first_factor — sends the email code, link or reset code (also "resend"). */
export const prepareFirstFactorRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sign_ins/:id/prepare_first_factor',
  auth: 'client',
  permission: null,
  input: {
    body: formInput({ strategy: 'enum', email_address_id: 'id', phone_number_id: 'id', redirect_url: 'url' }),
  },
  rateLimits: (req) => [{ key: `code_send:sign_in:${req.params.id}`, limit: 5, windowSeconds: 60 }],
  async handler(ctx) {
    const strategy = field(ctx.body, 'strategy');
    if (isEnterpriseSsoStrategy(strategy)) return prepareEnterpriseSso(ctx);
    // A sign-in with no identifier yet may ask for a passkey too (the passkey names the account).
    if (strategy === 'passkey') return preparePasskeyFirstFactor(ctx);
    const { signIn, user, account } = await loadActionableSignIn(ctx);
    // An address at an enterprise connection's domain has no other first factor.
    if (signIn.enterprise_connection_id) throw errors.strategyForUserInvalid();
    if (isWeb3Strategy(strategy)) return prepareWeb3FirstFactor(ctx, signIn, account, strategy!);
    if (strategy === 'password') return signInResponse(ctx, signIn);
    if (isResetPasswordStrategy(strategy)) return prepareResetPasswordFactor(ctx, signIn, user, strategy);
    if (strategy === 'phone_code') return preparePhoneCodeFactor(ctx, signIn, user);
    if (strategy !== 'email_code' && strategy !== 'email_link') throw errors.strategyForUserInvalid();
    const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
    const email = emailOf(emails, field(ctx.body, 'email_address_id'), user.primary_email_address_id);
    if (strategy === 'email_link') {
      const link = await sendEmailLink(ctx, {
        purpose: 'sign_in',
        attemptId: signIn.id,
        email: email.email_address,
        redirectUrl: field(ctx.body, 'redirect_url'),
        recipient: user,
      });
      return signInResponse(
        ctx,
        await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: link }, ctx.now),
      );
    }
    const verification = await sendEmailCode(ctx, {
      subject: `sign_in:${signIn.id}:email_code`,
      email: email.email_address,
      purpose: 'sign_in',
      recipient: user,
    });
    return signInResponse(
      ctx,
      await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now),
    );
  },
};
