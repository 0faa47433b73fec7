import { SignedIn } from '@clerk/clerk-react';
import type { ReactNode } from 'react';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';

/**
 * Shows a signed-in page only to a signed-in user. It never redirects: the navigation rule decides where
 * a signed-out visitor goes (sign-in, or the after-sign-out page when the session just ended here).
 * Clerk's <SignedIn> also hides the page during clerk-js's transitive state (switching accounts or
 * organisations), so the page mounts again for the new session rather than keeping the old one's data.
 */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { user } = useAuthState();
  return <SignedIn>{user ? children : null}</SignedIn>;
}
