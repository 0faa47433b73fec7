import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { PAGE_SIZE, waitlistQuery } from '../api/console-queries.ts';
import type { WaitlistEntry } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
import { useConsole } from '../useConsole.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { useSignUpAction } from './sign-up-actions.ts';
import { SignUpFiltersForm, useSignUpFilters } from './SignUpFilters.tsx';

export const WAITLIST_STATUSES = ['pending', 'invited', 'completed', 'rejected'] as const;

/**
 * /console/sign-up/waitlist — the waitlist, newest first, by status and address; Invite sends the person
 * an invitation to sign up, Reject (re-verified) turns them away.
 */
export function WaitlistPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { filters, offset, setOffset } = useSignUpFilters();
  const entries = useQuery(waitlistQuery(client, userId, filters, offset));
  const action = useSignUpAction();
  const { done, run } = useActionOutcome(action);
  const invite = (entry: WaitlistEntry) =>
    run({ kind: 'invite-entry', entryId: entry.id }, () =>
      t('console.signUp.waitlist.invited', { email: entry.email_address }),
    );
  const reject = (entry: WaitlistEntry) =>
    run({ kind: 'reject-entry', entryId: entry.id }, () =>
      t('console.signUp.waitlist.rejected', { email: entry.email_address }),
    );
  return (
    <div data-testid="console-waitlist">
      <SignUpFiltersForm
        statuses={WAITLIST_STATUSES}
        statusKey="console.signUp.waitlist.statuses"
        testId="console-waitlist"
      />
      <ActionOutcome error={action.error} done={done} testId="console-waitlist-action" />
      <PagedTable
        query={entries}
        what={t('console.signUp.waitlist.what')}
        empty={t('console.signUp.waitlist.none')}
        testId="console-waitlist"
        columns={[
          { header: t('console.signUp.email'), cell: (entry) => entry.email_address },
          {
            header: t('console.signUp.status'),
            cell: (entry) => t(`console.signUp.waitlist.statuses.${entry.status}`),
          },
          {
            header: t('console.signUp.waitlist.joinedAt'),
            cell: (entry) => formatInstant(entry.created_at, language),
          },
        ]}
        rowKey={(entry) => entry.id}
        rowAttributes={(entry) => ({
          'data-testid': 'console-waitlist-row',
          'data-email': entry.email_address,
          'data-status': entry.status,
        })}
        actionsClassName="console__row-actions"
        actions={(entry) => (
          <>
            {(entry.status === 'pending' || entry.status === 'rejected') && (
              <ActionButton
                kind="secondary"
                pending={action.isPending}
                onClick={() => invite(entry)}
                testId="console-waitlist-invite"
              >
                {t('console.signUp.waitlist.invite')}
              </ActionButton>
            )}
            {(entry.status === 'pending' || entry.status === 'invited') && (
              <ActionButton
                kind="danger"
                pending={action.isPending}
                confirm={t('console.signUp.waitlist.confirmReject', { email: entry.email_address })}
                onClick={() => reject(entry)}
                testId="console-waitlist-reject"
              >
                {t('console.signUp.waitlist.reject')}
              </ActionButton>
            )}
          </>
        )}
        offset={offset}
        size={PAGE_SIZE}
        onPage={setOffset}
      />
    </div>
  );
}
