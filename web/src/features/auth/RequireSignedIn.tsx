import type { ReactNode } from 'react';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';

/**
 * Shows a signed-in page only to a signed-in user. It never redirects: the navigation rule decides where
 * a signed-out visitor goes (sign-in, or the after-sign-out page when the session just ended here).
 */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  return useAuthState().user ? children : null;
}
