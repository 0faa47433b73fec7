import { SignUp } from '@clerk/clerk-react';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { Loading } from '../../ui/Loading.tsx';

export function SignUpPage() {
  return (
    <section className="auth-page" data-testid="sign-up-page" aria-label="Sign up">
      <title>{`Sign up · ${PRODUCT_NAME}`}</title>
      {/* Hash routing keeps every step (e.g. #/verify-email-address) on this one react-router route. */}
      <SignUp routing="hash" fallback={<Loading />} />
    </section>
  );
}
