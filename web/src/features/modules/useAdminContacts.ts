import { useOrganization } from '@clerk/clerk-react';
import { adminContacts, MODULE_MANAGER_ROLES, type AdminContact } from './admin-contacts.ts';

export type AdminContactsState =
  { status: 'loading' } | { status: 'loaded'; contacts: AdminContact[] } | { status: 'error' };

// Enough for any real organisation's admins; the page names them, it does not page through them.
const PAGE_SIZE = 50;
const MEMBERSHIPS = { role: [...MODULE_MANAGER_ROLES], pageSize: PAGE_SIZE, keepPreviousData: true };

/**
 * The active organisation's admins and virtual security officers, read through clerk-js (members may
 * read memberships: `org:sys_memberships:read`), filtered by role on the provider's side.
 */
export function useAdminContacts(): AdminContactsState {
  const { isLoaded, memberships } = useOrganization({ memberships: MEMBERSHIPS });
  if (!isLoaded || !memberships || memberships.isLoading) return { status: 'loading' };
  if (memberships.isError) return { status: 'error' };
  return { status: 'loaded', contacts: adminContacts(memberships.data ?? []) };
}
