import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { GoogleOneTapPrompt } from '../auth/GoogleOneTapPrompt.tsx';

export function LandingPage() {
  const { t } = useTranslation();
  const { user } = useAuthState();
  // Signed-in people have nothing to do here: the navigation rule sends them to their work.
  if (user) return null;
  return (
    <section className="landing" data-testid="landing" aria-labelledby="landing-heading">
      <PageTitle>{t('landing.title')}</PageTitle>
      <GoogleOneTapPrompt />
      <h1 id="landing-heading">{t('landing.heading')}</h1>
      <p className="landing__pitch">{t('landing.pitch', { product: PRODUCT_NAME })}</p>
      <p className="actions">
        <Link to="/sign-up" className="button" data-testid="sign-up-link">
          {t('auth.signUp')}
        </Link>
        <Link to="/sign-in" className="button button--secondary" data-testid="sign-in-link">
          {t('auth.signIn')}
        </Link>
      </p>
    </section>
  );
}
