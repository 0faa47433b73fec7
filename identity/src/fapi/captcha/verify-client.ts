import {
  assertCaptchaParams,
  captchaInForce,
  checkCaptchaToken,
  enforceCaptchaToken,
} from './captcha-check.ts';
import { errors } from '../../errors.ts';
import { recordCaptchaPass } from '../../store/captcha.ts';
import type { FapiRoute } from '../context.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/verify — the captcha modal's answer (`captcha_action=verify`, after `requires_captcha`) and
 * the heartbeat's (`captcha_action=heartbeat`). A token its provider accepts gives this browser one pass
 * through the next suspicious request (captcha-check.ts); `captcha_error` without a token (the browser could
 * not run the captcha) is `captcha_unavailable`, counted by clerk-js against its three tries.
 */
export const verifyClientCaptchaRoute: FapiRoute = {
  method: 'POST',
  path: '/client/verify',
  auth: 'client',
  permission: null,
  input: {
    body: formInput({
      captcha_token: 'token',
      captcha_widget_type: 'enum',
      captcha_error: 'text',
      captcha_action: 'enum',
    }),
  },
  rateLimits: (req) => [{ key: `captcha:verify:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  async beforeTransaction(req, deps) {
    assertCaptchaParams(req.body);
    const captcha = captchaInForce(deps, req);
    return captcha ? { captcha: await checkCaptchaToken(req, deps, captcha) } : {};
  },
  async handler(ctx) {
    const captcha = captchaInForce(ctx.deps, ctx);
    if (!captcha) throw errors.captchaNotEnabled();
    await enforceCaptchaToken(ctx, captcha, ctx.prepared.captcha);
    const client = await ctx.ensureClient();
    await recordCaptchaPass(
      ctx.tx,
      client.id,
      new Date(ctx.now.getTime() + captcha.challenge.passSeconds * 1000),
    );
    return { clientAsResponse: true };
  },
};
