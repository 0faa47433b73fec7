import { z } from '@app/contract';
import { ClaimsTemplateError, parseClaimsTemplate } from './claims-template.ts';
import { passkeySettings } from '../../passkeys/passkey-settings.ts';
import { web3Settings } from '../../web3/web3-settings.ts';
import { captchaSettings } from '../../captcha/captcha-settings.ts';
import { apiKeysSettings } from '../../api-keys/api-keys-settings.ts';
import { webhookSettings } from '../../webhooks/webhook-settings.ts';
import { signUpSettings } from '../../sign-up-modes/sign-up-settings.ts';
import { billingSettings } from '../../billing/billing-settings.ts';

/**
 * The instance settings document: what the settings file declares, what the database keeps (one row,
 * see migration 014) and what `npm run identity -- settings` shows and changes. One schema for all three,
 * so a value is refused the same way wherever it comes from.
 */

import { secretReference } from './secret-reference.ts';
export { secretReference, secretFromEnv, type SecretReference } from './secret-reference.ts';

/** `oauth_google`, `oauth_github`, `oauth_microsoft`, `oauth_apple`, or any `oauth_custom_<slug>`. */
export const SOCIAL_STRATEGY = /^oauth_(google|github|microsoft|apple|custom_[a-z0-9][a-z0-9_-]{0,40})$/;

const endpoint = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL.' });

/**
 * One social provider (Clerk's dashboard → SSO connections → social). The well-known providers have
 * default endpoints (social/providers.ts); every endpoint can be overridden, so a stand-in on this
 * machine can play any of them. A custom provider names its issuer (OpenID Connect discovery) or its
 * authorization, token and userinfo endpoints (plain OAuth 2).
 */
export const socialProviderSettings = z
  .object({
    enabled: z.boolean().default(true),
    clientId: z.string().min(1),
    clientSecret: secretReference,
    /** The scopes asked for; the provider's defaults when absent. */
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be one scope token.')).optional(),
    /** May be used to sign in (a button on <SignIn/> and <SignUp/>). */
    authenticatable: z.boolean().default(true),
    /** May create an account; when false only people who already have one can use it. */
    signUpAllowed: z.boolean().default(true),
    /** The button's label; the provider's name for well-known ones, the slug for custom ones. */
    name: z.string().min(1).max(64).optional(),
    issuer: endpoint.optional(),
    authorizationEndpoint: endpoint.optional(),
    tokenEndpoint: endpoint.optional(),
    userinfoEndpoint: endpoint.optional(),
    jwksUri: endpoint.optional(),
    /**
     * Google only: offer Google One Tap (`<GoogleOneTap/>`) with this provider's client id, and accept its
     * ID tokens (`strategy=google_one_tap`) verified against the same issuer and JWKS.
     */
    oneTap: z.boolean().optional(),
  })
  .strict();
export type SocialProviderSettings = z.output<typeof socialProviderSettings>;

const socialProviders = z.record(z.string(), socialProviderSettings).superRefine((providers, ctx) => {
  for (const [strategy, p] of Object.entries(providers)) {
    if (!SOCIAL_STRATEGY.test(strategy)) {
      ctx.addIssue({
        code: 'custom',
        path: [strategy],
        message:
          'is not a social strategy: oauth_google, oauth_github, oauth_microsoft, oauth_apple or oauth_custom_<slug>.',
      });
    } else if (p.oneTap && strategy !== 'oauth_google') {
      ctx.addIssue({
        code: 'custom',
        path: [strategy, 'oneTap'],
        message: 'Google One Tap is offered by oauth_google only.',
      });
    } else if (
      strategy.startsWith('oauth_custom_') &&
      !p.issuer &&
      !(p.authorizationEndpoint && p.tokenEndpoint && p.userinfoEndpoint)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: [strategy],
        message:
          'a custom provider needs its issuer (OpenID Connect discovery) or authorizationEndpoint, tokenEndpoint and userinfoEndpoint.',
      });
    }
  }
});

