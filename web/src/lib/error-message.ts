import { isApiErrorCode, type ApiErrorCode } from '@app/contract';
import { isClerkAPIResponseError } from '@clerk/clerk-react/errors';
import type { TFunction } from 'i18next';
import { HttpError } from './http/http-error.ts';

/** i18next's `t`, as `useTranslation()` gives it. */
export type Translate = TFunction;

/**
 * Where the messages of the product API's error codes (the contract's API_ERRORS) live. The server's
 * own message is English only, so the interface shows ours; a code without an entry here (the vCISO
 * console words its own) falls back to the caller's general message.
 */
export const PRODUCT_API_ERROR_KEYS: Readonly<Partial<Record<ApiErrorCode, string>>> = {
  unauthenticated: 'errors.api.unauthenticated',
  forbidden: 'errors.api.forbidden',
  no_active_organization: 'errors.api.noActiveOrganization',
  organization_not_found: 'errors.api.organizationNotFound',
  internal_error: 'errors.api.internalError',
  service_unavailable: 'errors.api.serviceUnavailable',
  invalid_request: 'errors.api.invalidRequest',
  email_address_invalid: 'errors.api.emailAddressInvalid',
  already_member: 'errors.api.alreadyMember',
  already_invited: 'errors.api.alreadyInvited',
  membership_quota_exceeded: 'errors.api.membershipQuotaExceeded',
  not_an_operator: 'errors.api.notAnOperator',
  billing_disabled: 'errors.api.billingDisabled',
  second_factor_required: 'errors.api.secondFactorRequired',
  session_reverification_required: 'errors.api.reverificationRequired',
  resource_not_found: 'errors.api.resourceNotFound',
  change_refused: 'errors.api.changeRefused',
  settings_conflict: 'errors.api.settingsConflict',
  too_many_requests: 'errors.clerk.tooManyRequests',
};

/**
 * The identity provider's (Clerk's) error codes our own screens can meet, e.g. managing members. Its
 * `long_message` is English only; the Clerk components translate these codes themselves.
 */
export const CLERK_ERROR_KEYS: Readonly<Record<string, string>> = {
  organization_minimum_permissions_needed: 'errors.clerk.minimumPermissions',
  already_a_member_in_organization: 'errors.clerk.alreadyMember',
  not_allowed_access: 'errors.clerk.notAllowed',
  resource_not_found: 'errors.clerk.notFound',
  form_param_nil: 'errors.clerk.invalidValue',
  form_param_format_invalid: 'errors.clerk.invalidValue',
  form_param_value_invalid: 'errors.clerk.invalidValue',
  organization_membership_quota_exceeded: 'errors.clerk.membershipQuotaExceeded',
  too_many_requests: 'errors.clerk.tooManyRequests',
};

/** A failure our own code detects, carrying the translation key of its message. */
export class TranslatableError extends Error {
  override name = 'TranslatableError';
  constructor(readonly messageKey: string) {
    super(messageKey);
  }
}

/** The translation key (and its values) that describes `error`, or null when we have none for it. */
export function errorMessageKey(error: unknown): { key: string; values: Record<string, unknown> } | null {
  if (error instanceof TranslatableError) return { key: error.messageKey, values: {} };
  if (error instanceof HttpError) {
    const known = isApiErrorCode(error.code) ? PRODUCT_API_ERROR_KEYS[error.code] : undefined;
    if (known) return { key: known, values: {} };
    // No status: the server was not reached (the client keeps the network failure as the cause) or its
    // answer was not what the product expects.
    if (error.status === null)
      return {
        key: error.cause === undefined ? 'errors.api.unexpectedAnswer' : 'errors.api.unreachable',
        values: {},
      };
    return { key: 'errors.api.failedWithStatus', values: { status: error.status } };
  }
  if (isClerkAPIResponseError(error)) {
    const code = error.errors[0]?.code;
    // The code is the server's: only our own entries, never `constructor` or `toString` of every object.
    const known = code && Object.hasOwn(CLERK_ERROR_KEYS, code) ? CLERK_ERROR_KEYS[code] : undefined;
    return known ? { key: known, values: {} } : null;
  }
  return null;
}

/**
 * What people read about a failure, in the interface language: our message for a known code, else
 * `fallbackKey`'s (never the English text a server or library put in the error).
 */
export function errorMessage(error: unknown, t: Translate, fallbackKey: string): string {
  const described = errorMessageKey(error);
  return described ? t(described.key, described.values) : t(fallbackKey);
}
