import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import type { FapiContext, FapiRequestInfo } from '../context.ts';
import { field, rawField } from '../form.ts';
import { consumeCaptchaPass, spendCaptchaChallenge } from '../../store/captcha.ts';
import { effectiveCaptcha, type EffectiveCaptcha } from '../../captcha/captcha-settings.ts';
import { MAX_TOKEN_LENGTH, proofOfWorkKeys, verifyProofOfWorkToken } from '../../captcha/proof-of-work.ts';
import { TURNSTILE_TOKEN_TTL_SECONDS, verifyTurnstileToken } from '../../captcha/turnstile.ts';
import { sha256 } from '../../crypto/secrets.ts';
import type { CaptchaCheck } from '../../captcha/captcha-check-result.ts';

const WIDGET_TYPES = new Set(['smart', 'invisible']);
const ACTIONS = new Set(['verify', 'heartbeat', 'signup']);
/** clerk-js's `captcha_error` is a Turnstile error code or a short message. */
const MAX_ERROR_LENGTH = 200;

/**
 * The captcha parameters of a form are well formed, whether the captcha is on or not (a page with a
 * stale environment may send them): `form_param_value_invalid` otherwise (`captcha_invalid` for an
 * oversized token).
 */
export function assertCaptchaParams(body: FapiRequestInfo['body']): void {
  const widgetType = field(body, 'captcha_widget_type');
  if (widgetType !== undefined && !WIDGET_TYPES.has(widgetType))
    throw errors.paramValueInvalid('captcha_widget_type', 'must be "smart" or "invisible".');
  const action = field(body, 'captcha_action');
  if (action !== undefined && !ACTIONS.has(action))
    throw errors.paramValueInvalid('captcha_action', 'must be "verify" or "heartbeat".');
  const token = rawField(body, 'captcha_token');
  // No token of ours or Cloudflare's is that long.
  if (token !== undefined && token.length > MAX_TOKEN_LENGTH) throw errors.captchaInvalid();
  const error = rawField(body, 'captcha_error');
  if (error !== undefined && error.length > MAX_ERROR_LENGTH)
    throw errors.paramValueInvalid('captcha_error', 'is too long.');
}

/** The captcha in force now for this request (null: off, or waived by a testing token). */
export function captchaInForce(
  deps: Pick<IdentityDeps, 'settings' | 'config'>,
  req: Pick<FapiRequestInfo, 'botProtectionWaived'>,
): EffectiveCaptcha | null {
  if (req.botProtectionWaived) return null;
  return effectiveCaptcha(deps.settings.settings.captcha, deps.config.mode);
}

/**
 * Checks the `captcha_token` (with `captcha_widget_type` and `captcha_error`) clerk-js sent. A token
 * counts only once its provider agreed; a request with none says why (`captcha_error`, or nothing).
 */
export async function checkCaptchaToken(
  req: Pick<FapiRequestInfo, 'body' | 'ip'>,
  deps: IdentityDeps,
  captcha: EffectiveCaptcha,
  fetchImpl: typeof fetch = fetch,
): Promise<CaptchaCheck> {
  const token = rawField(req.body, 'captcha_token');
  if (token === undefined) {
    return { outcome: field(req.body, 'captcha_error') ? 'browser_error' : 'missing' };
  }
  if (token.length > MAX_TOKEN_LENGTH) return { outcome: 'invalid' };
  if (captcha.provider === 'turnstile' && captcha.turnstile) {
    const widgetType = field(req.body, 'captcha_widget_type') === 'invisible' ? 'invisible' : 'smart';
    const verdict = await verifyTurnstileToken(
      captcha.turnstile,
      token,
      widgetType,
      req.ip,
      pageHostnames(deps.config),
      fetchImpl,
    );
    if (verdict === 'ok') {
      const expireAt = new Date(deps.clock().getTime() + TURNSTILE_TOKEN_TTL_SECONDS * 1000);
      return { outcome: 'ok', spend: { key: sha256(`turnstile:${token}`), expireAt } };
    }
    return { outcome: verdict === 'invalid' ? 'invalid' : 'provider_unavailable' };
  }
  const verdict = await verifyProofOfWorkToken(token, proofOfWorkKeys(deps.keys.codePepper), deps.clock());
  if (!verdict.ok) return { outcome: 'invalid' };
  return { outcome: 'ok', spend: { key: verdict.spendKey, expireAt: verdict.expireAt } };
}

/**
 * The request goes on only with a token its provider accepted, spent now, once on every instance (in
 * the transaction: a request that rolls back has not spent it): `captcha_missing_token`, `captcha_invalid` or `captcha_unavailable`
 * otherwise. `check` absent: the route's beforeTransaction did not run it (a replay of work asked for),
 * so it is checked here.
 */
export async function enforceCaptchaToken(
  ctx: FapiContext,
  captcha: EffectiveCaptcha,
  check: CaptchaCheck | undefined,
): Promise<void> {
  const checked = check ?? (await checkCaptchaToken(ctx, ctx.deps, captcha));
  switch (checked.outcome) {
    case 'missing':
      throw errors.captchaMissingToken();
    case 'browser_error':
      throw errors.captchaUnavailable(400);
    case 'provider_unavailable':
      throw errors.captchaUnavailable(503);
    case 'invalid':
      throw errors.captchaInvalid();
    case 'ok':
      if (!(await spendCaptchaChallenge(ctx.tx, checked.spend.key, checked.spend.expireAt, ctx.now)))
        throw errors.captchaInvalid();
  }
}

/**
 * A suspicious request: it goes on only with a captcha modal solved by this browser (`POST /client/verify`),
 * each solve letting one such request through; otherwise `401 requires_captcha`, which clerk-js answers by
 * showing the modal and sending the request again.
 */
export async function demandCaptchaPass(ctx: FapiContext): Promise<void> {
  if (ctx.client && (await consumeCaptchaPass(ctx.tx, ctx.client.id, ctx.now))) return;
  throw errors.requiresCaptcha();
}

/** The hostnames our pages are served from: the product's public URL and the other allowed origins. */
function pageHostnames(config: Pick<IdentityDeps['config'], 'publicUrl' | 'allowedOrigins'>): Set<string> {
  return new Set([config.publicUrl, ...config.allowedOrigins].map((origin) => new URL(origin).hostname));
}
