import { errors } from '../../errors.ts';
import { signUpJSON } from '../../serializers/sign-up.ts';
import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { sendEmailCode } from '../sign-ins/email-code.ts';
import { sendEmailLink } from '../email-links/send-email-link.ts';
import { loadSignUp } from './load-sign-up.ts';
import { updateSignUp } from '../../store/sign-ups.ts';
import { preparePhoneSignUpVerification } from './phone-verification.ts';
import { isWeb3Strategy } from '../../web3/web3-strategies.ts';
import { prepareWeb3SignUpVerification } from '../web3/web3-sign-up.ts';
import { settleDeferredCaptcha } from '../captcha/sign-up-captcha.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/sign_ups/:id/prepare_verification — emails a code, or a link when the instance verifies
 * sign-ups by link; called again for "resend".
 */
export const prepareVerificationRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sign_ups/:id/prepare_verification',
  auth: 'client',
  permission: null,
  input: { body: formInput({ strategy: 'enum', redirect_url: 'url' }) },
  rateLimits: (req) => [{ key: `code_send:sign_up:${req.params.id}`, limit: 5, windowSeconds: 60 }],
  async handler(ctx) {
    const signUp = await settleDeferredCaptcha(ctx, await loadSignUp(ctx, { actionable: true }));
    const strategy = field(ctx.body, 'strategy');
    if (strategy === 'phone_code') return preparePhoneSignUpVerification(ctx, signUp);
    if (isWeb3Strategy(strategy)) return prepareWeb3SignUpVerification(ctx, signUp, strategy!);
    const linksEnabled = ctx.deps.config.emailLinks.signUpVerification === 'link';
    if (strategy !== 'email_code' && !(strategy === 'email_link' && linksEnabled)) {
      throw errors.paramValueInvalid(
        'strategy',
        `The verification strategy "${strategy ?? ''}" is not enabled for this application.`,
      );
    }
    if (!signUp.email_address) throw errors.paramMissing('email_address');
    // The address's enterprise connection verifies it (enterprise-sign-up.ts), not a code or a link.
    if (signUp.enterprise_connection_id) {
      throw errors.paramValueInvalid(
        'strategy',
        'This email address is verified by its enterprise SSO connection.',
      );
    }
    if (signUp.email_verification?.status === 'verified') return { response: signUpJSON(signUp) };
    if (strategy === 'email_link') {
      const link = await sendEmailLink(ctx, {
        purpose: 'sign_up',
        attemptId: signUp.id,
        email: signUp.email_address,
        redirectUrl: field(ctx.body, 'redirect_url'),
        recipient: signUp,
      });
      return {
        response: signUpJSON(await updateSignUp(ctx.tx, signUp.id, { email_verification: link }, ctx.now)),
      };
    }
    const verification = await sendEmailCode(ctx, {
      subject: `sign_up:${signUp.id}:${signUp.email_address}`,
      email: signUp.email_address,
      purpose: 'sign_up',
      recipient: signUp,
    });
    return {
      response: signUpJSON(
        await updateSignUp(ctx.tx, signUp.id, { email_verification: verification }, ctx.now),
      ),
    };
  },
};