/** `samlc_<…>` for a SAML connection (as Clerk names them), `entc_<…>` for an OpenID Connect one. */
export const ENTERPRISE_CONNECTION_ID = /^(samlc|entc)_[A-Za-z0-9_-]{1,64}$/;

const emailDomain = z
  .string()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be an email domain in lower case (example.com).',
  );

/**
 * One enterprise SSO connection (Clerk's dashboard → SSO connections → enterprise). A sign-in whose email
 * address is at one of `domains` goes to the connection's identity provider (docs/enterprise-sso.md).
 * SAML: the IdP's entity id, SSO URL (HTTP-Redirect binding) and signing certificate (PEM, or the
 * environment variable holding it). OpenID Connect: the issuer (discovery), client id and secret.
 */
export const enterpriseConnectionSettings = z
  .object({
    name: z.string().min(1).max(128),
    protocol: z.enum(['saml', 'oidc']),
    domains: z.array(emailDomain).min(1).max(50),
    enabled: z.boolean().default(true),
    /** May create the account of a person the IdP vouches for who has none yet. */
    signUpAllowed: z.boolean().default(true),
    /** The organisation (id or slug) people signing in through the connection join, with `defaultRole`. */
    organization: z.string().min(1).max(256).optional(),
    defaultRole: z.string().min(1).max(64).default('org:member'),
    /** SAML: Clerk's IdP slug, shown by <UserProfile/> (`saml_custom` unless said). */
    provider: z.enum(['saml_custom', 'saml_okta', 'saml_google', 'saml_microsoft']).optional(),
    idpEntityId: z.string().min(1).max(1024).optional(),
    idpSsoUrl: endpoint.optional(),
    /** The IdP's signing certificate: PEM (or its base64 body), or the environment variable that holds it. */
    idpCertificate: z.union([z.string().min(1).max(16384), secretReference]).optional(),
    /** The IdP's metadata XML, kept for the Backend API (entity id, SSO URL and certificate are what count). */
    idpMetadata: z.string().max(262144).optional(),
    /** SAML attribute names of the user's details (besides the NameID). */
    attributeMapping: z
      .object({
        emailAddress: z.string().min(1).max(256).optional(),
        firstName: z.string().min(1).max(256).optional(),
        lastName: z.string().min(1).max(256).optional(),
        userId: z.string().min(1).max(256).optional(),
      })
      .strict()
      .default({}),
    /** OpenID Connect: found by discovery of its issuer. */
    issuer: endpoint.optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: secretReference.optional(),
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be one scope token.')).optional(),
  })
  .strict();
export type EnterpriseConnectionSettings = z.output<typeof enterpriseConnectionSettings>;

const enterpriseConnections = z
  .record(z.string(), enterpriseConnectionSettings)
  .superRefine((connections, ctx) => {
    const owners = new Map<string, string>();
    for (const [id, c] of Object.entries(connections)) {
      const problem = (message: string) => ctx.addIssue({ code: 'custom', path: [id], message });
      if (!ENTERPRISE_CONNECTION_ID.test(id)) {
        problem('is not a connection id: samlc_<name> for SAML, entc_<name> for OpenID Connect.');
        continue;
      }
      if ((c.protocol === 'saml') !== id.startsWith('samlc_')) {
        problem('a SAML connection is named samlc_<…>, an OpenID Connect one entc_<…>.');
      }
      // A connection being set up (the Backend API creates them disabled) may lack its IdP's details.
      if (!c.enabled) continue;
      if (c.protocol === 'saml' && !(c.idpEntityId && c.idpSsoUrl && c.idpCertificate)) {
        problem('an enabled SAML connection needs idpEntityId, idpSsoUrl and idpCertificate.');
      }
      if (c.protocol === 'oidc' && !(c.issuer && c.clientId && c.clientSecret)) {
        problem('an enabled OpenID Connect connection needs issuer, clientId and clientSecret.');
      }
      // An enabled domain belongs to one connection: the sign-in must know where to send an address.
      for (const domain of c.domains) {
        const other = owners.get(domain);
        if (other) problem(`the domain ${domain} is already the connection ${other}'s.`);
        owners.set(domain, id);
      }
    }
  });

