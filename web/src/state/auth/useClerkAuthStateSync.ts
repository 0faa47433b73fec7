import { useOrganization, useSession, useUser } from '@clerk/clerk-react';
import { useLayoutEffect, useRef, useState, type Dispatch } from 'react';
import { productOrganizationFromClerk, productUserFromClerk } from './from-clerk.ts';
import { authEvents, type AuthEvent } from './reducer.ts';
import type { ProductOrganization, ProductUser } from './types.ts';

/** The product's view of Clerk at one moment, as JSON so that it compares by value, not by object identity. */
interface ClerkView {
  user: string;
  organization: string;
  actorModeEnabled: boolean;
}

const sameView = (a: ClerkView | null, b: ClerkView | null) =>
  a !== null &&
  b !== null &&
  a.user === b.user &&
  a.organization === b.organization &&
  a.actorModeEnabled === b.actorModeEnabled;

/**
 * Mirrors Clerk's user, active organisation and session (actor mode = the session has an actor) into the
 * auth state through its events, from a layout effect: never while rendering, and still before the browser
 * paints, so nobody sees a page drawn from a state that lags behind Clerk.
 *
 * Returns whether the state reflects Clerk as of this render. It does not while an event is on its way
 * and while clerk-js is in its transitive state (it navigates during setActive and sign-out and only then
 * publishes who is signed in): whoever acts on the state (the navigation rule) waits for true.
 *
 * Events are sent only when the product's view of a value changes: clerk-js hands out new resource objects
 * on every client update, and re-sending an unchanged organisation would also undo the metadata the product
 * API merged in (updateOrganizationMetadata).
 */
export function useClerkAuthStateSync(dispatch: Dispatch<AuthEvent>): boolean {
  const { isLoaded: userLoaded, user } = useUser();
  const { isLoaded: organizationLoaded, organization } = useOrganization();
  const { isLoaded: sessionLoaded, isSignedIn, session } = useSession();
  const [mirrored, setMirrored] = useState<ClerkView | null>(null);
  const sent = useRef<ClerkView | null>(null);

  let view: ClerkView | null = null;
  if (userLoaded && organizationLoaded && sessionLoaded) {
    // A pending session (an unfinished task such as choosing an organisation) is not signed in yet.
    const signedIn = isSignedIn === true;
    view = {
      user: JSON.stringify(productUserFromClerk(signedIn ? user : null)),
      organization: JSON.stringify(productOrganizationFromClerk(signedIn ? organization : null)),
      actorModeEnabled: signedIn && Boolean(session?.actor),
    };
  }
  const userJson = view?.user ?? null;
  const organizationJson = view?.organization ?? null;
  const actorModeEnabled = view?.actorModeEnabled ?? null;

  useLayoutEffect(() => {
    if (userJson === null || organizationJson === null || actorModeEnabled === null) return;
    const next: ClerkView = { user: userJson, organization: organizationJson, actorModeEnabled };
    const previous = sent.current;
    if (sameView(previous, next)) return;
    sent.current = next;
    // All in one effect, so React applies them in one render: the navigation rule never sees a signed-in
    // user whose organisation has not arrived yet.
    if (previous?.user !== next.user)
      dispatch(authEvents.setUserDetails(JSON.parse(next.user) as ProductUser | null));
    if (previous?.organization !== next.organization)
      dispatch(
        authEvents.setOrganizationDetails(JSON.parse(next.organization) as ProductOrganization | null),
      );
    if (previous?.actorModeEnabled !== next.actorModeEnabled)
      dispatch(authEvents.setActorModeEnabled(next.actorModeEnabled));
    setMirrored(next);
  }, [dispatch, userJson, organizationJson, actorModeEnabled]);

  return sameView(mirrored, view);
}
