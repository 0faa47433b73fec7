import { z } from '@app/contract';
import { secretReference as secretInEnv } from '../instance/settings/secret-reference.ts';
import type { IdentityMode } from '../config.ts';

const siteKey = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.-]+$/, 'must be a Turnstile site key (letters, digits, "_", "-", ".").');

/** Cloudflare Turnstile: the widget's site keys, the secret they are verified with, where to verify. */
const turnstileSettings = z
  .object({
    /** The managed ("smart") widget's site key, shown on <SignUp/> and in the captcha modal. */
    siteKey,
    /** Its secret key, named by the environment variable holding it. */
    secretKey: secretInEnv,
    /** An invisible widget's site key (heartbeat, and the fallback without `#clerk-captcha`). */
    invisibleSiteKey: siteKey.optional(),
    invisibleSecretKey: secretInEnv.optional(),
    /** Cloudflare's siteverify endpoint; another URL only for a local stand-in in tests. */
    siteverifyUrl: z.string().url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  })
  .strict()
  .refine((t) => !t.invisibleSiteKey === !t.invisibleSecretKey, {
    message: 'invisibleSiteKey and invisibleSecretKey go together.',
  });

/** The self-hosted proof of work (ALTCHA): how much work a token costs the browser. */
const proofOfWorkSettings = z
  .object({
    /**
     * The challenge's counter is drawn from 0 to this; the browser tries them in turn (one SHA-256 each),
     * so about half of it on average: 100,000 is a few tenths of a second in a browser, and as long per
     * token for a script.
     */
    maxNumber: z.number().int().min(100).max(10_000_000).default(100_000),
    /** How long a challenge may be solved and used. */
    expiresSeconds: z.number().int().min(30).max(3600).default(600),
  })
  .strict();

/** When a browser is asked to solve the captcha again in a modal (`requires_captcha`). */
const challengeSettings = z
  .object({
    /** Sign-ups started from one IP address in an hour, beyond which each asks for the modal. */
    signUpsPerIpPerHour: z.number().int().min(1).max(100_000).default(10),
    /** Sign-ups started by one browser (client) in an hour, beyond which each asks for the modal. */
    signUpsPerClientPerHour: z.number().int().min(1).max(100_000).default(3),
    /**
     * Failed passwords or codes in a row on one account, from which a sign-in on it asks for the modal from
     * browsers that are not the owner's (before the progressive delay and the lockout).
     */
    signInFailuresBeforeCaptcha: z.number().int().min(1).max(1_000_000).default(3),
    /** How long a solved modal keeps that browser out of these demands. */
    passSeconds: z
      .number()
      .int()
      .min(10)
      .max(24 * 3600)
      .default(600),
  })
  .strict();

/**
 * Bot protection (Clerk's dashboard → Attack protection → Bot sign-up protection). Absent: the mode's
 * default (off in development; the proof of work in production, see docs/captcha.md).
 */
export const captchaSettings = z
  .object({
    enabled: z.boolean().default(true),
    /** `turnstile` needs `turnstile` below; `proof_of_work` runs on this server alone. */
    provider: z.enum(['turnstile', 'proof_of_work']).default('proof_of_work'),
    /** Clerk's widget type: `smart` (managed, in the form) or `invisible`. */
    widgetType: z.enum(['smart', 'invisible']).default('smart'),
    turnstile: turnstileSettings.optional(),
    proofOfWork: proofOfWorkSettings.prefault({}),
    challenge: challengeSettings.prefault({}),
    /** Social sign-ups that skip the captcha (the provider vouches for the person): Clerk's default list. */
    oauthBypass: z
      .array(z.string().regex(/^oauth_[a-z0-9_]+$/))
      .max(50)
      .default(['oauth_google', 'oauth_microsoft', 'oauth_apple']),
    /** clerk-js solves an invisible captcha in the background every `heartbeatIntervalMs` (Clerk: off). */
    heartbeat: z.boolean().default(false),
    heartbeatIntervalMs: z
      .number()
      .int()
      .min(1000)
      .max(24 * 3600 * 1000)
      .default(600_000),
  })
  .strict()
  .refine((c) => c.provider !== 'turnstile' || c.turnstile !== undefined, {
    message: 'the turnstile provider needs its keys (turnstile.siteKey, turnstile.secretKey).',
    path: ['turnstile'],
  });
export type CaptchaSettings = z.output<typeof captchaSettings>;

/** The captcha as this instance runs it: null when off. */
export type EffectiveCaptcha = CaptchaSettings & { enabled: true };

/**
 * The settings in force: those given, or the mode's default when absent — off in development (tests and a
 * developer's machine sign up by script), the proof of work in production (no outside service needed).
 */
export function effectiveCaptcha(
  settings: CaptchaSettings | undefined,
  mode: IdentityMode,
): EffectiveCaptcha | null {
  const chosen = settings ?? (mode === 'production' ? captchaSettings.parse({}) : null);
  return chosen?.enabled ? (chosen as EffectiveCaptcha) : null;
}

/** The widget's provider the browser must run (null: none), for the page that loads clerk-js. */
export function captchaProviderInUse(
  settings: CaptchaSettings | undefined,
  mode: IdentityMode,
): 'turnstile' | 'proof_of_work' | null {
  return effectiveCaptcha(settings, mode)?.provider ?? null;
}
