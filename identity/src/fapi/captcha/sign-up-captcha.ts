import {
  assertCaptchaParams,
  captchaInForce,
  checkCaptchaToken,
  demandCaptchaPass,
  enforceCaptchaToken,
} from '../../captcha/captcha-check.ts';
import type { EffectiveCaptcha } from '../../captcha/captcha-settings.ts';
import type { IdentityDeps } from '../../deps.ts';
import type { RateLimitRule } from '../../store/rate-limits.ts';
import { waitsIfReached } from '../../store/rate-limits.ts';
import type { FapiContext, FapiRequestInfo } from '../context.ts';
import { field } from '../form.ts';
import type { Prepared } from '../prepared-passwords.ts';

const HOUR = 3600;

/**
 * The captcha a sign-up needs: none when off, nor for a social provider that vouches for the person
 * (`captcha_oauth_bypass`, as clerk-js skips it for them).
 */
function signUpCaptcha(deps: IdentityDeps, body: FapiRequestInfo['body']): EffectiveCaptcha | null {
  const captcha = captchaInForce(deps);
  if (!captcha) return null;
  const strategy = field(body, 'strategy');
  return strategy && captcha.oauthBypass.includes(strategy) ? null : captcha;
}

/** `POST /client/sign_ups`'s beforeTransaction part: the token checked with its provider. */
export async function prepareSignUpCaptcha(req: FapiRequestInfo, deps: IdentityDeps): Promise<Prepared> {
  assertCaptchaParams(req.body);
  const captcha = signUpCaptcha(deps, req.body);
  return captcha ? { captcha: await checkCaptchaToken(req, deps, captcha) } : {};
}

/**
 * In the sign-up's transaction, once the browser has a client: the token (every sign-up, when the captcha
 * is on), then, past the sign-ups of its address or of this browser in an hour, a solved captcha modal.
 */
export async function guardSignUp(ctx: FapiContext): Promise<void> {
  const captcha = signUpCaptcha(ctx.deps, ctx.body);
  if (!captcha) return;
  await enforceCaptchaToken(ctx, captcha, ctx.prepared.captcha);
  const rules: RateLimitRule[] = [
    {
      key: `captcha:sign_up:ip:${ctx.ip}`,
      limit: captcha.challenge.signUpsPerIpPerHour,
      windowSeconds: HOUR,
    },
    ...(ctx.client
      ? [
          {
            key: `captcha:sign_up:client:${ctx.client.id}`,
            limit: captcha.challenge.signUpsPerClientPerHour,
            windowSeconds: HOUR,
          },
        ]
      : []),
  ];
  const waits = await waitsIfReached(ctx.tx, rules, ctx.now);
  if ([...waits.values()].some((wait) => wait > 0)) await demandCaptchaPass(ctx);
  for (const rule of rules) ctx.countAtCommit(rule);
}
