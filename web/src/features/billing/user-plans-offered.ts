import type { useClerk } from '@clerk/clerk-react';

/**
 * The slice of clerk-js's environment this page reads: `commerce_settings.billing.user`, as clerk-js's
 * `CommerceSettings` resource holds it. Not in `LoadedClerk`'s public type (clerk-js exposes the environment
 * as `__unstable__environment`), hence this one narrow, guarded read.
 */
interface EnvironmentWithBilling {
  commerceSettings?: { billing?: { user?: { enabled?: boolean } } };
}

/**
 * Whether the instance offers plans to users for themselves: the flag clerk-js itself uses to show the
 * Billing page of <UserProfile/> (`billing.user.enabled`, set when a visible user plan exists), so the
 * pricing page and the profile always agree. Read from the environment clerk-js has already loaded — no
 * request of its own — and the same against hosted Clerk as against the embedded provider (the app config
 * knows only the embedded provider's settings). False until clerk-js has loaded.
 */
export function userPlansOffered(clerk: ReturnType<typeof useClerk>): boolean {
  if (!clerk.loaded) return false;
  const environment = (clerk as unknown as { __unstable__environment?: EnvironmentWithBilling | null })
    .__unstable__environment;
  return environment?.commerceSettings?.billing?.user?.enabled === true;
}
