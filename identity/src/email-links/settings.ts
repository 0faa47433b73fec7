/** The instance's email-link settings (hosted Clerk keeps them in the dashboard's "Email" section). */
export interface EmailLinkSettings {
  /** How long a link works after it is sent (Clerk's: 10 minutes). */
  ttlSeconds: number;
  /**
   * Clerk's "Require the same device and browser": a link opened in another browser than the one that
   * asked for it answers `client_mismatch` and verifies nothing. On by default: a link forwarded to, or
   * phished by, someone else then signs nobody in.
   */
  requireSameClient: boolean;
  /**
   * How `<SignUp/>` verifies the email address: `code` (default) or `link`. clerk-js switches sign-up (and
   * `<UserProfile/>`'s email verification) to links as soon as the environment lists `email_link` among
   * the address's verifications, so this is an instance-wide choice. Sign-in offers both either way.
   */
  signUpVerification: 'code' | 'link';
}

/**
 * `IDENTITY_EMAIL_LINK_TTL_SECONDS` (default 600), `IDENTITY_EMAIL_LINK_REQUIRE_SAME_CLIENT` (`false` lets a
 * link verify from any browser), `IDENTITY_SIGN_UP_EMAIL_VERIFICATION` (`code` or `link`).
 */
export function emailLinkSettingsFromEnv(env: NodeJS.ProcessEnv): EmailLinkSettings {
  const ttl = Number(env.IDENTITY_EMAIL_LINK_TTL_SECONDS ?? 600);
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 24 * 3600) {
    throw new Error('IDENTITY_EMAIL_LINK_TTL_SECONDS must be a whole number of seconds from 1 to 86400.');
  }
  const verification = env.IDENTITY_SIGN_UP_EMAIL_VERIFICATION ?? 'code';
  if (verification !== 'code' && verification !== 'link') {
    throw new Error('IDENTITY_SIGN_UP_EMAIL_VERIFICATION must be "code" or "link".');
  }
  return {
    ttlSeconds: ttl,
    requireSameClient: env.IDENTITY_EMAIL_LINK_REQUIRE_SAME_CLIENT !== 'false',
    signUpVerification: verification,
  };
}
