import type { Capability } from '../capability.ts';

/** Bot sign-up protection: the proof of work and Turnstile. */
export const captchaCapability: Capability = {
  name: 'captcha',
  retention: [
    // Captcha challenges spent: an expired challenge is refused by its own expiry; passes once over.
    { table: 'captcha_spent_challenges', expired: `expire_at < $1::timestamptz` },
    { table: 'captcha_passes', expired: `pass_until < $1::timestamptz` },
  ],
};
