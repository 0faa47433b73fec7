import {
  assertCaptchaParams,
  captchaInForce,
  checkCaptchaToken,
  demandCaptchaPass,
  enforceCaptchaToken,
} from './captcha-check.ts';
import type { EffectiveCaptcha } from '../../captcha/captcha-settings.ts';
import type { IdentityDeps } from '../../deps.ts';
import type { RateLimitRule } from '../../store/rate-limits.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { waitsIfReached } from '../../store/rate-limits.ts';
import type { FapiContext, FapiRequestInfo } from '../context.ts';
import { field } from '../form.ts';
import type { Prepared } from '../prepared-work.ts';

const HOUR = 3600;

/** The captcha trusts `strategy`'s provider to vouch for the person (`captcha_oauth_bypass`). */
const trustedProvider = (captcha: EffectiveCaptcha, strategy: string | undefined) =>
  strategy !== undefined && captcha.oauthBypass.includes(strategy);

/**
 * The captcha a sign-up's creation needs: none when off, nor for a social provider that vouches for the
 * person (`captcha_oauth_bypass`, as clerk-js skips it for them). That second exemption is only deferred:
 * the sign-up is marked (`captcha_deferred`) and asks for the captcha if it goes on without that provider
 * (settleDeferredCaptcha).
 */
function signUpCaptcha(deps: IdentityDeps, req: FapiRequestInfo): EffectiveCaptcha | null {
  const captcha = captchaInForce(deps, req);
  return captcha && !trustedProvider(captcha, field(req.body, 'strategy')) ? captcha : null;
}

/** `POST /client/sign_ups`'s beforeTransaction part: the token checked with its provider. */
export async function prepareSignUpCaptcha(req: FapiRequestInfo, deps: IdentityDeps): Promise<Prepared> {
  assertCaptchaParams(req.body);
  const captcha = signUpCaptcha(deps, req);
  return captcha ? { captcha: await checkCaptchaToken(req, deps, captcha) } : {};
}

/** The sign-ups of the request's address and of its browser in the last hour, past which the modal is asked. */
function signUpLimitRules(ctx: FapiContext, captcha: EffectiveCaptcha): RateLimitRule[] {
  return [
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
}

/**
 * In the sign-up's transaction, once the browser has a client: the token (every sign-up, when the captcha
 * is on), then, past the sign-ups of its address or of this browser in an hour, a solved captcha modal.
 * Answers what the new sign-up records: `captcha_deferred` when a trusted provider's strategy let it in
 * without a token.
 */
export async function guardSignUp(ctx: FapiContext): Promise<Pick<SignUpChanges, 'captcha_deferred'>> {
  const inForce = captchaInForce(ctx.deps, ctx);
  if (!inForce) return {};
  if (trustedProvider(inForce, field(ctx.body, 'strategy'))) return { captcha_deferred: true };
  await enforceCaptchaToken(ctx, inForce, ctx.prepared.captcha);
  const rules = signUpLimitRules(ctx, inForce);
  const waits = await waitsIfReached(ctx.tx, rules, ctx.now);
  if ([...waits.values()].some((wait) => wait > 0)) await demandCaptchaPass(ctx);
  for (const rule of rules) ctx.countAtCommit(rule);
  return {};
}

/**
 * Before a sign-up's verification is prepared (a code or a link sent, a wallet's message) and before it
 * completes: one let in without a captcha on a trusted provider's word (`captcha_deferred`) that this
 * provider has not completed asks for the captcha now, as its creation would have, and counts in the
 * sign-up limits. Past its creation clerk-js sends no token, so the captcha is the modal (`401
 * requires_captcha`, answered by `POST /client/verify` and the request sent again). Once solved, the
 * sign-up is as any other. A sign-up the provider completed (its external account verified by that
 * provider) asks nothing: an address it did not assert is verified by a code without a captcha.
 */
export async function settleDeferredCaptcha(ctx: FapiContext, signUp: SignUpRow): Promise<SignUpRow> {
  if (!signUp.captcha_deferred) return signUp;
  const captcha = captchaInForce(ctx.deps, ctx);
  if (!captcha || vouchedByTrustedProvider(captcha, signUp)) return signUp;
  await demandCaptchaPass(ctx);
  for (const rule of signUpLimitRules(ctx, captcha)) ctx.countAtCommit(rule);
  return updateSignUp(ctx.tx, signUp.id, { captcha_deferred: false }, ctx.now);
}

/**
 * The provider the captcha trusts came back and vouched on this sign-up: its external account verified,
 * by that provider (a transfer naming another strategy than its sign-in's provider is not).
 */
function vouchedByTrustedProvider(captcha: EffectiveCaptcha, signUp: SignUpRow): boolean {
  return (
    signUp.external_account_verification?.status === 'verified' &&
    trustedProvider(captcha, signUp.external_identity?.strategy)
  );
}
