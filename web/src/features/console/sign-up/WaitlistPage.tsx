import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { PAGE_SIZE, waitlistQuery } from '../api/console-queries.ts';
import type { WaitlistEntry } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { useConsole } from '../useConsole.ts';
import { ActionOutcome } from './ActionOutcome.tsx';
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
  const [done, setDone] = useState<string | null>(null);
  const invite = (entry: WaitlistEntry) => {
    setDone(null);
    action.mutate(
      { kind: 'invite-entry', entryId: entry.id },
      { onSuccess: () => setDone(t('console.signUp.waitlist.invited', { email: entry.email_address })) },
    );
  };
  const reject = (entry: WaitlistEntry) => {
    if (!window.confirm(t('console.signUp.waitlist.confirmReject', { email: entry.email_address }))) return;
    setDone(null);
    action.mutate(
      { kind: 'reject-entry', entryId: entry.id },
      { onSuccess: () => setDone(t('console.signUp.waitlist.rejected', { email: entry.email_address })) },
    );
  };
  return (
    <div data-testid="console-waitlist">
      <SignUpFiltersForm
        statuses={WAITLIST_STATUSES}
        statusKey="console.signUp.waitlist.statuses"
        testId="console-waitlist"
      />
      <ActionOutcome error={action.error} done={done} testId="console-waitlist-action" />
      <QueryBody
        query={entries}
        what={t('console.signUp.waitlist.what')}
        empty={t('console.signUp.waitlist.none')}
        testId="console-waitlist"
      >
        {(data) => (
          <>
            <table className="console__table" data-testid="console-waitlist-table">
              <thead>
                <tr>
                  <th>{t('console.signUp.email')}</th>
                  <th>{t('console.signUp.status')}</th>
                  <th>{t('console.signUp.waitlist.joinedAt')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.data.map((entry) => (
                  <tr
                    key={entry.id}
                    data-testid="console-waitlist-row"
                    data-email={entry.email_address}
                    data-status={entry.status}
                  >
                    <td>{entry.email_address}</td>
                    <td>{t(`console.signUp.waitlist.statuses.${entry.status}`)}</td>
                    <td>{formatInstant(entry.created_at, language)}</td>
                    <td className="console__row-actions">
                      {(entry.status === 'pending' || entry.status === 'rejected') && (
                        <button
                          type="button"
                          className="button button--secondary"
                          disabled={action.isPending}
                          onClick={() => invite(entry)}
                          data-testid="console-waitlist-invite"
                        >
                          {t('console.signUp.waitlist.invite')}
                        </button>
                      )}
                      {(entry.status === 'pending' || entry.status === 'invited') && (
                        <button
                          type="button"
                          className="button button--danger"
                          disabled={action.isPending}
                          onClick={() => reject(entry)}
                          data-testid="console-waitlist-reject"
                        >
                          {t('console.signUp.waitlist.reject')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={offset} size={PAGE_SIZE} total={data.total_count} onChange={setOffset} />
          </>
        )}
      </QueryBody>
    </div>
  );
}
