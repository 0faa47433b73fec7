import { z } from '@app/contract';
import { ClerkError } from '../errors.ts';
import { secretReference } from '../instance/settings/secret-reference.ts';
import { checkedPageUrl, checkedRedirectUri, checkedScopes } from './oauth-applications.ts';

/** A check of oauth-applications.ts as a zod refinement, so a bad file is refused before it is stored. */
function byRule(check: (value: string) => unknown) {
  return (value: string, ctx: z.RefinementCtx) => {
    try {
      check(value);
    } catch (err) {
      if (!(err instanceof ClerkError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.longMessage });
    }
  };
}

/**
 * OAuth applications declared as code (docs/oauth-provider.md). At every start the declared ones become
 * the `oauth_applications` rows marked `declared`, matched by client id: added, changed to the file's
 * values, and removed when no longer declared. Applications made through the Backend API are left alone.
 * A confidential application's secret is named by an environment variable, never written here.
 */
export const oauthApplicationSettings = z
  .object({
    /** The client id, chosen once (`partner-portal`): the relying party's configuration holds it. */
    clientId: z
      .string()
      .regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3 to 64 letters, digits, dots, dashes or underscores.'),
    name: z.string().trim().min(1).max(256),
    /** Public: PKCE is its proof and it has no secret (a CLI, a single-page app, a native app). */
    public: z.boolean().default(false),
    /** Space-separated, as the Backend API takes them. */
    scopes: z.string().superRefine(byRule(checkedScopes)).default('profile email'),
    redirectUris: z
      .array(z.string().superRefine(byRule(checkedRedirectUri)))
      .max(20)
      .default([]),
    consentScreenEnabled: z.boolean().default(true),
    /** Its home page and its logo, shown on the consent screen: https (or loopback http). */
    clientUri: z
      .string()
      .superRefine(byRule((v) => checkedPageUrl('clientUri', v)))
      .optional(),
    logoUrl: z
      .string()
      .superRefine(byRule((v) => checkedPageUrl('logoUrl', v)))
      .optional(),
    /** Required for a confidential application, refused for a public one. */
    clientSecret: secretReference.optional(),
  })
  .strict()
  .refine((app) => app.public === (app.clientSecret === undefined), {
    message: 'a confidential application names its clientSecret ({ "env": "…" }); a public one has none.',
    path: ['clientSecret'],
  });

export const oauthApplicationsSettings = z
  .array(oauthApplicationSettings)
  .max(100)
  .refine((apps) => new Set(apps.map((a) => a.clientId)).size === apps.length, {
    message: 'each clientId is declared once.',
  });
export type OAuthApplicationSettings = z.output<typeof oauthApplicationSettings>;

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** Whole seconds between `min` and `max`, with the default a missing value takes. */
function seconds(min: number, max: number, fallback: number) {
  const range = `must be a whole number of seconds from ${min} to ${max}.`;
  return z.number(range).int(range).min(min, range).max(max, range).default(fallback);
}

/** A whole number between `min` and `max`, with the default a missing value takes. */
function count(min: number, max: number, fallback: number) {
  const range = `must be a whole number from ${min} to ${max}.`;
  return z.number(range).int(range).min(min, range).max(max, range).default(fallback);
}

/**
 * The authorization server's lifetimes, in seconds (docs/oauth-provider.md), read at every issuance: a
 * change counts for the next code or token, never for one already issued; its dynamic registration and
 * limits, read at every request. The bounds keep a typo from
 * making a token live for years or a code expire before the browser gets back.
 */
export const oauthProviderSettings = z
  .object({
    /** An access token (`oat_…`) and an ID token: 1 minute to 1 day, 1 hour by default. */
    accessTokenLifetime: seconds(MINUTE, DAY, HOUR),
    /**
     * A refresh token, and the grant its rotations belong to (so the chain ends this long after the
     * authorization): 1 hour to 1 year, 30 days by default.
     */
    refreshTokenLifetime: seconds(HOUR, 365 * DAY, 30 * DAY),
    /** An authorization code: 10 seconds to 10 minutes (RFC 6749 §4.1.2's maximum), 60 by default. */
    authorizationCodeLifetime: seconds(10, 10 * MINUTE, MINUTE),
    /**
     * RFC 7591 dynamic client registration (`POST /oauth/register`): off by default, as anyone may then
     * register an application (an MCP client registers itself); its applications still ask every user's
     * consent.
     */
    dynamicClientRegistration: z.boolean().default(false),
    /** Registrations one address may attempt in an hour (refused ones count too). */
    registrationsPerAddressPerHour: count(1, 10_000, 10),
    /**
     * Failed access-token verifications (`POST /oauth_applications/access_tokens/verify`) one caller
     * address may make in 10 minutes before its verifications are refused (429) until the window ends.
     * The callers are resource servers relaying their clients' tokens, hence the high default.
     */
    failedTokenVerificationsPerAddress: count(1, 1_000_000, 1000),
  })
  .strict()
  .refine((s) => s.refreshTokenLifetime >= s.accessTokenLifetime, {
    message: 'refreshTokenLifetime cannot be shorter than accessTokenLifetime.',
    path: ['refreshTokenLifetime'],
  });
export type OAuthProviderSettings = z.output<typeof oauthProviderSettings>;

/** The lifetimes an instance without an `oauthProvider` slice runs with. */
export const DEFAULT_OAUTH_PROVIDER_SETTINGS: OAuthProviderSettings = oauthProviderSettings.parse({});
