import type { AuthState } from '../../state/auth/types.ts';

export const CREATE_ORGANIZATION_PATH = '/create-organization';
/** Where signed-in people work; the landing page sends them here. */
export const HOME_PATH = '/dashboard';
/** clerk-js's afterSignOutUrl: where a lost session ends, whoever noticed it first. */
export const AFTER_SIGN_OUT_PATH = '/';
const LANDING_PATH = '/';

/**
 * Pages where a signed-in user without an organisation can get one: creating it, or (on the list)
 * accepting an invitation. The rule does not send people away from these.
 */
export const ORGANIZATION_CHOICE_PATHS: readonly string[] = [CREATE_ORGANIZATION_PATH, '/organizations'];

/** Signed-in pages about the user alone: the rule neither activates nor asks for an organisation there. */
export const ORGANIZATION_FREE_PATHS: readonly string[] = ['/oauth/consent', '/authorized-applications'];

/** Signed-in sections about the instance, not an organisation (the operator console): the same, below them. */
export const ORGANIZATION_FREE_SECTIONS: readonly string[] = ['/console'];

const isOrganizationFree = (pathname: string) =>
  ORGANIZATION_FREE_PATHS.includes(pathname) ||
  ORGANIZATION_FREE_SECTIONS.some((section) => pathname === section || pathname.startsWith(`${section}/`));

/**
 * Who a route is for, declared on the route (see route-access.ts):
 * - `public`: anyone (landing, help, not found);
 * - `signed-in`: a signed-in user only;
 * - `identity`: clerk-js's own pages (sign-in, sign-up, session tasks). clerk-js navigates from these by
 *   itself (already signed in, ticket links, finished sign-in, tasks), so the rule never acts there.
 */
export type RouteAccess = 'public' | 'signed-in' | 'identity';

export interface NavigationInput {
  state: AuthState;
  /**
   * The page of the session's current task (clerk-js `buildTasksUrl`, e.g. `/tasks/choose-organization`)
   * when the session is pending; null otherwise. clerk-js goes there by itself only when a session is made
   * active (sign-in, sign-up, a switch); a pending session that opens a page later is sent there by the rule.
   */
  pendingTaskUrl: string | null;
  pathname: string;
  access: RouteAccess;
  /**
   * The session ended while this very page (history entry) was shown: sign-out, account deletion or a
   * session revoked elsewhere. clerk-js then goes to the after-sign-out page; sign-in is not asked for.
   */
  sessionEndedHere: boolean;
}

export type NavigationAction =
  | { type: 'none' }
  /** Make this organisation active (clerk-js `setActive({ organization })`); no navigation. */
  | { type: 'activateOrganization'; organizationId: string }
  /** Go there, replacing the current history entry. */
  | { type: 'navigate'; to: string }
  /** clerk-js's sign-in page, with a way back here once signed in. */
  | { type: 'signIn' };

const NONE: NavigationAction = { type: 'none' };
const normalise = (pathname: string) => pathname.replace(/\/+$/, '') || '/';

/**
 * The one place that decides where the app sends someone, from the auth state and the page. Pure, so
 * every entry route and every state has one answer, and no two components compete to navigate.
 *
 * Spec §2 and §4: signed out on a signed-in page → sign-in; signed in on the landing page → their work;
 * a pending session on either → its task (its work is to finish it); organisation details empty → the first
 * membership's organisation becomes active, or with none the user goes to (and stays on) the
 * create-organisation screen.
 */
export function decideNavigation(input: NavigationInput): NavigationAction {
  const { state, access } = input;
  if (access === 'identity') return NONE;
  const pathname = normalise(input.pathname);

  // Pending is not signed in yet (the auth state has no user), but it is not a visitor either.
  if (input.pendingTaskUrl !== null) {
    const leadsToWork = access === 'signed-in' || pathname === LANDING_PATH;
    return leadsToWork ? { type: 'navigate', to: input.pendingTaskUrl } : NONE;
  }

  if (!state.user) {
    if (access !== 'signed-in') return NONE;
    return input.sessionEndedHere ? { type: 'navigate', to: AFTER_SIGN_OUT_PATH } : { type: 'signIn' };
  }

  if (isOrganizationFree(pathname)) return NONE;
  const hasOrganization = state.organization !== null || state.user.organizationMemberships.length > 0;
  if (pathname === LANDING_PATH)
    return { type: 'navigate', to: hasOrganization ? HOME_PATH : CREATE_ORGANIZATION_PATH };
  if (state.organization) return NONE;
  const first = state.user.organizationMemberships[0];
  if (first) return { type: 'activateOrganization', organizationId: first.organization.id };
  if (ORGANIZATION_CHOICE_PATHS.includes(pathname)) return NONE;
  return { type: 'navigate', to: CREATE_ORGANIZATION_PATH };
}
