import { createHash } from 'node:crypto';
import { passwordSettingsJSON } from '../passwords/policy.ts';
import type { IdentityConfig } from '../config.ts';
import { phoneNumbersEnabled } from '../sms/choose-sender.ts';
import type { InstanceSettings } from './settings/schema.ts';
import { socialEnvironmentJSON } from '../social/social-environment.ts';
import { enterpriseSsoEnvironmentJSON } from '../enterprise-sso/enterprise-environment.ts';
import { googleOneTapClientId } from '../social/google-one-tap.ts';
import { ATTRIBUTE_OFF } from './attribute-off.ts';
import { passkeyEnvironmentJSON } from '../passkeys/passkey-environment.ts';
import { web3EnvironmentJSON } from '../web3/web3-environment.ts';
import { captchaEnvironmentJSON } from '../captcha/captcha-environment.ts';
import { signUpEnvironmentJSON } from '../sign-up-modes/sign-up-environment.ts';
import { apiKeysEnabled } from '../api-keys/api-keys-settings.ts';
import { commerceSettingsJSON } from '../billing/billing-json.ts';

const off = ATTRIBUTE_OFF;

/**
 * The instance as clerk-js sees it: email + password sign-up verified by an emailed code, sign-in with
 * password or email code, optional names, an authenticator app and backup codes as second factors.
 * Everything this instance does not implement is switched off (not stubbed) so the Clerk UI does not
 * offer it.
 */
