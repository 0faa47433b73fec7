import { PricingTable } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '../../app/AppConfigContext.tsx';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';

/**
 * /pricing — the organisation plans, with Clerk's own <PricingTable/> (docs/billing.md). Public: signed out,
 * the plans show and choosing one asks to sign in; signed in, they are the active organisation's, and
 * choosing one opens clerk-js's checkout drawer for members allowed to manage billing (others see the plans
 * but no button to buy). The plans for organisations both ways (`forOrganizations`): the product bills
 * organisations, not people.
 */
export function PricingPage() {
  const { t } = useTranslation();
  const { billing } = useAppConfig();
  const auth = useAuthState();
  return (
    <section className="clerk-page" data-testid="pricing-page" aria-labelledby="pricing-heading">
      <PageTitle>{t('billing.title')}</PageTitle>
      <h1 id="pricing-heading">{t('billing.title')}</h1>
      {billing?.enabled ? (
        <>
          <p className="muted">
            {auth.organization ? t('billing.introSignedIn') : t('billing.introSignedOut')}
          </p>
          <PricingTable forOrganizations newSubscriptionRedirectUrl="/dashboard" fallback={<Loading />} />
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
