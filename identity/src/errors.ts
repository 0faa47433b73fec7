/**
 * Errors as values carrying Clerk's machine codes. The human text is separate from the code: clerk-js
 * looks up a localized message by code first and falls back to `long_message`.
 */
export interface ClerkErrorJSON {
  code: string;
  message: string;
  long_message: string;
  meta: Record<string, unknown>;
}

/**
 * Every machine code this provider answers with: the fuzz suites judge an answer's code against this list
 * (a code outside it is a bug), and ClerkError takes no other. Clerk's own codes, so clerk-js and
 * @clerk/backend find their localized messages.
 */
export const CLERK_ERROR_CODES = [
  'actor_token_not_pending',
  'already_a_member_in_organization',
  'api_keys_quota_exceeded',
  'authentication_invalid',
  'backup_codes_not_available',
  'captcha_invalid',
  'captcha_missing_token',
  'captcha_not_enabled',
  'captcha_unavailable',
  'checkout_already_in_progress',
  'checkout_not_confirmable',
  'clerk_key_invalid',
  // A write based on a version of a document that has moved since (the Backend API's instance settings).
  'conflict',
  'default_plan_cannot_be_canceled',
  'dev_browser_unauthenticated',
  'duplicate_record',
  'enterprise_sso_email_address_domain_mismatch',
  'enterprise_sso_user_attribute_missing',
  'external_account_exists',
  'external_account_not_found',
  'external_account_verification_failed',
  'feature_not_enabled',
  'form_code_incorrect',
  'form_identifier_exists',
  'form_identifier_not_found',
  'form_param_format_invalid',
  'form_param_max_length_exceeded',
  'form_param_missing',
  'form_param_nil',
  'form_param_value_invalid',
  'form_password_incorrect',
  'form_password_length_too_short',
  'form_password_not_strong_enough',
  'form_password_pwned',
  'form_password_size_in_bytes_exceeded',
  'form_username_invalid_character',
  'form_username_invalid_length',
  'identification_deletion_failed',
  'identifier_already_signed_in',
  'internal_clerk_error',
  'invalid_plan_change',
  'invitation_account_not_exists',
  'invitation_not_pending',
  'missing_payer_email',
  'no_second_factors',
  'no_session_token',
  'not_allowed_access',
  'not_allowed_to_sign_up',
  'not_supported_by_this_provider',
  'oauth_access_denied',
  'oauth_callback_invalid',
  'organization_creation_limit_exceeded',
  'organization_invitation_not_pending',
  'organization_membership_quota_exceeded',
  'organization_minimum_permissions_needed',
  'origin_invalid',
  'passkey_already_exists',
  'passkey_registration_failure',
  'passkey_verification_failure',
  'payment_gateway_unavailable',
  'payment_source_in_use',
  'payment_source_limit_reached',
  'request_body_invalid',
  'request_method_not_allowed',
  'requires_captcha',
  'resource_not_found',
  'service_unavailable',
  'session_exists',
  'session_reverification_required',
  'sign_in_no_longer_actionable',
  'sign_in_token_not_pending',
  'sign_up_mode_restricted',
  'sign_up_no_longer_actionable',
  'sign_up_restricted_waitlist',
  'strategy_for_user_invalid',
  'ticket_expired_code',
  'ticket_invalid_code',
  'too_many_requests',
  'totp_already_enabled',
  'user_banned',
  'user_locked',
  'verification_expired',
  'verification_failed',
  'verification_missing',
  // The four character classes a password may miss (errors.passwordMissingClass).
  'form_password_no_lowercase',
  'form_password_no_uppercase',
  'form_password_no_number',
  'form_password_no_special_char',
] as const;

export type ClerkErrorCode = (typeof CLERK_ERROR_CODES)[number];

/**
 * A payment gateway's own decline code (card_declined, insufficient_funds…), passed on as Clerk does: the
 * one code not of this list, marked so that no other string slips through as a code.
 */
export type GatewayDeclineCode = string & { readonly __gatewayDecline: true };

/** The codes of the provider's own failures (5xx): never the answer to a bad request. */
export const SERVER_ERROR_CODES: readonly ClerkErrorCode[] = [
  'internal_clerk_error',
  'payment_gateway_unavailable',
  'service_unavailable',
];

