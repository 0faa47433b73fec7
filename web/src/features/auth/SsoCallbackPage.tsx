import { AuthenticateWithRedirectCallback } from '@clerk/clerk-react';
import { Loading } from '../../ui/Loading.tsx';

/**
 * Where a social sign-in started by the app's own code (`authenticateWithRedirect({ redirectUrl:
 * '/sso-callback' })`) comes back after the provider: clerk-js finishes it (sign-in, transfer to a
 * sign-up, second factor…) and navigates on. <SignIn/> and <SignUp/> use their own `#/sso-callback` step.
 */
export function SsoCallbackPage() {
  return (
    <section className="auth-page" data-testid="sso-callback-page">
      <Loading />
      <AuthenticateWithRedirectCallback />
    </section>
  );
}
