import { useClerk } from '@clerk/clerk-react';
import { useEffect } from 'react';

const RESET_PASSWORD_ROUTE = '#/reset-password';

/**
 * Sends `<SignIn routing="hash">` to its "Set new password" step when the sign-in ends in
 * `needs_new_password` after a password (an operator demanded a new one). clerk-js 5.90.0 goes there by
 * itself only after a reset code; its password card leaves that status unhandled.
 */
export function useNewPasswordStep(): void {
  const clerk = useClerk();
  useEffect(
    () =>
      clerk.addListener(({ client }) => {
        if (client?.signIn.status !== 'needs_new_password') return;
        if (window.location.hash.startsWith(RESET_PASSWORD_ROUTE)) return;
        window.location.hash = RESET_PASSWORD_ROUTE.slice(1);
      }),
    [clerk],
  );
}
