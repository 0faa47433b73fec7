import { z } from '@app/contract';
import { ClaimsTemplateError, parseClaimsTemplate } from './claims-template.ts';
import { passkeySettings } from '../../passkeys/passkey-settings.ts';
import { web3Settings } from '../../web3/web3-settings.ts';
import { captchaSettings } from '../../captcha/captcha-settings.ts';
import { apiKeysSettings } from '../../api-keys/api-keys-settings.ts';
import {
  oauthApplicationsSettings,
  oauthProviderSettings,
} from '../../oauth-provider/oauth-provider-settings.ts';
import { webhookSettings } from '../../webhooks/webhook-settings.ts';
import { signUpSettings } from '../../sign-up-modes/sign-up-settings.ts';
import { billingSettings } from '../../billing/billing-settings.ts';
import { socialSettings } from '../../social/social-settings.ts';
import { enterpriseConnectionsSettings } from '../../enterprise-sso/enterprise-sso-settings.ts';
import { auditLogSettings } from '../../audit/audit-settings.ts';
import { domainsSettings } from '../../domains/domain-settings.ts';
import { consoleSettings } from '../../console/console-settings.ts';

/**
 * The instance settings document: what the settings file declares, what the database keeps (one row,
 * see migration 014) and what `npm run identity -- settings` shows and changes. One schema for all three,
 * so a value is refused the same way wherever it comes from.
 */

export { secretReference, secretFromEnv, type SecretReference } from './secret-reference.ts';
export {
  SOCIAL_STRATEGY,
  socialProviderSettings,
  type SocialProviderSettings,
} from '../../social/social-settings.ts';
export {
  ENTERPRISE_CONNECTION_ID,
  enterpriseConnectionSettings,
  type EnterpriseConnectionSettings,
} from '../../enterprise-sso/enterprise-sso-settings.ts';

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
    /** Social sign-in providers, keyed by Clerk strategy (see social/social-settings.ts). */
    social: socialSettings.default({}),
    /** Enterprise SSO connections (SAML 2.0, OpenID Connect), keyed by id (see enterprise-sso/enterprise-sso-settings.ts). */
    // Optional rather than defaulted: documents stored before it existed read the same as before.
    enterpriseConnections: enterpriseConnectionsSettings.optional(),
    /** Passkeys (see passkeys/passkey-settings.ts); off when absent. */
    passkeys: passkeySettings.optional(),
    /** Web3 wallets (see web3/web3-settings.ts); off when absent. */
    web3: web3Settings.optional(),
    /** Bot protection on sign-up and sign-in (see captcha/captcha-settings.ts). */
    captcha: captchaSettings.optional(),
    /** API keys (see api-keys/api-keys-settings.ts); off when absent. */
    apiKeys: apiKeysSettings.optional(),
    /** OAuth applications declared as code (see oauth-provider/oauth-provider-settings.ts); none when absent. */
    oauthApplications: oauthApplicationsSettings.optional(),
    /** The authorization server's token and code lifetimes (see oauth-provider/oauth-provider-settings.ts). */
    oauthProvider: oauthProviderSettings.optional(),
    /** Webhook endpoints (see webhooks/webhook-settings.ts); none when absent. */
    webhooks: webhookSettings.optional(),
    /** Sign-up mode and legal consent (see sign-up-modes/sign-up-settings.ts); public, no consent, when absent. */
    signUp: signUpSettings.optional(),
    /** Plans, features and the payment gateway (see billing/billing-settings.ts); no billing when absent. */
    billing: billingSettings.optional(),
    /** The audit log's retention (see audit/audit-settings.ts); 365 days when absent. */
    auditLog: auditLogSettings.optional(),
    /** Satellite domains (see domains/domain-settings.ts, docs/satellites.md); none when absent. */
    domains: domainsSettings.optional(),
    /** The operator console's operators (see console/console-settings.ts, docs/console.md); none when absent. */
    console: consoleSettings.optional(),
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
