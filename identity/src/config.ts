import { metricsAccessFrom, type MetricsAccess } from './observability/metrics-access.ts';
import { resolve } from 'node:path';
import { passwordPolicyFromEnv, type PasswordPolicy } from './passwords/policy.ts';
import { emailLinkSettingsFromEnv, type EmailLinkSettings } from './email-links/settings.ts';
import { smsSettingsFromEnv, type SmsSettings } from './sms/settings.ts';
import {
  lockoutFromEnv,
  attemptDelayFromEnv,
  passwordHashingFromEnv,
  type AttemptDelaySettings,
  type PasswordHashingSettings,
  rateLimitsFromEnv,
  type LockoutSettings,
  type RateLimitSettings,
} from './abuse/abuse-settings.ts';
import { trustedProxiesFrom, type TrustedProxies } from './http/trusted-proxies.ts';
import { clientCreationsPerIpFromEnv } from './abuse/client-creation.ts';
import { retentionFromEnv, type RetentionSettings } from './retention/settings.ts';
import { sendLimitsFromEnv, type SendLimitSettings } from './mail/send-limits.ts';
import { defaultMailLanguageFromEnv, type MailLanguage } from './mail/language.ts';
import { webhookTimingFromEnv, type WebhookTiming } from './webhooks/timing-settings.ts';

export type IdentityMode = 'development' | 'production';
/** Which kind of publishable key the instance hands out: `pk_live_` (cookie) or `pk_test_` (dev browser). */
export type InstanceKeysKind = 'production' | 'development';

export interface IdentityConfig {
  /** development: dev outbox + Clerk test mode (`+clerk_test`, 424242); production: SMTP required. */
  mode: IdentityMode;
  /** Public origin of the product, e.g. http://localhost:3000. */
  publicUrl: string;
  /** Path prefix the Frontend API is mounted on (clerk-js `proxyUrl`). */
  fapiPath: string;
  /** Host encoded in the publishable key; it must contain a dot. */
  frontendApiHost: string;
  /**
   * `production` (default): `pk_live_` keys, the browser's client is our HttpOnly `__client` cookie.
   * `development` (`IDENTITY_KEYS=development`): `pk_test_` keys, the client is a development-browser
   * token that clerk-js sends as `__clerk_db_jwt`, exactly as against a hosted development instance.
   */
  instanceKeys: InstanceKeysKind;
  /** Origins redirect URLs may point at, besides publicUrl. */
  allowedOrigins: string[];
  applicationName: string;
  /** Where the Backend API secret key is kept when none is given. */
  secretKeyFile: string | null;
  secretKey: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * The language of mail and SMS whose recipient's language is not known (`IDENTITY_MAIL_DEFAULT_LANGUAGE`,
   * French by default, as the product); see mail/recipient-language.ts.
   */
  defaultMailLanguage: MailLanguage;
  sessionTokenTtlSeconds: number;
  sessionLifetimeSeconds: number;
  codeTtlSeconds: number;
  maxCodeAttempts: number;
  rateLimits: RateLimitSettings;
  lockout: LockoutSettings;
  /** New clients (browsers) one IP address may start in ten minutes. */
  clientCreationsPerIp: number;
  /** The scheduled purge of expired rows (see retention/). */
  retention: RetentionSettings;
  /** Waits between failed attempts on one account, before the lockout. */
  attemptDelay: AttemptDelaySettings;
  /** Argon2 work at once in this process (process-wide: the last identity started sets it). */
  passwordHashing: PasswordHashingSettings;
  /** Mail and SMS per recipient, invitations per organisation, inviter and request (mail/send-limits.ts). */
  sendLimits: SendLimitSettings;
  /** Several accounts signed in on one browser (`IDENTITY_MULTI_SESSION`); Clerk's default is one. */
  multiSession: boolean;
  /** Sessions stay `pending` with the `choose-organization` task until an organisation is active. */
  forceOrganizationSelection: boolean;
  /** Users may delete their own account (`<UserProfile/>` → Security → Delete account). */
  deleteSelfEnabled: boolean;
  /** Reverse proxies whose X-Forwarded-For / -Proto are believed (`TRUST_PROXY`); see trusted-proxies.ts. */
  trustProxy: TrustedProxies;
  /** Who may read /metrics (`METRICS_ALLOWED_FROM`): loopback in development, no one in production. */
  metricsAccess: MetricsAccess;
  /** The development outbox answers every client, not only loopback ones (`IDENTITY_DEV_OUTBOX_PUBLIC`). */
  devOutboxPublic: boolean;
  passwordPolicy: PasswordPolicy;
  emailLinks: EmailLinkSettings;
  /** SMS codes through Twilio; without it, development keeps them in the outbox and production has none. */
  sms: SmsSettings;
  /**
   * The instance settings file (`IDENTITY_SETTINGS_FILE`), applied to the database at start; null keeps
   * what the database holds (the built-in defaults on a new one). See instance/settings/.
   */
  settingsFile: string | null;
  /** Webhook delivery: poll, timeout, lease and the retry schedule (webhooks/timing-settings.ts). */
  webhooks: WebhookTiming;
}

