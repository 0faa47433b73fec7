import { useClerk } from '@clerk/clerk-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http/index.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { PageTitle } from '../../../ui/PageTitle.tsx';
import { consoleMeQuery } from '../api/console-queries.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { useConsole } from '../useConsole.ts';

/**
 * Shows the console only to an operator with a second factor: anyone else is told they have no access
 * (the API refuses them all the same); an operator without a second factor is sent to set one up in
 * Clerk's <UserProfile/> (Security), and gets no data until then.
 */
export function ConsoleGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const clerk = useClerk();
  const { client, userId } = useConsole();
  const me = useQuery(consoleMeQuery(client, userId));
  const errorText = useConsoleErrorText();
  if (me.isPending) return <Loading testId="console-loading" />;
  if (me.isError) {
    if (me.error instanceof HttpError && (me.error.status === 403 || me.error.status === 404)) {
      return (
        <section className="console" data-testid="console-no-access">
          <PageTitle>{t('console.title')}</PageTitle>
          <h1>{t('console.noAccess.title')}</h1>
          <p>{t('console.noAccess.body')}</p>
        </section>
      );
    }
    return (
      <LoadError
        what={t('console.title')}
        message={errorText(me.error)}
        testId="console-error"
        onRetry={() => void me.refetch()}
      />
    );
  }
  if (!me.data.twoFactorEnabled) {
    return (
      <section className="console" data-testid="console-second-factor-needed">
        <PageTitle>{t('console.title')}</PageTitle>
        <h1>{t('console.secondFactor.title')}</h1>
        <p>{t('console.secondFactor.body')}</p>
        <p className="console__actions">
          <button
            type="button"
            className="button"
            data-testid="console-set-up-second-factor"
            onClick={() => clerk.openUserProfile({ __experimental_startPath: '/security' })}
          >
            {t('console.secondFactor.setUp')}
          </button>
          <button type="button" className="button button--secondary" onClick={() => void me.refetch()}>
            {t('console.secondFactor.done')}
          </button>
        </p>
      </section>
    );
  }
  return <>{children}</>;
}
