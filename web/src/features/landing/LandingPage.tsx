import { SignedIn, SignedOut } from '@clerk/clerk-react';
import { Link, Navigate } from 'react-router';
import { PRODUCT_NAME } from '../../lib/product.ts';

export function LandingPage() {
  return (
    <>
      {/* Signed-in people have nothing to do here; send them straight to their work. */}
      <SignedIn>
        <Navigate to="/dashboard" replace />
      </SignedIn>
      <SignedOut>
        <section className="landing" data-testid="landing" aria-labelledby="landing-heading">
          <title>{`${PRODUCT_NAME} · Security and compliance for your organisations`}</title>
          <h1 id="landing-heading">{PRODUCT_NAME}</h1>
          <p className="landing__pitch">
            {PRODUCT_NAME} gives each of your organisations one place for its security and compliance work.
            Bring your team into an organisation, then switch on the modules it needs: a virtual security
            officer, compliance, a companion, diagrams and a passport. Every module works per organisation, in
            English or French.
          </p>
          <p className="actions">
            <Link to="/sign-up" className="button" data-testid="sign-up-link">
              Sign up
            </Link>
            <Link to="/sign-in" className="button button--secondary" data-testid="sign-in-link">
              Sign in
            </Link>
          </p>
        </section>
      </SignedOut>
    </>
  );
}