const claimsTemplate = z.record(z.string(), z.unknown()).superRefine((claims, ctx) => {
  try {
    parseClaimsTemplate(claims, '');
  } catch (err) {
    if (!(err instanceof ClaimsTemplateError)) throw err;
    // The template's own path ("".name) continues the document's (sessionToken.claims).
    const inner = err.path.replace(/^\./, '');
    ctx.addIssue({ code: 'custom', message: err.reason, path: inner ? [inner] : [] });
  }
});

export const instanceSettingsSchema = z
  .object({
    /** A JSON Schema for editors; ignored. */
    $schema: z.string().optional(),
    sessionToken: z
      .object({
        /** Clerk's "Customize session token" claims template (see claims-template.ts). */
        claims: claimsTemplate.default({}),
      })
      .strict()
      .default({ claims: {} }),
    /** Social sign-in providers, keyed by Clerk strategy (see socialProviderSettings). */
    social: socialProviders.default({}),
    /** Enterprise SSO connections (SAML 2.0, OpenID Connect), keyed by id (see enterpriseConnectionSettings). */
    // Optional rather than defaulted: documents stored before it existed read the same as before.
    enterpriseConnections: enterpriseConnections.optional(),
    /** Passkeys (see passkeys/passkey-settings.ts); off when absent. */
    passkeys: passkeySettings.optional(),
    /** Web3 wallets (see web3/web3-settings.ts); off when absent. */
    web3: web3Settings.optional(),
    /** Bot protection on sign-up and sign-in (see captcha/captcha-settings.ts). */
    captcha: captchaSettings.optional(),
    /** API keys (see api-keys/api-keys-settings.ts); off when absent. */
    apiKeys: apiKeysSettings.optional(),
    /** Webhook endpoints (see webhooks/webhook-settings.ts); none when absent. */
    webhooks: webhookSettings.optional(),
    /** Sign-up mode and legal consent (see sign-up-modes/sign-up-settings.ts); public, no consent, when absent. */
    signUp: signUpSettings.optional(),
    /** Plans, features and the payment gateway (see billing/billing-settings.ts); no billing when absent. */
    billing: billingSettings.optional(),
  })
  .strict();

export type InstanceSettings = z.output<typeof instanceSettingsSchema>;

/** A settings document refused: each problem as `field: reason`. */
export class InstanceSettingsError extends Error {
  constructor(
    readonly problems: string[],
    context: string,
  ) {
    super(`${context}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InstanceSettingsError';
  }
}

/** Validates a settings document; throws InstanceSettingsError listing every field refused and why. */
export function parseInstanceSettings(
  value: unknown,
  context = 'Invalid instance settings',
): InstanceSettings {
  const result = instanceSettingsSchema.safeParse(value);
  if (result.success) return withoutSchemaLink(result.data);
  throw new InstanceSettingsError(
    result.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || '(document)'}: ${issue.message}`,
    ),
    context,
  );
}

function withoutSchemaLink(settings: InstanceSettings): InstanceSettings {
  const { $schema: _ignored, ...rest } = settings;
  return rest;
}

/**
 * What an instance runs with when no settings file is given (`npm start`) and nothing was set before:
 * the claims the product server reads from the session token instead of asking the Backend API on every
 * request. Against hosted Clerk, the same template is set in the dashboard (docs/instance-settings.md).
 */
export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = parseInstanceSettings({
  // <APIKeys/> in the profiles and the organisation's API keys page (docs/api-keys.md).
  apiKeys: { enabled: true },
  sessionToken: {
    claims: {
      email: '{{user.primary_email_address}}',
      first_name: '{{user.first_name}}',
      last_name: '{{user.last_name}}',
    },
  },
});
