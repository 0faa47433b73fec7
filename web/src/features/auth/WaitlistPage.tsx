import { Waitlist } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../ui/Loading.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';

/**
 * `/waitlist`: Clerk's <Waitlist/> (docs/sign-up-modes.md). In waitlist mode <SignIn/> links here ("Join
 * waitlist") and sends unknown addresses here; <SignUp/>'s "Access restricted" screen does too. The
 * instance's operator invites entries; the invitation mail's link opens /sign-up with its ticket.
 */
export function WaitlistPage() {
  const { t } = useTranslation();
  return (
    <section className="auth-page" data-testid="waitlist-page" aria-label={t('auth.waitlist')}>
      <PageTitle>{t('auth.waitlist')}</PageTitle>
      <Waitlist fallback={<Loading />} />
    </section>
  );
}
