import { useClerk } from '@clerk/clerk-react';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Makes an organisation the active one, as the organisation switcher does (clerk-js `setActive`), then
 * opens its dashboard. The user's memberships are read again first: one made by the product server a
 * moment ago (a new client organisation) is not in clerk-js's copy yet.
 */
export function useSwitchOrganization(): (organizationId: string) => Promise<void> {
  const clerk = useClerk();
  const navigate = useNavigate();
  return useCallback(
    async (organizationId: string) => {
      const known = clerk.user?.organizationMemberships.some((m) => m.organization.id === organizationId);
      if (!known) await clerk.user?.reload();
      await clerk.setActive({ organization: organizationId });
      await navigate('/dashboard');
    },
    [clerk, navigate],
  );
}
