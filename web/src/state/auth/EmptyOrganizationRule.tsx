import { useClerk } from '@clerk/clerk-react';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAuthState } from './AuthStateProvider.tsx';
import { CREATE_ORGANIZATION_PATH, decideEmptyOrganizationAction } from './empty-organization-rule.ts';

/** Applies the empty-organisation rule (spec §4) whenever the auth state or the page changes. */
export function EmptyOrganizationRule() {
  const state = useAuthState();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const clerk = useClerk();
  const action = decideEmptyOrganizationAction(state, pathname);
  const organizationToActivate = action.type === 'activateOrganization' ? action.organizationId : null;
  const goToCreateOrganization = action.type === 'goToCreateOrganization';
  // The organisation whose activation was started; kept after a failure so it is not retried in a loop.
  const activating = useRef<string | null>(null);

  useEffect(() => {
    if (goToCreateOrganization) {
      void navigate(CREATE_ORGANIZATION_PATH, { replace: true });
      return;
    }
    if (!organizationToActivate) {
      activating.current = null;
      return;
    }
    if (activating.current === organizationToActivate) return;
    activating.current = organizationToActivate;
    clerk.setActive({ organization: organizationToActivate }).catch((error: unknown) => {
      console.error(`Could not make organisation ${organizationToActivate} active.`, error);
    });
  }, [clerk, navigate, goToCreateOrganization, organizationToActivate]);

  return null;
}
