import { useUser } from '@clerk/clerk-react';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { ComingNext } from './ComingNext.tsx';
import { OrganizationCard } from './OrganizationCard.tsx';
import { ProductApiCard } from './ProductApiCard.tsx';

export function DashboardPage() {
  const { user } = useUser();
  // clerk-js joins first and last name, which yields an empty string when neither is set.
  const fullName = user?.fullName?.trim() || null;
  const email = user?.primaryEmailAddress?.emailAddress ?? null;

  return (
    <div className="dashboard" data-testid="dashboard">
      <title>{`Dashboard · ${PRODUCT_NAME}`}</title>
      <section className="dashboard__welcome" aria-labelledby="dashboard-heading">
        <h1 id="dashboard-heading">
          {fullName ? (
            <>
              Welcome, <span data-testid="user-name">{fullName}</span>
            </>
          ) : (
            'Welcome'
          )}
        </h1>
        {email && (
          <p className="muted">
            Signed in as <span data-testid="user-email">{email}</span>
          </p>
        )}
      </section>
      <div className="dashboard__grid">
        <OrganizationCard />
        <ProductApiCard />
        <ComingNext />
      </div>
    </div>
  );
}
