import type { SignUpSettings } from './sign-up-settings.ts';

/**
 * The environment's part of the sign-up mode and legal consent (docs/sign-up-modes.md). clerk-js reads
 * `user_settings.sign_up.mode` (<SignUp/>'s "Access restricted" screen, <SignIn/>'s "Join waitlist"
 * link and its combined flow sending unknown addresses to the waitlist), `legal_consent_enabled` (the
 * terms checkbox) and `display_config.terms_url` / `privacy_policy_url` (its links). The waitlist page is
 * the app's `/waitlist`, as `waitlistUrl` on <ClerkProvider/> says too.
 */
export function signUpEnvironmentJSON(settings: SignUpSettings | undefined, url: (path: string) => string) {
  const mode = settings?.mode ?? 'public';
  const consent = settings?.legalConsent;
  return {
    mode,
    legalConsentEnabled: consent?.enabled ?? false,
    display: {
      waitlist_url: mode === 'waitlist' ? url('/waitlist') : '',
      after_join_waitlist_url: '',
      terms_url: consent?.enabled ? (consent.termsUrl ?? '') : '',
      privacy_policy_url: consent?.enabled ? (consent.privacyPolicyUrl ?? '') : '',
    },
  };
}
