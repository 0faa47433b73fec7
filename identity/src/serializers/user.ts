import type { EnterpriseAccountRow } from '../store/enterprise-sso.ts';
import type { InstanceSettings } from '../instance/settings/schema.ts';
import { enterpriseAccountJSON, samlAccountJSON } from './enterprise-account.ts';
import type { EmailAddressRow, UserRow } from '../store/rows.ts';
import type { PhoneNumberRow } from '../store/phone-numbers.ts';
import { phoneNumberJSON } from './phone-number.ts';
import type { ExternalAccountRow } from '../store/external-accounts.ts';
import type { Web3WalletRow } from '../store/web3-wallets.ts';
import { web3WalletJSON } from '../web3/web3-wallet-json.ts';
import type { PasskeySummary } from '../store/passkeys.ts';
import { passkeyJSON } from '../passkeys/passkey-json.ts';
import { externalAccountJSON } from './external-account.ts';
import { ms, verificationJSON } from './verification.ts';
import {
  NO_SECOND_FACTORS,
  twoFactorEnabled,
  type SecondFactorState,
} from '../second-factors/second-factor-state.ts';

/** Where images are served: the default avatar, and the Frontend API base for uploaded ones. */
export interface ImageUrls {
  avatarUrl: string;
  fapiBase: string;
}

/** A user's `image_url` / `has_image`: the uploaded profile image, versioned by its id, or the default. */
export function userImageJSON(user: Pick<UserRow, 'id' | 'image_id'>, urls: ImageUrls) {
  return user.image_id
    ? { image_url: `${urls.fapiBase}/v1/images/users/${user.id}?v=${user.image_id}`, has_image: true }
    : { image_url: urls.avatarUrl, has_image: false };
}

export function emailAddressJSON(e: EmailAddressRow) {
  return {
    object: 'email_address',
    id: e.id,
    email_address: e.email_address,
    reserved: false,
    verification: e.verified_at
      ? {
          object: 'verification',
          status: 'verified',
          strategy: e.verification_strategy ?? 'email_code',
          attempts: null,
          expire_at: null,
        }
      : verificationJSON(e.verification),
    linked_to: [],
    matches_sso_connection: false,
    created_at: ms(e.created_at),
    updated_at: ms(e.updated_at),
  };
}

/** Clerk's UserJSON as both clerk-js (FAPI) and @clerk/backend (BAPI) read it. */
export function userJSON(
  user: UserRow,
  emails: EmailAddressRow[],
  opts: {
    images: ImageUrls;
    /** The instance allows self-service deletion (`IDENTITY_DELETE_SELF_ENABLED`). */
    deleteSelfEnabled: boolean;
    now: Date;
    includePrivate?: boolean;
    organizationMemberships?: unknown[];
    secondFactors?: SecondFactorState;
    externalAccounts?: ExternalAccountRow[];
    phoneNumbers?: PhoneNumberRow[];
    web3Wallets?: Web3WalletRow[];
    passkeys?: PasskeySummary[];
    /** Enterprise SSO accounts, with the instance's connections they name. */
    enterpriseAccounts?: EnterpriseAccountRow[];
    enterpriseConnections?: InstanceSettings['enterpriseConnections'];
  },
) {
  const secondFactors = opts.secondFactors ?? NO_SECOND_FACTORS;
  return {
    object: 'user',
    id: user.id,
    external_id: user.external_id,
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    ...userImageJSON(user, opts.images),
    primary_email_address_id: user.primary_email_address_id,
    primary_phone_number_id: user.primary_phone_number_id ?? null,
    primary_web3_wallet_id: user.primary_web3_wallet_id ?? null,
    password_enabled: user.password_hash !== null,
    two_factor_enabled: twoFactorEnabled(secondFactors),
    totp_enabled: secondFactors.totp,
    backup_code_enabled: secondFactors.backupCodes,
    email_addresses: emails.map(emailAddressJSON),
    phone_numbers: (opts.phoneNumbers ?? []).map((p) => phoneNumberJSON(p)),
    web3_wallets: (opts.web3Wallets ?? []).map(web3WalletJSON),
    external_accounts: (opts.externalAccounts ?? []).map((x) => externalAccountJSON(x, emails)),
    passkeys: (opts.passkeys ?? []).map((p) => passkeyJSON(p)),
    saml_accounts: (opts.enterpriseAccounts ?? [])
      .filter((x) => x.protocol === 'saml')
      .map((x) => samlAccountJSON(x, opts.enterpriseConnections ?? {})),
    enterprise_accounts: (opts.enterpriseAccounts ?? []).map((x) =>
      enterpriseAccountJSON(x, opts.enterpriseConnections ?? {}),
    ),
    organization_memberships: opts.organizationMemberships ?? [],
    public_metadata: user.public_metadata,
    unsafe_metadata: user.unsafe_metadata,
    ...(opts.includePrivate
      ? {
          private_metadata: user.private_metadata,
          // Ours, for the Backend API only (as private metadata): an operator's demand for a new password
          // (POST /v1/users/:id/require_password_reset), which the console shows.
          password_reset_required: user.password_reset_required,
        }
      : {}),
    banned: user.banned ?? false,
    locked: user.locked_until !== null && user.locked_until.getTime() > opts.now.getTime(),
    lockout_expires_in_seconds: user.locked_until
      ? Math.max(0, Math.ceil((user.locked_until.getTime() - opts.now.getTime()) / 1000))
      : null,
    verification_attempts_remaining: null,
    create_organization_enabled: user.create_organization_enabled,
    create_organizations_limit: user.create_organizations_limit,
    delete_self_enabled: opts.deleteSelfEnabled && user.delete_self_enabled,
    last_sign_in_at: ms(user.last_sign_in_at),
    last_active_at: ms(user.last_active_at),
    legal_accepted_at: ms(user.legal_accepted_at),
    password_last_updated_at: ms(user.password_updated_at),
    created_at: ms(user.created_at),
    updated_at: ms(user.updated_at),
  };
}

export function publicUserDataJSON(user: UserRow, emails: EmailAddressRow[], images: ImageUrls) {
  const primary = emails.find((e) => e.id === user.primary_email_address_id) ?? emails[0];
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    ...userImageJSON(user, images),
    identifier: primary?.email_address ?? user.username ?? '',
    user_id: user.id,
  };
}