/** Clerk's session-token lifetime. */
const SESSION_TOKEN_TTL_SECONDS = 60;

/**
 * 60 s, as Clerk. The end-to-end test of the silent refresh would wait past it (twice, once per key kind):
 * `IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS` shortens it, honoured only with NODE_ENV=test (which
 * scripts/run-tests.mjs sets), so no production start can be given short-lived tokens by it.
 */
export function sessionTokenTtlFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS;
  if (env.NODE_ENV !== 'test' || raw === undefined || raw === '') return SESSION_TOKEN_TTL_SECONDS;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 15 || seconds > SESSION_TOKEN_TTL_SECONDS) {
    throw new Error(
      'IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS must be a whole number of seconds from 15 to 60.',
    );
  }
  return seconds;
}

export function identityConfigFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<IdentityConfig> = {},
): IdentityConfig {
  const port = env.PORT ?? '3000';
  const publicUrl = (overrides.publicUrl ?? env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const mode: IdentityMode =
    env.IDENTITY_MODE === 'production' ||
    (env.IDENTITY_MODE !== 'development' && env.NODE_ENV === 'production')
      ? 'production'
      : 'development';
  return {
    mode,
    fapiPath: '/__clerk',
    allowedOrigins: allowedOriginsFrom(env.ALLOWED_ORIGINS),
    applicationName: env.APP_NAME ?? 'Qoala',
    secretKeyFile: resolve(dataDir, 'identity-secret-key'),
    secretKey: env.IDENTITY_SECRET_KEY ?? null,
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? 'Qoala <no-reply@localhost>',
    defaultMailLanguage: defaultMailLanguageFromEnv(env),
    sessionTokenTtlSeconds: sessionTokenTtlFromEnv(env),
    sessionLifetimeSeconds: 7 * 24 * 3600,
    codeTtlSeconds: 10 * 60,
    maxCodeAttempts: 5,
    rateLimits: rateLimitsFromEnv(env),
    lockout: lockoutFromEnv(env),
    clientCreationsPerIp: clientCreationsPerIpFromEnv(env),
    retention: retentionFromEnv(env),
    attemptDelay: attemptDelayFromEnv(env),
    passwordHashing: passwordHashingFromEnv(env),
    sendLimits: sendLimitsFromEnv(env),
    multiSession: env.IDENTITY_MULTI_SESSION === 'true',
    forceOrganizationSelection: env.IDENTITY_FORCE_ORGANIZATION === 'true',
    deleteSelfEnabled: env.IDENTITY_DELETE_SELF_ENABLED !== 'false',
    trustProxy: trustedProxiesFrom(env.TRUST_PROXY),
    metricsAccess: metricsAccessFrom(env.METRICS_ALLOWED_FROM, mode === 'production'),
    devOutboxPublic: env.IDENTITY_DEV_OUTBOX_PUBLIC === 'true',
    instanceKeys: instanceKeysFromEnv(env),
    passwordPolicy: passwordPolicyFromEnv(env),
    emailLinks: emailLinkSettingsFromEnv(env),
    sms: smsSettingsFromEnv(env),
    settingsFile: env.IDENTITY_SETTINGS_FILE ? resolve(env.IDENTITY_SETTINGS_FILE) : null,
    webhooks: webhookTimingFromEnv(env),
    ...overrides,
    // Normalised whichever way it was given.
    publicUrl,
    frontendApiHost:
      overrides.frontendApiHost ??
      env.IDENTITY_FRONTEND_API_HOST ??
      defaultFrontendApiHost(publicUrl, overrides.instanceKeys ?? instanceKeysFromEnv(env)),
  };
}

function instanceKeysFromEnv(env: NodeJS.ProcessEnv): InstanceKeysKind {
  const value = env.IDENTITY_KEYS ?? 'production';
  if (value !== 'production' && value !== 'development') {
    throw new Error('IDENTITY_KEYS must be "production" or "development".');
  }
  return value;
}

/**
 * `clerk.<public host>` for production keys. Development keys need a host under one of Clerk's
 * development suffixes, the only hosts for which clerk-js obtains a development-browser token; the
 * host is never contacted (every call goes through the same-origin proxy), it only names the instance,
 * shaped like a hosted development instance's `<name>.clerk.accounts.dev`.
 */
function defaultFrontendApiHost(publicUrl: string, keys: InstanceKeysKind): string {
  const host = new URL(publicUrl).host;
  if (keys === 'production') return `clerk.${host}`;
  return `${host.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.clerk.accounts.dev`;
}

/**
 * `ALLOWED_ORIGINS`: comma-separated http(s) origins. A malformed entry stops the start with its name,
 * rather than making every later redirect and Origin check throw.
 */
function allowedOriginsFrom(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | null = null;
      try {
        url = new URL(entry);
      } catch {
        // reported below
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin === 'null') {
        throw new Error(
          `ALLOWED_ORIGINS: "${entry}" is not an http(s) origin such as https://app.example.com.`,
        );
      }
      return url.origin;
    });
}
