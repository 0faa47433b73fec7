import type { ClerkErrorJSON } from '../errors.ts';
import type { ExternalIdentity } from '../social/external-identity.ts';
import type { VouchedEnterpriseIdentity } from '../enterprise-sso/enterprise-identity.ts';
/** Row shapes as the database returns them (timestamps as Date, JSON columns parsed). */
export interface UserRow {
  id: string;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  password_hash: string | null;
  primary_email_address_id: string | null;
  primary_phone_number_id: string | null;
  /** Web3 wallets (020_web3_wallets.sql): the wallet shown first in <UserProfile/>. */
  primary_web3_wallet_id?: string | null;
  /** The profile image's id (its bytes are in user_images); null for the default image. */
  image_id: string | null;
  public_metadata: Record<string, unknown>;
  private_metadata: Record<string, unknown>;
  unsafe_metadata: Record<string, unknown>;
  create_organization_enabled: boolean;
  create_organizations_limit: number | null;
  delete_self_enabled: boolean;
  failed_verification_attempts: number;
  locked_until: Date | null;
  /** When the last failed password or code was counted (the progressive delay runs from it). */
  last_failed_verification_at: Date | null;
  /** The lock was reached by failed attempts, not set by an operator. */
  locked_by_failures: boolean;
  /** An operator demands a new password: a correct one leads to `needs_new_password`. */
  password_reset_required: boolean;
  /** An operator's ban (031_user_bans.sql): no sign-in by any strategy. */
  banned?: boolean;
  last_sign_in_at: Date | null;
  last_active_at: Date | null;
  legal_accepted_at: Date | null;
  password_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface EmailAddressRow {
  id: string;
  user_id: string;
  email_address: string;
  verified_at: Date | null;
  verification_strategy: string | null;
  /** The pending code verification of an address added from the profile; null once verified. */
  verification: VerificationState | null;
  created_at: Date;
  updated_at: Date;
}

export interface ClientRow {
  id: string;
  sign_in_id: string | null;
  sign_up_id: string | null;
  last_active_session_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type SessionStatus =
  'active' | 'pending' | 'ended' | 'removed' | 'replaced' | 'revoked' | 'expired' | 'abandoned';

export interface SessionRow {
  id: string;
  client_id: string;
  user_id: string;
  status: SessionStatus;
  last_active_organization_id: string | null;
  actor: Record<string, unknown> | null;
  first_factor_verified_at: Date;
  /** Null until the session passes a second factor (sign-in or re-verification). */
  second_factor_verified_at: Date | null;
  /** A re-verification was started and has not completed: gated actions wait for it (reverification/). */
  reverification_requested: boolean;
  expire_at: Date;
  abandon_at: Date;
  last_active_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** Stored verification state; serialised as Clerk's VerificationJSON (ms timestamps). */
export interface VerificationState {
  status: 'unverified' | 'verified' | 'failed' | 'expired' | 'transferable';
  strategy: string | null;
  attempts: number | null;
  expire_at: number | null;
  /** Email links: the client (browser) that opened the link; clerk-js compares it with its own. */
  verified_at_client?: string | null;
  /** Social sign-in: the provider's authorization URL clerk-js sends the browser to. */
  external_verification_redirect_url?: string | null;
  /** Why a social sign-in failed or must be transferred (`oauth_access_denied`, `external_account_exists`). */
  error?: ClerkErrorJSON | null;
  /** Web3 wallets: the one-time nonce the wallet signs (clerk-js reads it as `message`). */
  message?: string | null;
}

export type SignInStatus =
  'needs_identifier' | 'needs_first_factor' | 'needs_second_factor' | 'needs_new_password' | 'complete';

export interface SignInRow {
  id: string;
  client_id: string;
  status: SignInStatus;
  identifier: string | null;
  user_id: string | null;
  first_factor_verification: VerificationState | null;
  second_factor_verification: VerificationState | null;
  created_session_id: string | null;
  /** Social sign-in: who the provider said came back, kept for the transfer to a sign-up. */
  external_identity: ExternalIdentity | null;
  /** Enterprise SSO: the connection the identifier's domain belongs to; its IdP is the only first factor. */
  enterprise_connection_id: string | null;
  /**
   * Enterprise SSO: a newcomer the IdP vouched for, kept for the transfer to a sign-up while the legal
   * consent the instance requires is missing (028_sign_up_captcha_and_enterprise_consent.sql).
   */
  enterprise_identity?: VouchedEnterpriseIdentity | null;
  abandon_at: Date;
  created_at: Date;
  updated_at: Date;
}

export type SignUpStatus = 'missing_requirements' | 'complete' | 'abandoned';

export interface SignUpRow {
  id: string;
  client_id: string;
  status: SignUpStatus;
  username: string | null;
  email_address: string | null;
  email_verification: VerificationState | null;
  /** E.164; optional at sign-up, verified by an SMS code before the account exists. */
  phone_number: string | null;
  phone_verification: VerificationState | null;
  first_name: string | null;
  last_name: string | null;
  password_hash: string | null;
  unsafe_metadata: Record<string, unknown>;
  legal_accepted_at: Date | null;
  created_user_id: string | null;
  created_session_id: string | null;
  /** Social sign-up: who the provider said came back; the user is created with that account linked. */
  external_identity: ExternalIdentity | null;
  /** `verifications.external_account`: the redirect to the provider, then its outcome. */
  external_account_verification: VerificationState | null;
  /** Web3 sign-up: the wallet's address (EIP-55) and its signature verification (020_web3_wallets.sql). */
  web3_wallet?: string | null;
  web3_wallet_verification?: VerificationState | null;
  /** The address is at this enterprise connection's domain: its IdP verifies the sign-up. */
  enterprise_connection_id: string | null;
  /** Legal consent was asked when the sign-up started (026_waitlist.sql): `legal_accepted` is required. */
  legal_consent_required?: boolean;
  /**
   * Let in without a captcha on the word of a provider the captcha trusts (`captcha.oauthBypass`), which
   * has not vouched yet: any other way to complete it asks for the captcha first (fapi/captcha/sign-up-captcha.ts).
   */
  captcha_deferred?: boolean;
  /** A newcomer an enterprise IdP vouched for, transferred from its sign-in: linked when the user is made. */
  enterprise_identity?: VouchedEnterpriseIdentity | null;
  /** Given by the operator (`signUps.update`, 035_sign_up_external_id.sql); the user gets it on completion. */
  external_id?: string | null;
  custom_action?: boolean;
  abandon_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  image_type: string | null;
  public_metadata: Record<string, unknown>;
  private_metadata: Record<string, unknown>;
  max_allowed_memberships: number;
  admin_delete_enabled: boolean;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface MembershipRow {
  id: string;
  organization_id: string;
  user_id: string;
  role: string;
  public_metadata: Record<string, unknown>;
  private_metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationRow {
  id: string;
  organization_id: string;
  email_address: string;
  role: string;
  status: InvitationStatus;
  inviter_user_id: string | null;
  public_metadata: Record<string, unknown>;
  private_metadata: Record<string, unknown>;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** Clerk's actor token statuses; a pending token past `expires_at` stays pending but can no longer be used. */
export type ActorTokenStatus = 'pending' | 'accepted' | 'revoked';

export interface ActorTokenRow {
  id: string;
  user_id: string;
  /** The `actor` object as given (at least `sub`); copied into the session and its tokens' `act` claim. */
  actor: Record<string, unknown> & { sub: string };
  status: ActorTokenStatus;
  expires_at: Date;
  session_max_duration_seconds: number;
  /** The session it opened, once accepted. */
  session_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type SignInTokenStatus = 'pending' | 'accepted' | 'revoked';

/** A sign-in token (Clerk's SignInToken): a one-time ticket for `user_id`; only its hash is stored. */
export interface SignInTokenRow {
  id: string;
  user_id: string;
  status: SignInTokenStatus;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A user's authenticator app: the sealed TOTP secret, pending until a first code verifies it. */
export interface TotpSecretRow {
  id: string;
  user_id: string;
  sealed_secret: string;
  verified_at: Date | null;
  last_used_step: number | null;
  created_at: Date;
  updated_at: Date;
}
