import { ClerkError, errors } from '../errors.ts';

/**
 * The API-key refusals of their own. clerk-js 5.90.0's <APIKeys/> recognises a duplicate name by its
 * status alone (409 → "API Key name already exists" on the card); the code is Clerk's for a duplicate.
 */
export const apiKeyErrors = {
  nameTaken: () =>
    new ClerkError(
      409,
      'duplicate_record',
      'API Key name already exists',
      'An API key with this name already exists for this subject.',
      { param_name: 'name' },
    ),
  /** Spec §7: a subject holds at most this many keys that are not revoked (the list shows 100). */
  limitReached: (max: number) =>
    new ClerkError(
      403,
      'api_keys_quota_exceeded',
      'Too many API keys',
      `This subject already holds ${max} API keys. Revoke one before creating another.`,
      { max },
    ),
  /** An API-key call of the Frontend API without `Authorization: Bearer <session token>`. */
  noSessionToken: () =>
    new ClerkError(401, 'no_session_token', 'No session token', 'No valid session token available.'),
  /** A session token that does not verify, has expired, or names a session that is no longer active. */
  sessionTokenInvalid: () => errors.sessionTokenInvalid(),
  /**
   * An impersonation session (its token has `act`) may look at the keys but not create, reveal or revoke
   * one: a key outlives the impersonation and would go on acting for the user. Clerk's code for what an
   * actor may not do, as the credential guard answers (fapi/me/actor-guard.ts).
   */
  actorForbidden: () =>
    new ClerkError(
      403,
      'not_allowed_access',
      'Not allowed while impersonating',
      'Someone acting for this user (impersonation) cannot create, reveal or revoke API keys.',
    ),
  /** The instance has API keys switched off (or this kind of subject). */
  disabled: () =>
    new ClerkError(
      403,
      'feature_not_enabled',
      'API keys are off',
      'API keys are not enabled for this instance.',
    ),
};
