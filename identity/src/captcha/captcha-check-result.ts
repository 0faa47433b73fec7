/**
 * A captcha token as checked before the request's transaction (Turnstile's siteverify is a network call):
 * what the handler then enforces, spending a proof-of-work challenge in its transaction.
 */
export type CaptchaCheck =
  | { outcome: 'ok'; spend: { key: string; expireAt: Date } }
  | { outcome: 'missing' | 'invalid' | 'browser_error' | 'provider_unavailable' };
