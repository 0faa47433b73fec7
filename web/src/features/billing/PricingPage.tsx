import { PricingTable, useClerk } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '../../app/AppConfigContext.tsx';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { selectIsSignedIn } from '../../state/auth/selectors.ts';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { userPlansOffered } from './user-plans-offered.ts';

/**
 * /pricing — the plans, with Clerk's own <PricingTable/> (docs/billing.md). First the organisation plans,
 * both ways (`forOrganizations`): the product bills organisations. Public: signed out, the plans show and
 * choosing one asks to sign in; signed in, they are the active organisation's, and choosing one opens
 * clerk-js's checkout drawer for members allowed to manage billing (others see the plans but no button to
 * buy). Then, for a signed-in user and only where the instance has user plans, the user's own plans: a
 * visitor's choice is for an organisation, so a visitor is not shown personal plans.
 */
export function PricingPage() {
  const { t } = useTranslation();
  const { billing } = useAppConfig();
  const auth = useAuthState();
  const clerk = useClerk();
  const showUserPlans = selectIsSignedIn(auth) && userPlansOffered(clerk);
  return (
    <section className="clerk-page" data-testid="pricing-page" aria-labelledby="pricing-heading">
      <PageTitle>{t('billing.title')}</PageTitle>
      <h1 id="pricing-heading">{t('billing.title')}</h1>
      {billing?.enabled ? (
        <>
          <section data-testid="pricing-organization" aria-labelledby="pricing-organization-heading">
            <h2 id="pricing-organization-heading">{t('billing.organizationPlans')}</h2>
            <p className="muted">
              {auth.organization ? t('billing.introSignedIn') : t('billing.introSignedOut')}
            </p>
            <PricingTable forOrganizations newSubscriptionRedirectUrl="/dashboard" fallback={<Loading />} />
          </section>
          {showUserPlans && (
            <section data-testid="pricing-user" aria-labelledby="pricing-user-heading">
              <h2 id="pricing-user-heading">{t('billing.userPlans')}</h2>
              <p className="muted">{t('billing.introUser')}</p>
              <PricingTable fallback={<Loading />} />
            </section>
          )}
        </>
      ) : (
        <div className="status" role="status" data-testid="pricing-unavailable">
          <p>{t('billing.unavailable')}</p>
          <p>
            <Link to="/">{t('billing.back')}</Link>
          </p>
        </div>
      )}
    </section>
  );
}
