import { SignIn } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { useNewPasswordStep } from './useNewPasswordStep.ts';
import { GoogleOneTapPrompt } from './GoogleOneTapPrompt.tsx';

export function SignInPage() {
  const { t } = useTranslation();
  useNewPasswordStep();
  return (
    <section className="auth-page" data-testid="sign-in-page" aria-label={t('auth.signIn')}>
      <PageTitle>{t('auth.signIn')}</PageTitle>
      {/* Hash routing keeps every step (e.g. #/factor-one) on this one react-router route. */}
      <SignIn routing="hash" fallback={<Loading />} />
      <GoogleOneTapPrompt />
    </section>
  );
}