export function environmentJSON(
  config: IdentityConfig,
  settings: Pick<InstanceSettings, 'social'> &
    Partial<
      Pick<
        InstanceSettings,
        'enterpriseConnections' | 'passkeys' | 'web3' | 'captcha' | 'apiKeys' | 'signUp' | 'billing'
      >
    >,
  /** The payment gateway's publishable key for Stripe.js; asked only when the instance bills. */
  billingPublishableKey: () => string = () => '',
) {
  const passkeys = passkeyEnvironmentJSON(settings.passkeys);
  const captcha = captchaEnvironmentJSON(settings.captcha, config);
  const url = (path: string) => `${config.publicUrl}${path}`;
  const signUp = signUpEnvironmentJSON(settings.signUp, url);
  return {
    object: 'environment',
    id: 'env_embedded',
    maintenance_mode: false,
    client_debug_mode: false,
    auth_config: {
      object: 'auth_config',
      id: 'aac_embedded',
      // Multi-session: <UserButton/> lists the browser's accounts, switches and signs out of one or all.
      single_session_mode: !config.multiSession,
      claimed_at: null,
      // Sensitive actions answer `session_reverification_required`; /client/sessions/:id/verify serves the modal.
      reverification: true,
      preferred_channels: {},
    },
    display_config: {
      object: 'display_config',
      id: 'display_config_embedded',
      instance_environment_type: config.mode === 'production' ? 'production' : 'development',
      application_name: config.applicationName,
      branded: false,
      show_devmode_warning: false,
      logo_image_url: '',
      favicon_image_url: '',
      home_url: url('/'),
      sign_in_url: url('/sign-in'),
      sign_up_url: url('/sign-up'),
      user_profile_url: '',
      organization_profile_url: '',
      create_organization_url: '',
      after_sign_in_url: url('/dashboard'),
      after_sign_up_url: url('/dashboard'),
      after_sign_out_one_url: url('/'),
      after_sign_out_all_url: url('/'),
      after_switch_session_url: url('/dashboard'),
      after_create_organization_url: url('/dashboard'),
      after_leave_organization_url: url('/dashboard'),
      ...signUp.display,
      support_email: '',
      preferred_sign_in_strategy: 'password',
      ...captcha.display,
      // <GoogleOneTap/> prompts only when this is set: the Google provider with `oneTap: true`.
      google_one_tap_client_id: googleOneTapClientId(settings.social),
      clerk_js_version: '5.90.0',
      theme: { general: {}, buttons: {}, accounts: {} },
    },
    user_settings: {
      attributes: {
        email_address: {
          enabled: true,
          required: true,
          used_for_first_factor: true,
          // Sign-in by code or by link ("Email link to …" among the other methods). clerk-js verifies
          // sign-ups (and addresses added in <UserProfile/>) by link once `email_link` is listed here.
          first_factors: ['email_code', 'email_link'],
          used_for_second_factor: false,
          second_factors: [],
          verifications:
            config.emailLinks.signUpVerification === 'link' ? ['email_code', 'email_link'] : ['email_code'],
          verify_at_sign_up: true,
        },
        password: { ...off, enabled: true, required: true },
        first_name: { ...off, enabled: true },
        last_name: { ...off, enabled: true },
        // Optional at sign-up (verified by SMS), a sign-in identifier with SMS codes, and a second factor;
        // off when no SMS can be sent (production without Twilio).
        phone_number: phoneNumbersEnabled(config)
          ? {
              enabled: true,
              required: false,
              used_for_first_factor: true,
              first_factors: ['phone_code'],
              used_for_second_factor: true,
              second_factors: ['phone_code'],
              verifications: ['phone_code'],
              verify_at_sign_up: true,
            }
          : off,
        // Optional at sign-up; a sign-in identifier beside the email address ("Email address or username").
        username: { ...off, enabled: true, used_for_first_factor: true },
        web3_wallet: web3EnvironmentJSON(settings.web3),
        // Second factors: <UserProfile/> shows its MFA section when some attribute offers one.
        authenticator_app: { ...off, enabled: true, used_for_second_factor: true, second_factors: ['totp'] },
        backup_code: { ...off, enabled: true, used_for_second_factor: true, second_factors: ['backup_code'] },
        passkey: passkeys.attribute,
      },
      social: socialEnvironmentJSON(settings.social, `${config.publicUrl}${config.fapiPath}`),
      // On when a connection is: <SignIn/> then sends the identifier alone first (SignInStart), and goes to
      // the IdP when the sign-in's only first factor is enterprise_sso.
      ...enterpriseSsoEnvironmentJSON(settings.enterpriseConnections ?? {}),
      sign_in: { second_factor: { required: false, enabled: true } },
      sign_up: {
        mode: signUp.mode,
        progressive: true,
        ...captcha.signUp,
        custom_action_required: false,
        legal_consent_enabled: signUp.legalConsentEnabled,
        allowlist_only: false,
      },
      restrictions: {
        allowlist: { enabled: false },
        blocklist: { enabled: false },
        allowlist_blocklist_disabled_on_sign_in: { enabled: false },
        block_email_subaddresses: { enabled: false },
        block_disposable_email_domains: { enabled: false },
      },
      password_settings: passwordSettingsJSON(config.passwordPolicy),
      username_settings: { min_length: USERNAME_MIN_LENGTH, max_length: USERNAME_MAX_LENGTH },
      passkey_settings: passkeys.passkey_settings,
      actions: { delete_self: config.deleteSelfEnabled, create_organization: true },
    },
    // Verified domains and membership requests are not offered: switched off, not stubbed.
    organization_settings: {
      enabled: true,
      max_allowed_memberships: 0,
      force_organization_selection: config.forceOrganizationSelection,
      actions: { admin_delete: true },
      domains: { enabled: false, enrollment_modes: [], default_role: 'org:member' },
    },
    // Billing (<PricingTable/>, the Billing pages of <UserProfile/> and <OrganizationProfile/>): null when off.
    commerce_settings: settings.billing?.enabled
      ? commerceSettingsJSON(settings.billing, billingPublishableKey())
      : null,
    // <UserProfile/> and <OrganizationProfile/> show their "API keys" page, and <APIKeys/> renders, when on.
    api_keys_settings: { enabled: apiKeysEnabled(settings.apiKeys) },
  };
}

export const NAME_MAX_LENGTH = 256;
export const USERNAME_MIN_LENGTH = 4;
export const USERNAME_MAX_LENGTH = 64;

/** The environment as GET /v1/environment sends it: the object, its JSON text and that text's ETag. */
export interface SerialisedEnvironment {
  json: unknown;
  body: string;
  etag: string;
}

/**
 * The environment, built and serialised once, then served from memory until invalidate(). Its only inputs
 * are the instance's settings: whatever changes them calls invalidate() (the instance settings' change
 * event, `onInstanceSettingsChanged`, is wired to it), and the next request builds it again. clerk-js asks
 * for it on every page load, before anything else.
 */
export class EnvironmentCache {
  private current: Promise<SerialisedEnvironment> | null = null;

  constructor(private readonly build: () => unknown) {}

  get(): Promise<SerialisedEnvironment> {
    if (this.current) return this.current;
    const built = Promise.resolve()
      .then(this.build)
      .then((json) => {
        const body = JSON.stringify(json);
        return {
          json,
          body,
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
        };
      });
    this.current = built;
    // A failed build is not kept: the next request tries again.
    built.catch(() => {
      if (this.current === built) this.current = null;
    });
    return built;
  }

  /**
   * The instance's settings changed: the next request builds the environment again (a build already under
   * way is dropped with the rest, since it may have read the old settings).
   */
  invalidate(): void {
    this.current = null;
  }
}
