import { resolve } from 'node:path';
import { passwordPolicyFromEnv, type PasswordPolicy } from './passwords/policy.ts';

export type IdentityMode = 'development' | 'production';

export interface IdentityConfig {
  /** development: dev outbox + Clerk test mode (`+clerk_test`, 424242); production: SMTP required. */
  mode: IdentityMode;
  /** Public origin of the product, e.g. http://localhost:3000. */
  publicUrl: string;
  /** Path prefix the Frontend API is mounted on (clerk-js `proxyUrl`). */
  fapiPath: string;
  /** Host encoded in the publishable key; it must contain a dot. */
  frontendApiHost: string;
  /** Origins redirect URLs may point at, besides publicUrl. */
  allowedOrigins: string[];
  applicationName: string;
  /** Where the Backend API secret key is kept when none is given. */
  secretKeyFile: string | null;
  secretKey: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  sessionTokenTtlSeconds: number;
  sessionLifetimeSeconds: number;
  codeTtlSeconds: number;
  maxCodeAttempts: number;
  rateLimits: {
    signInPerIpPerMinute: number;
    signInPerIdentifierPerMinute: number;
    codeAttemptsPerIpPerMinute: number;
  };
  lockout: { maxFailedAttempts: number; durationSeconds: number };
  /** Sessions stay `pending` with the `choose-organization` task until an organisation is active. */
  forceOrganizationSelection: boolean;
  /** Trust X-Forwarded-For / -Proto from a reverse proxy. */
  trustProxy: boolean;
  passwordPolicy: PasswordPolicy;
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
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    applicationName: env.APP_NAME ?? 'Qoala',
    secretKeyFile: resolve(dataDir, 'identity-secret-key'),
    secretKey: env.IDENTITY_SECRET_KEY ?? null,
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? 'Qoala <no-reply@localhost>',
    sessionTokenTtlSeconds: 60,
    sessionLifetimeSeconds: 7 * 24 * 3600,
    codeTtlSeconds: 10 * 60,
    maxCodeAttempts: 5,
    rateLimits: {
      signInPerIpPerMinute: 60,
      signInPerIdentifierPerMinute: 20,
      codeAttemptsPerIpPerMinute: 30,
    },
    lockout: { maxFailedAttempts: 100, durationSeconds: 3600 },
    forceOrganizationSelection: env.IDENTITY_FORCE_ORGANIZATION === 'true',
    trustProxy: env.TRUST_PROXY === 'true',
    passwordPolicy: passwordPolicyFromEnv(env),
    ...overrides,
    // Normalised whichever way it was given.
    publicUrl,
    frontendApiHost:
      overrides.frontendApiHost ?? env.IDENTITY_FRONTEND_API_HOST ?? `clerk.${new URL(publicUrl).host}`,
  };
}
