import { useClerk, useSession } from '@clerk/clerk-react';
import { useEffect, useRef } from 'react';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { useAuthState, useAuthStateInSync } from '../../state/auth/AuthStateProvider.tsx';
import { decideNavigation } from './navigation-rule.ts';
import { routeAccess } from './route-access.ts';

/**
 * Carries out decideNavigation whenever the auth state or the page changes. The only component that
 * redirects on its own: pages and guards only render. It acts only on a state that matches Clerk, so
 * never during clerk-js's own navigations (setActive, sign-out), which publish the new state afterwards.
 */
export function NavigationRule() {
  const state = useAuthState();
  const inSync = useAuthStateInSync();
  const { session } = useSession();
  const { pathname, key } = useLocation();
  const access = routeAccess(useMatches());
  const navigate = useNavigate();
  const clerk = useClerk();
  // buildTasksUrl answers the app's own task page (ClerkProvider's taskUrls).
  const pendingTaskUrl = session?.status === 'pending' && session.currentTask ? clerk.buildTasksUrl() : null;
  // The history entry last shown with a signed-in user: losing the session there is a sign-out.
  const signedInOn = useRef<string | null>(null);
  // The organisation whose activation was started; kept after a failure so it is not retried in a loop.
  const activating = useRef<string | null>(null);

  useEffect(() => {
    if (!inSync) return;
    if (state.user) signedInOn.current = key;
    const action = decideNavigation({
      state,
      pendingTaskUrl,
      pathname,
      access,
      sessionEndedHere: !state.user && signedInOn.current === key,
    });
    if (action.type !== 'activateOrganization') activating.current = null;
    switch (action.type) {
      case 'none':
        return;
      case 'navigate':
        void navigate(action.to, { replace: true });
        return;
      case 'signIn':
        void clerk.redirectToSignIn();
        return;
      case 'activateOrganization': {
        const { organizationId } = action;
        if (activating.current === organizationId) return;
        activating.current = organizationId;
        clerk.setActive({ organization: organizationId }).catch((error: unknown) => {
          console.error(`Could not make organisation ${organizationId} active.`, error);
        });
      }
    }
  }, [inSync, state, pendingTaskUrl, pathname, key, access, navigate, clerk]);

  return null;
}
