import { SignIn } from '@clerk/clerk-react';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { Loading } from '../../ui/Loading.tsx';

export function SignInPage() {
  return (
    <section className="auth-page" data-testid="sign-in-page" aria-label="Sign in">
      <title>{`Sign in · ${PRODUCT_NAME}`}</title>
      {/* Hash routing keeps every step (e.g. #/factor-one) on this one react-router route. */}
      <SignIn routing="hash" fallback={<Loading />} />
    </section>
  );
}
