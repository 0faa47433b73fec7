import { SignIn } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { useRedirectParamsInHash } from './useRedirectParamsInHash.ts';
import { useNewPasswordStep } from './useNewPasswordStep.ts';
import { GoogleOneTapPrompt } from './GoogleOneTapPrompt.tsx';

export function SignInPage() {
  const { t } = useTranslation();
  const addressReady = useRedirectParamsInHash();
  useNewPasswordStep();
  return (
    <section className="auth-page" data-testid="sign-in-page" aria-label={t('auth.signIn')}>
      <PageTitle>{t('auth.signIn')}</PageTitle>
      {/* Hash routing keeps every step (e.g. #/factor-one) on this one react-router route. */}
      {addressReady ? <SignIn routing="hash" fallback={<Loading />} /> : <Loading />}
      <GoogleOneTapPrompt />
    </section>
  );
}
