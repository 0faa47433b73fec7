import {
  ClerkFailed,
  ClerkLoaded,
  ClerkLoading,
  SignedIn,
  SignedOut,
  UserButton,
  useAuth,
} from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { AuthorizedApplicationsIcon } from '../features/authorized-applications/AuthorizedApplicationsIcon.tsx';
import { VisitorPricingNav } from '../features/billing/PricingNavLink.tsx';
import { DiagnosticsIcon } from '../features/diagnostics/DiagnosticsIcon.tsx';
import { LanguageReady } from '../features/language/LanguageReady.tsx';
import { LanguageToggle } from '../features/language/LanguageToggle.tsx';
import { OrganizationSwitcherSlot } from '../features/organizations/OrganizationSwitcherSlot.tsx';
import { PRODUCT_NAME } from '../lib/product.ts';
import { Loading } from '../ui/Loading.tsx';
import { ImpersonationBanner } from './ImpersonationBanner.tsx';
import { MainNav } from './MainNav.tsx';
import { NavigationRule } from './navigation/NavigationRule.tsx';

export function AppLayout() {
  const { t } = useTranslation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <BrandLink />
          <LanguageToggle />
          <SignedOut>
            <VisitorPricingNav />
          </SignedOut>
          <SignedIn>
            <div className="site-header__account">
              <OrganizationSwitcherSlot />
              {/* Clerk reads its menu entries from its direct children, so they cannot sit in a component. */}
              <UserButton>
                <UserButton.MenuItems>
                  <UserButton.Link
                    label={t('diagnostics.link')}
                    labelIcon={<DiagnosticsIcon />}
                    href="/diagnostics"
                  />
                  <UserButton.Link
                    label={t('authorizedApplications.menuEntry')}
                    labelIcon={<AuthorizedApplicationsIcon />}
                    href="/authorized-applications"
                  />
                </UserButton.MenuItems>
              </UserButton>
            </div>
          </SignedIn>
        </div>
        {/* The sections on a row of their own, scrolled sideways when they outgrow it (up to thirteen links,
            longer in French): they never wrap and never push the language switch or the account out. */}
        <SignedIn>
          <LanguageReady fallback={null}>
            <div className="site-nav">
              <MainNav />
            </div>
          </LanguageReady>
        </SignedIn>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <ClerkLoading>
          <Loading testId="clerk-loading" />
        </ClerkLoading>
        <ClerkFailed>
          <section className="card card--error" role="alert" data-testid="clerk-failed">
            <h1>{t('layout.clerkFailed.heading')}</h1>
            <p>{t('layout.clerkFailed.body')}</p>
            <button type="button" className="button" onClick={() => window.location.reload()}>
              {t('common.reload')}
            </button>
          </section>
        </ClerkFailed>
        {/* Every page depends on knowing who is signed in; rendering earlier would flash the wrong content. */}
        <ClerkLoaded>
          <NavigationRule />
          <LanguageReady>
            <ImpersonationBanner />
            <Outlet />
          </LanguageReady>
        </ClerkLoaded>
      </main>
    </div>
  );
}

function BrandLink() {
  const { isSignedIn } = useAuth();
  return (
    <Link to={isSignedIn ? '/dashboard' : '/'} className="brand" data-testid="brand-link">
      {PRODUCT_NAME}
    </Link>
  );
}
