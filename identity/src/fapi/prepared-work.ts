import type { SignUpInput } from './sign-ups/validate.ts';
import type { ClerkErrorJSON } from '../errors.ts';
import type { ExternalIdentity } from '../social/oauth-client.ts';
import type { OneTapAnswer } from '../social/google-one-tap.ts';
import type { CaptchaCheck } from '../captcha/captcha-check-result.ts';

/**
 * Slow work done outside the transaction (see run() in plugin.ts: argon2, a provider's answer): by the
 * route's `beforeTransaction`, from plain reads, or asked for by the handler (`WorkOutsideTransaction`). The handler uses it only when
 * it is bound to what the handler reads again inside the transaction, and otherwise asks for it again.
 */
export interface Prepared {
  /** `password` checked against the stored hash read then; null: no such account (the dummy hash was spent). */
  passwordCheck?: { passwordHash: string | null; password: string; ok: boolean };
  /** A new password that passed the policy, and its hash. */
  newPassword?: { password: string; hash: string };
  /** The sign-up form, validated (its strength check is too slow to run twice). */
  signUpInput?: SignUpInput;
  /** A provider's answer to an OAuth callback (network I/O), for the one state it was obtained with. */
  oauthCallback?: { stateId: string; answer: ProviderAnswer };
  /** A Google One Tap credential checked against the provider's keys (network I/O), for that token only. */
  googleOneTap?: { token: string; answer: OneTapAnswer };
  /** The captcha token sent, checked with its provider (network I/O for Turnstile); fapi/captcha/captcha-check.ts. */
  captcha?: CaptchaCheck;
  /**
   * A billing call that reaches the payment gateway (confirm a checkout, add or set up a card), done with
   * no transaction held: `key` names the call (route, payer, resource) so a rerun answers only that one.
   */
  billing?: { key: string; result: unknown };
}

/** What a provider answered: who signed in, or the refusal to show. */
export type ProviderAnswer = { identity: ExternalIdentity } | { refusal: ClerkErrorJSON };
