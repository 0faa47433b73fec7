import { SignUp } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { useRedirectParamsInHash } from './useRedirectParamsInHash.ts';

export function SignUpPage() {
  const { t } = useTranslation();
  const addressReady = useRedirectParamsInHash();
  return (
    <section className="auth-page" data-testid="sign-up-page" aria-label={t('auth.signUp')}>
      <PageTitle>{t('auth.signUp')}</PageTitle>
      {/* Hash routing keeps every step (e.g. #/verify-email-address) on this one react-router route. */}
      {addressReady ? <SignUp routing="hash" fallback={<Loading />} /> : <Loading />}
    </section>
  );
}