/** The codes a bad request may be answered with (4xx). */
export const CLIENT_ERROR_CODES: ReadonlySet<ClerkErrorCode> = new Set(
  CLERK_ERROR_CODES.filter((code) => !SERVER_ERROR_CODES.includes(code)),
);

export class ClerkError extends Error {
  constructor(
    readonly status: number,
    readonly code: ClerkErrorCode | GatewayDeclineCode,
    readonly shortMessage: string,
    readonly longMessage: string,
    readonly meta: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(longMessage);
    this.name = 'ClerkError';
  }

  /** Further errors answered with this one, in the same envelope (every field a document refuses). */
  also: readonly ClerkError[] = [];

  toJSON(): ClerkErrorJSON {
    return { code: this.code, message: this.shortMessage, long_message: this.longMessage, meta: this.meta };
  }
}

const param = (name: string) => ({ param_name: name });

const PASSWORD_CLASS_NAMES = {
  lowercase: 'lowercase letter',
  uppercase: 'uppercase letter',
  number: 'number',
  special_char: 'special character',
} as const;

export const errors = {
  // Social sign-in (OAuth). These travel inside the attempt's verification (`error`) more often than as an
  // answer: the callback is a browser navigation, and clerk-js shows them on <SignIn/> or <SignUp/>.
  oauthAccessDenied: () =>
    new ClerkError(
      422,
      'oauth_access_denied',
      'Access denied',
      'You did not grant access to your account with the provider, so you were not signed in.',
    ),
  oauthCallbackInvalid: () =>
    new ClerkError(
      422,
      'oauth_callback_invalid',
      'Sign-in link invalid',
      'This sign-in with an external provider is invalid, expired or was started in another browser. Please try again.',
    ),
  oauthProviderFailed: () =>
    new ClerkError(
      422,
      'external_account_verification_failed',
      'Verification failed',
      'The provider did not confirm your account. Please try again.',
    ),
  externalAccountNotFound: () =>
    new ClerkError(
      422,
      'external_account_not_found',
      'External account not found',
      'The External Account was not found.',
    ),
  externalAccountExists: () =>
    new ClerkError(
      422,
      'external_account_exists',
      'External account exists',
      'This external account already exists.',
    ),
  notAllowedToSignUp: () =>
    new ClerkError(
      403,
      'not_allowed_to_sign_up',
      'Not allowed to sign up',
      'Sign ups with this provider are not allowed for this application.',
    ),
  /**
   * Sign-up mode `restricted` (docs/sign-up-modes.md): an account is made only from an invitation. clerk-js
   * shows it on <SignIn/>'s card after a social redirect; <SignUp/> shows its "Access restricted" screen.
   */
  signUpModeRestricted: () =>
    new ClerkError(
      403,
      'sign_up_mode_restricted',
      'Sign-ups restricted',
      'Sign-ups are restricted on this application: you can sign up only with an invitation.',
    ),
  /** Sign-up mode `waitlist`: people join the waitlist and sign up from the invitation they are sent. */
  signUpRestrictedWaitlist: () =>
    new ClerkError(
      403,
      'sign_up_restricted_waitlist',
      'Sign-ups unavailable',
      'Sign-ups are currently unavailable. Join the waitlist, and you will be notified when access becomes available.',
    ),
  // Enterprise SSO (SAML, OpenID Connect connections): like the OAuth ones, carried in the verification.
  enterpriseSsoResponseInvalid: () =>
    new ClerkError(
      422,
      'external_account_verification_failed',
      'Verification failed',
      'Your identity provider did not confirm your account. Please try again.',
    ),
  enterpriseSsoEmailDomainMismatch: () =>
    new ClerkError(
      422,
      'enterprise_sso_email_address_domain_mismatch',
      'Email address domain mismatch',
      "The email address your identity provider gave is not at one of this connection's domains.",
    ),
  enterpriseSsoUserAttributeMissing: (attribute: string) =>
    new ClerkError(
      422,
      'enterprise_sso_user_attribute_missing',
      'User attribute missing',
      `Your identity provider did not send the attribute "${attribute}".`,
      { attribute },
    ),
  /**
   * A Google One Tap credential that is not a valid ID token of the instance's Google client (signature,
   * issuer, audience, expiry), or one already used. Hosted Clerk's code is not documented: ours names
   * the `token` parameter, as for any invalid form value.
   */
  googleOneTapTokenInvalid: () =>
    new ClerkError(
      422,
      'form_param_value_invalid',
      'is invalid',
      'The Google sign-in credential is invalid, expired or was already used. Please try again.',
      param('token'),
    ),
  /** A Google One Tap credential whose email address Google does not say is verified. */
  googleOneTapEmailUnverified: () =>
    new ClerkError(
      422,
      'form_param_value_invalid',
      'is invalid',
      'Google has not verified the email address of this account, so it cannot be used to sign in.',
      param('token'),
    ),
  identifierNotFound: () =>
    new ClerkError(
      422,
      'form_identifier_not_found',
      "Couldn't find your account.",
      "Couldn't find your account.",
      param('identifier'),
    ),
  identifierExists: (field: 'email_address' | 'username' | 'phone_number' | 'web3_wallet') =>
    new ClerkError(
      422,
      'form_identifier_exists',
      'That identifier is taken. Please try another.',
      field === 'email_address'
        ? 'That email address is taken. Please try another.'
        : `That ${field.replace('_', ' ')} is taken. Please try another.`,
      param(field),
    ),
  usernameInvalidLength: (min: number, max: number, paramName = 'username') =>
    new ClerkError(
      422,
      'form_username_invalid_length',
      'is invalid',
      `Your username must be between ${min} and ${max} characters long.`,
      param(paramName),
    ),
  usernameInvalidCharacter: (paramName = 'username') =>
    new ClerkError(
      422,
      'form_username_invalid_character',
      'contains invalid characters',
      'Your username can only contain letters, numbers, underscores (_), hyphens (-) and periods (.).',
      param(paramName),
    ),
  /** The last verified email address: without it the account could no longer sign in. */
  identificationDeletionFailed: () =>
    new ClerkError(
      422,
      'identification_deletion_failed',
      'Deletion failed',
      'You cannot delete your last identification.',
    ),
  /** A session token that is not this instance's, has expired, or whose session has ended. */
  sessionTokenInvalid: () =>
    new ClerkError(
      401,
      'authentication_invalid',
      'Invalid session token',
      'The session token is invalid or has expired, or its session has ended.',
    ),
  /**
   * `sessions.refreshSession`: this provider sets no `__refresh` cookie, so no refresh token is ever valid;
   * a 401 is what sends @clerk/backend to the handshake instead.
   */
  refreshTokenInvalid: () =>
    new ClerkError(
      401,
      'authentication_invalid',
      'Invalid refresh token',
      'The refresh token is invalid: this instance issues none, so the session is refreshed through the handshake.',
    ),
  /** What hosted Clerk offers development instances only, for tests (`sessions.createSession`). */
  testingOnly: (what: string) =>
    new ClerkError(
      403,
      'not_allowed_access',
      'Not available in production',
      `${what} is meant for tests and is not available on a production instance.`,
    ),
  /** The operator deletes a user's primary email address: another one must be made primary first. */
  primaryEmailDeletionFailed: () =>
    new ClerkError(
      422,
      'identification_deletion_failed',
      'Deletion failed',
      'You cannot delete the primary email address. Make another verified email address primary first.',
    ),
  /** Self-service deletion is switched off for the instance or this user (`delete_self_enabled`). */
  deleteSelfNotAllowed: () =>
    new ClerkError(403, 'not_allowed_access', 'Not allowed', 'Deleting your account is not allowed.'),
  /** An impersonation session (one with an actor) may not change the user's credentials (fapi/me/actor-guard.ts). */
  credentialChangeWhileImpersonating: () =>
    new ClerkError(
      403,
      'not_allowed_access',
      'Not allowed while impersonating',
      "Someone acting for this user (impersonation) cannot change the account's password, email addresses, phone numbers, second factors or username, or delete it.",
    ),
  /** Removing the password would leave no way to sign in (no verified email address for a code). */
  passwordRemovalNotAllowed: (detail: string) =>
    new ClerkError(422, 'form_param_value_invalid', detail, detail),
  paramFormatInvalid: (name: string, what: string) =>
    new ClerkError(
      422,
      'form_param_format_invalid',
      `${name} must be ${what}.`,
      `${name.replace(/_/g, ' ')} must be ${what}.`,
      param(name),
    ),
  paramMissing: (name: string) =>
    new ClerkError(
      422,
      'form_param_nil',
      'Enter a value.',
      `${name.replace(/_/g, ' ')} is required.`,
      param(name),
    ),
  paramMaxLength: (name: string, max: number) =>
    new ClerkError(
      422,
      'form_param_max_length_exceeded',
      `is too long`,
      `${name.replace(/_/g, ' ')} must not exceed ${max} characters.`,
      param(name),
    ),
  paramValueInvalid: (name: string, detail: string) =>
    new ClerkError(422, 'form_param_value_invalid', detail, detail, param(name)),
  passwordIncorrect: (paramName = 'password') =>
    new ClerkError(
      422,
      'form_password_incorrect',
      'Password is incorrect. Try again, or use another method.',
      'Password is incorrect. Try again, or use another method.',
      param(paramName),
    ),
  passwordTooShort: (min: number, paramName = 'password') =>
    new ClerkError(
      422,
      'form_password_length_too_short',
      `Passwords must be ${min} characters or more.`,
      `Passwords must be ${min} characters or more.`,
      param(paramName),
    ),
  passwordTooLong: (maxBytes: number, paramName = 'password') =>
    new ClerkError(
      422,
      'form_password_size_in_bytes_exceeded',
      'Your password is too long.',
      `Your password has exceeded the maximum number of bytes allowed (${maxBytes}), please shorten it or remove some special characters.`,
      param(paramName),
    ),
  passwordMissingClass: (
    missing: 'lowercase' | 'uppercase' | 'number' | 'special_char',
    paramName = 'password',
  ) =>
    new ClerkError(
      422,
      `form_password_no_${missing}`,
      `Your password must contain at least one ${PASSWORD_CLASS_NAMES[missing]}.`,
      `Your password must contain at least one ${PASSWORD_CLASS_NAMES[missing]}.`,
      param(paramName),
    ),
  passwordPwned: (paramName = 'password') =>
    new ClerkError(
      422,
      'form_password_pwned',
      'Password has been found in an online data breach.',
      'Password has been found in an online data breach. For account safety, please use a different password.',
      param(paramName),
    ),
  passwordNotStrongEnough: (suggestions: string[], paramName = 'password') =>
    new ClerkError(
      422,
      'form_password_not_strong_enough',
      'Given password is not strong enough.',
      'Your password is not strong enough.',
      // clerk-js localises each suggestion by its code (unstable__errors.zxcvbn.suggestions.<code>).
      { ...param(paramName), zxcvbn: { suggestions: suggestions.map((code) => ({ code, message: code })) } },
    ),
  strategyForUserInvalid: () =>
    new ClerkError(
      422,
      'strategy_for_user_invalid',
      'Invalid verification strategy',
      'The verification strategy is not valid for this account.',
      param('strategy'),
    ),
  codeIncorrect: () =>
    new ClerkError(422, 'form_code_incorrect', 'is incorrect', 'Incorrect code', param('code')),
  verificationExpired: () =>
    new ClerkError(
      422,
      'verification_expired',
      'expired',
      'This verification has expired. You must create a new one.',
    ),
  verificationFailed: () =>
    new ClerkError(
      422,
      'verification_failed',
      'Too many failed attempts',
      'Too many failed attempts. You have to try again with the same or another method.',
    ),
  /** A web3 wallet's signature of its nonce that is not by the wallet's address (or not a signature). */
  web3SignatureIncorrect: () =>
    new ClerkError(
      422,
      'form_param_value_invalid',
      'is invalid',
      'The signature was not made by this web3 wallet. Please try again.',
      // No param_name: clerk-js's wallet buttons show field errors nowhere, this one on the card.
    ),
  verificationNotPrepared: () =>
    new ClerkError(
      422,
      'verification_missing',
      'Verification not prepared',
      'Request a new code first: this verification has not been prepared.',
    ),
  /** An authenticator app is already verified: one per user, removed before another is added. */
  totpAlreadyEnabled: () =>
    new ClerkError(
      422,
      'totp_already_enabled',
      'Authenticator app already enabled',
      'An authenticator app is already set up for this account. Remove it before adding another.',
    ),
  /** Backup codes are a fallback for another second factor, never the only one. */
  backupCodesNotAvailable: () =>
    new ClerkError(
      422,
      'backup_codes_not_available',
      'Backup codes not available',
      'In order to use backup codes, you have to enable any other Multi-factor method',
    ),
  noSecondFactors: (strategy: string) =>
    new ClerkError(
      422,
      'no_second_factors',
      'no second factors',
      `No second factors were found for strategy ${strategy}.`,
      param('strategy'),
    ),
  sessionExists: () =>
    new ClerkError(422, 'session_exists', "You're already signed in.", "You're already signed in."),
  /**
   * Multi-session: the account is already signed in on this browser. clerk-js's <SignIn/> switches to
   * `meta.session_id` instead of showing an error.
   */
  identifierAlreadySignedIn: (sessionId: string) =>
    new ClerkError(
      422,
      'identifier_already_signed_in',
      'Already signed in',
      'You are already signed in to this account on this browser.',
      { session_id: sessionId },
    ),
  /**
   * A sensitive action on a session whose last factor verification is too old. clerk-js recognises the
   * code (`useReverification`) and opens <UserVerification/>; `meta.reverification` is the rule in the
   * shape of clerk-js's ReverificationConfig.
   */
  sessionReverificationRequired: (rule: { level: string; afterMinutes: number }) =>
    new ClerkError(
      403,
      'session_reverification_required',
      'Additional verification required',
      'You need to provide additional verification to perform this operation.',
      { reverification: { level: rule.level, afterMinutes: rule.afterMinutes } },
    ),
  notFound: (what = 'resource') =>
    new ClerkError(
      404,
      'resource_not_found',
      `${what} not found`,
      `The requested ${what} could not be found.`,
    ),
  signInNotActionable: () =>
    new ClerkError(
      422,
      'sign_in_no_longer_actionable',
      'This sign-in can no longer be used.',
      'This sign-in attempt has already completed or expired. Start a new one.',
    ),
  signUpNotActionable: () =>
    new ClerkError(
      422,
      'sign_up_no_longer_actionable',
      'This sign-up can no longer be used.',
      'This sign-up attempt has already completed or expired. Start a new one.',
    ),
  // Bot protection (captcha/): clerk-js reloads the environment and retries once on the first three.
  captchaInvalid: () =>
    new ClerkError(
      400,
      'captcha_invalid',
      'Bot validation failed',
      'Sign up unsuccessful due to failed security validations. Please refresh the page to try again or reach out to support for more assistance.',
      param('captcha_token'),
    ),
  captchaNotEnabled: () =>
    new ClerkError(
      400,
      'captcha_not_enabled',
      'Captcha is not enabled',
      'Bot protection is not enabled for this application; no captcha is needed.',
    ),
  captchaMissingToken: () =>
    new ClerkError(
      400,
      'captcha_missing_token',
      'Captcha token missing',
      'This request needs a captcha token and has none. Please refresh the page to try again.',
      param('captcha_token'),
    ),
  /** The browser could not run the captcha (400), or the server could not reach its provider (503). */
  captchaUnavailable: (status: 400 | 503) =>
    new ClerkError(
      status,
      'captcha_unavailable',
      'Captcha unavailable',
      'Sign up unsuccessful due to failed bot validation. Please refresh the page to try again or reach out to support for more assistance.',
    ),
  requiresCaptcha: () =>
    new ClerkError(
      401,
      'requires_captcha',
      'Security verification required',
      'Please complete the security verification to continue.',
    ),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ClerkError(
      429,
      'too_many_requests',
      'Too many requests',
      // clerk-js has no localised text for this code: the card shows this message as it is.
      `Too many requests. Please try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`,
      {},
      { 'retry-after': String(retryAfterSeconds) },
    ),
  /** An operator banned the user (Backend API `users.banUser`): no sign-in by any strategy. */
  userBanned: () =>
    new ClerkError(403, 'user_banned', 'User banned', 'You are not allowed to sign in to this application.'),
  userLocked: (expiresInSeconds: number) =>
    new ClerkError(
      403,
      'user_locked',
      'Account locked',
      `Your account is locked. You will be able to try again in ${Math.ceil(expiresInSeconds / 60)} minutes.`,
      { lockout_expires_in_seconds: expiresInSeconds },
    ),
  permissionDenied: () =>
    new ClerkError(
      403,
      'not_allowed_access',
      'Not allowed',
      'You do not have the permission needed for this action in this organization.',
    ),
  organizationSlugTaken: () =>
    new ClerkError(
      422,
      'form_identifier_exists',
      'That slug is taken. Please try another.',
      'That slug is taken. Please try another.',
      param('slug'),
    ),
  /** `user.create_organization_enabled` is off. */
  organizationCreationNotAllowed: () =>
    new ClerkError(
      403,
      'not_allowed_access',
      'Not allowed',
      'Creating organizations is not allowed for this account.',
    ),
  /** `user.create_organizations_limit` reached (organisations the user created and that still exist). */
  organizationCreationLimitExceeded: (limit: number) =>
    new ClerkError(
      403,
      'organization_creation_limit_exceeded',
      'Organization limit reached',
      `You have exceeded the maximum number of organizations you can create (${limit}).`,
      { create_organizations_limit: limit },
    ),
  /** `organization.admin_delete_enabled` is off. */
  organizationDeleteDisabled: () =>
    new ClerkError(403, 'not_allowed_access', 'Not allowed', 'Deleting this organization is not allowed.'),
  /** An uploaded image (logo, profile image). No param_name: the card shows only such errors. */
  imageInvalid: (detail: string) => new ClerkError(422, 'form_param_value_invalid', 'Invalid image', detail),
  organizationMinimumPermissions: () =>
    new ClerkError(
      403,
      'organization_minimum_permissions_needed',
      'At least one admin is needed',
      'There has to be at least one organization member with the administrator role.',
    ),
  alreadyMember: () =>
    new ClerkError(
      422,
      'already_a_member_in_organization',
      'Already a member',
      'This user is already a member of the organization.',
    ),
  /**
   * The InviteMembersForm reads the address back out of `long_message` for its localized text and drops
   * every address in `meta.email_addresses` from the input.
   */
  alreadyMemberEmail: (email: string) =>
    new ClerkError(
      422,
      'already_a_member_in_organization',
      'Already a member',
      `${email} is already a member of the organization.`,
      { email_addresses: [email] },
    ),
  invitationEmailInvalid: (email: string) =>
    new ClerkError(
      422,
      'form_param_format_invalid',
      'email_address must be a valid email address.',
      `${email} is not a valid email address.`,
      { param_name: 'email_address', email_addresses: [email] },
    ),
  organizationInvitationNotPending: () =>
    new ClerkError(
      422,
      'organization_invitation_not_pending',
      'not pending',
      'This invitation is no longer pending: it has been accepted, revoked, or it has expired.',
    ),
  organizationMembershipQuotaExceeded: (max: number) =>
    new ClerkError(
      422,
      'organization_membership_quota_exceeded',
      'Membership quota exceeded',
      `This organization has reached its limit of ${max} members.`,
    ),
  // Ticket errors carry no param_name: the ticket is no visible field, and clerk-js shows only errors
  // without one as the card's message.
  ticketInvalid: () =>
    new ClerkError(
      422,
      'ticket_invalid_code',
      'Invalid link',
      'This link is no longer valid or has already been used. Ask for a new invitation.',
    ),
  ticketExpired: () =>
    new ClerkError(
      422,
      'ticket_expired_code',
      'Expired link',
      'This link has expired. Ask for a new invitation.',
    ),
  /** An actor token (impersonation link) that was used or revoked, or never existed. */
  actorTokenInvalid: () =>
    new ClerkError(
      422,
      'ticket_invalid_code',
      'Invalid link',
      'This impersonation link is no longer valid or has already been used. Create a new one.',
    ),
  actorTokenExpired: () =>
    new ClerkError(
      422,
      'ticket_expired_code',
      'Expired link',
      'This impersonation link has expired. Create a new one.',
    ),
  /** A sign-in token that was used or revoked, or never existed. */
  signInTokenInvalid: () =>
    new ClerkError(
      422,
      'ticket_invalid_code',
      'Invalid link',
      'This sign-in link is no longer valid or has already been used. Ask for a new one.',
    ),
  signInTokenExpired: () =>
    new ClerkError(
      422,
      'ticket_expired_code',
      'Expired link',
      'This sign-in link has expired. Ask for a new one.',
    ),
  /** Only a pending invitation to the application can be revoked, as for sign-in tokens. */
  invitationNotPending: (status: string) =>
    new ClerkError(
      400,
      'invitation_not_pending',
      'not pending',
      `This invitation cannot be revoked: it is ${status}, and only pending invitations can be.`,
      { status },
    ),
  /** An address that already has an account, or an invitation still open, without `ignore_existing`. */
  invitationDuplicate: (email: string, reason: 'invitation' | 'account') =>
    new ClerkError(
      400,
      'duplicate_record',
      'duplicate record',
      reason === 'invitation'
        ? `There is already a pending invitation for ${email}. Set ignore_existing to invite again.`
        : `An account already exists for ${email}. Set ignore_existing to invite anyway.`,
      { param_name: 'email_address', email_addresses: [email] },
    ),
  /**
   * What only Clerk's hosted service does (accountless applications, proxy checks, beta features, the
   * Svix application behind its webhooks dashboard): a Clerk-shaped refusal saying so, never a bare 404.
   */
  notSupportedByThisProvider: (feature: string, detail: string) =>
    new ClerkError(422, 'not_supported_by_this_provider', 'Not supported by this provider', detail, {
      feature,
    }),
  /** Only a pending sign-in token can be revoked, as for actor tokens. */
  signInTokenNotPending: (status: string) =>
    new ClerkError(
      400,
      'sign_in_token_not_pending',
      'not pending',
      `This sign-in token cannot be revoked: it is ${status}, and only pending sign-in tokens can be.`,
      { status },
    ),
  /** Only a pending actor token can be revoked (Backend API answers 400 for the others). */
  actorTokenNotPending: (status: string) =>
    new ClerkError(
      400,
      'actor_token_not_pending',
      'not pending',
      `This actor token cannot be revoked: it is ${status}, and only pending actor tokens can be.`,
      { status },
    ),
  invitationAccountNotExists: () =>
    new ClerkError(
      422,
      'invitation_account_not_exists',
      'No account for this invitation',
      'There is no account for the invited email address yet. Sign up to accept the invitation.',
    ),
  /** `m2m.createToken` with the instance's secret key: a token is a machine's, made with its key. */
  machineSecretKeyRequired: () =>
    new ClerkError(
      403,
      'not_allowed_access',
      'Machine secret key required',
      'Creating a machine-to-machine token needs the secret key of the machine it is for (machineSecretKey), not the instance secret key.',
    ),
  methodNotAllowed: () =>
    new ClerkError(
      405,
      'request_method_not_allowed',
      'Method not allowed',
      'This method is not allowed on this resource.',
    ),
  bodyInvalid: (detail: string) =>
    new ClerkError(400, 'request_body_invalid', 'Invalid request body', detail),
  /** Clerk has no code of its own for this: its body code, with the status that says why. */
  bodyTooLarge: () =>
    new ClerkError(
      413,
      'request_body_invalid',
      'Request body too large',
      'The request body is larger than this request takes.',
    ),
  /**
   * A state-changing Frontend API call from a page on another origin (cross-site request forgery). clerk-js
   * knows the code: with production keys it rethrows it as "Production Keys are only allowed for domain".
   */
  originInvalid: () =>
    new ClerkError(
      403,
      'origin_invalid',
      'Invalid request origin',
      "The request's Origin header must be this application's origin or one of its allowed origins.",
    ),
  /** The browser's client credential was rotated (a session opened or ended) since this request was made. */
  clientCredentialReplaced: () =>
    new ClerkError(
      401,
      'authentication_invalid',
      'Credential replaced',
      "This browser's credential was replaced when a session opened or ended. Retry with the current one.",
    ),
  /**
   * Development keys: the dev-browser token was replaced (a session opened or ended, possibly on the other
   * domain of a satellite pair). clerk-js 5.90.0 answers this code by dropping its token and asking for a
   * new one (`handleUnauthenticatedDevBrowser`), then loads again.
   */
  devBrowserUnauthenticated: () =>
    new ClerkError(
      401,
      'dev_browser_unauthenticated',
      'Dev browser unauthenticated',
      "This browser's development token was replaced when a session opened or ended. Get a new one.",
    ),
  clerkKeyInvalid: () =>
    new ClerkError(
      401,
      'clerk_key_invalid',
      'Secret key invalid',
      'The provided Clerk Secret Key is invalid. Make sure that your Clerk Secret Key is correct.',
    ),
  unavailable: () =>
    new ClerkError(
      503,
      'service_unavailable',
      'Service unavailable',
      'The service is temporarily unavailable. Please try again shortly.',
      {},
      { 'retry-after': '2' },
    ),
  internal: () =>
    new ClerkError(
      500,
      'internal_clerk_error',
      'Something went wrong',
      'Something went wrong. Please try again.',
    ),
} as const;

export function errorBody(err: ClerkError, extra: Record<string, unknown> = {}) {
  return { errors: [err, ...err.also].map((e) => e.toJSON()), ...extra };
}
