import { useOrganization, useSession, useUser } from '@clerk/clerk-react';
import { useState, type Dispatch } from 'react';
import { productOrganizationFromClerk, productUserFromClerk } from './from-clerk.ts';
import { authEvents, type AuthEvent } from './reducer.ts';

/** The product's view of Clerk at one moment, compared by value (JSON) rather than by object identity. */
interface ClerkView {
  user: string;
  organization: string;
  actorModeEnabled: boolean;
}

/**
 * Mirrors Clerk's user, active organisation and session (actor mode = the session has an actor) into the
 * auth state through its events. Called by the provider that owns the reducer, during its render: React
 * then re-renders the provider at once with the new state, so no page ever sees the state lag behind Clerk
 * (an effect would let every child render once with the old state first).
 *
 * Events are sent only when the product's view of a value changes: clerk-js hands out new resource objects
 * on every client update, and re-sending an unchanged organisation would also undo the metadata the product
 * API merged in (updateOrganizationMetadata).
 */
export function useClerkAuthStateSync(dispatch: Dispatch<AuthEvent>): void {
  const { isLoaded: userLoaded, user } = useUser();
  const { isLoaded: organizationLoaded, organization } = useOrganization();
  const { isLoaded: sessionLoaded, isSignedIn, session } = useSession();
  const [mirrored, setMirrored] = useState<ClerkView | null>(null);

  // Not loaded also covers clerk-js's transitive state while setActive navigates: nothing is sent then.
  if (!userLoaded || !organizationLoaded || !sessionLoaded) return;
  // A pending session (an unfinished task such as choosing an organisation) is not signed in yet.
  const signedIn = isSignedIn === true;
  const productUser = productUserFromClerk(signedIn ? user : null);
  const productOrganization = productOrganizationFromClerk(signedIn ? organization : null);
  const view: ClerkView = {
    user: JSON.stringify(productUser),
    organization: JSON.stringify(productOrganization),
    actorModeEnabled: signedIn && Boolean(session?.actor),
  };
  if (
    mirrored &&
    mirrored.user === view.user &&
    mirrored.organization === view.organization &&
    mirrored.actorModeEnabled === view.actorModeEnabled
  )
    return;

  setMirrored(view);
  // One render applies all of them, so the empty-organisation rule never sees a signed-in user whose
  // organisation has not arrived yet.
  if (mirrored?.user !== view.user) dispatch(authEvents.setUserDetails(productUser));
  if (mirrored?.organization !== view.organization)
    dispatch(authEvents.setOrganizationDetails(productOrganization));
  if (mirrored?.actorModeEnabled !== view.actorModeEnabled)
    dispatch(authEvents.setActorModeEnabled(view.actorModeEnabled));
}
