import { SignUp } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { Loading } from '../../ui/Loading.tsx';
import { languageMetadata } from '../language/user-language.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { useRedirectParamsInHash } from './useRedirectParamsInHash.ts';

export function SignUpPage() {
  const { t } = useTranslation();
  const addressReady = useRedirectParamsInHash();
  const { language } = useLanguage();
  return (
    <section className="auth-page" data-testid="sign-up-page" aria-label={t('auth.signUp')}>
      <PageTitle>{t('auth.signUp')}</PageTitle>
      {/* Hash routing keeps every step (e.g. #/verify-email-address) on this one react-router route. */}
      {/* The interface language becomes the new user's, which their codes speak (user-language.ts). */}
      {addressReady ? (
        <SignUp routing="hash" unsafeMetadata={languageMetadata(language)} fallback={<Loading />} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
