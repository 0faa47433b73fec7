import { OrganizationSwitcher } from '@clerk/clerk-react';
import { organizationProfileAppearance } from './organization-profile-appearance.ts';

/** Clerk's switcher in the header; its "Manage" modal is the same organisation profile as /organization. */
export function OrganizationSwitcherSlot() {
  return (
    // Clerk components take no data attributes, hence the wrapper.
    <span className="org-switcher" data-testid="org-switcher">
      <OrganizationSwitcher
        hidePersonal
        afterSelectOrganizationUrl="/dashboard"
        afterCreateOrganizationUrl="/dashboard"
        afterLeaveOrganizationUrl="/dashboard"
        // The slug is the provider's, transliterated from the name (see CreateOrganizationPage).
        hideSlug
        organizationProfileProps={{ appearance: organizationProfileAppearance }}
      />
    </span>
  );
}
