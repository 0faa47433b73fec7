import { useAuthState } from '../state/auth/AuthStateProvider.tsx';

/** Spec §6: a session with an actor (impersonation) shows a banner. */
export function ImpersonationBanner() {
  if (!useAuthState().actorModeEnabled) return null;
  return (
    <p className="impersonation-banner" role="status" data-testid="impersonation-banner">
      You are signed in as this user on their behalf (impersonation). Everything you do is done as them.
    </p>
  );
}
