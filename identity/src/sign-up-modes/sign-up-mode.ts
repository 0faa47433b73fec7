import { errors, type ClerkError } from '../errors.ts';
import type { InstanceSettings } from '../instance/settings/schema.ts';

type Settings = Pick<InstanceSettings, 'signUp'>;

export const signUpModeOf = (settings: Settings) => settings.signUp?.mode ?? 'public';

export const legalConsentRequired = (settings: Settings) => settings.signUp?.legalConsent.enabled ?? false;

/**
 * What a sign-up without an invitation gets in this mode: nothing in public mode, else the error clerk-js
 * knows (`sign_up_mode_restricted`, `sign_up_restricted_waitlist`; core/constants.ts ERROR_CODES).
 * As in hosted Clerk, an invitation ticket opens sign-up in both modes, and so does an enterprise
 * connection (its IdP vouches for the person); accounts made through the Backend API need neither.
 */
export function signUpModeRefusal(settings: Settings): ClerkError | null {
  switch (signUpModeOf(settings)) {
    case 'restricted':
      return errors.signUpModeRestricted();
    case 'waitlist':
      return errors.signUpRestrictedWaitlist();
    default:
      return null;
  }
}

/** Throws the mode's refusal unless the sign-up is opened by an invitation or an enterprise connection. */
export function assertMaySignUp(settings: Settings, opened: { ticket: boolean; enterprise: boolean }): void {
  if (opened.ticket || opened.enterprise) return;
  const refusal = signUpModeRefusal(settings);
  if (refusal) throw refusal;
}
