import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { invitationsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ApplicationInvitation } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
import { useConsole } from '../useConsole.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { useSignUpAction, type SignUpAction } from './sign-up-actions.ts';
import { SignUpFiltersForm, useSignUpFilters } from './SignUpFilters.tsx';

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

/**
 * /console/sign-up/invitations — invitations to the application (`invitations.*` of the Backend API):
 * send one (an address, and where its link leads once accepted), list them by status and address, revoke
 * a pending one (re-verified).
 */
export function InvitationsPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { filters, offset, setOffset } = useSignUpFilters();
  const invitations = useQuery(invitationsQuery(client, userId, filters, offset));
  const action = useSignUpAction();
  const { done, run } = useActionOutcome<SignUpAction, { text: string; url?: string | null }>(action);
  const create = (emailAddress: string, redirectUrl: string) =>
    run({ kind: 'create-invitation', emailAddress, redirectUrl }, (answer) => ({
      text: t('console.signUp.invitations.created', { email: emailAddress }),
      url: (answer as ApplicationInvitation).url,
    }));
  const revoke = (invitation: ApplicationInvitation) =>
    run({ kind: 'revoke-invitation', invitationId: invitation.id }, () => ({
      text: t('console.signUp.invitations.revoked', { email: invitation.email_address }),
    }));
  return (
    <div data-testid="console-invitations">
      <h3>{t('console.signUp.invitations.create')}</h3>
      <InvitationForm pending={action.isPending} onSubmit={create} />
      <ActionOutcome
        error={action.error}
        done={
          done && (
            <>
              {done.text}
              {done.url && (
                <>
                  {' '}
                  {t('console.signUp.invitations.link')} <code>{done.url}</code>
                </>
              )}
            </>
          )
        }
        testId="console-invitations-action"
      />
      <h3>{t('console.signUp.sections.invitations')}</h3>
      <SignUpFiltersForm
        statuses={INVITATION_STATUSES}
        statusKey="console.signUp.invitations.statuses"
        testId="console-invitations"
      />
      <PagedTable
        query={invitations}
        what={t('console.signUp.invitations.what')}
        empty={t('console.signUp.invitations.none')}
        testId="console-invitations"
        columns={[
          { header: t('console.signUp.email'), cell: (invitation) => invitation.email_address },
          {
            header: t('console.signUp.status'),
            cell: (invitation) => t(`console.signUp.invitations.statuses.${invitation.status}`),
          },
          {
            header: t('console.signUp.invitations.createdAt'),
            cell: (invitation) => formatInstant(invitation.created_at, language),
          },
          {
            header: t('console.signUp.invitations.expiresAt'),
            cell: (invitation) => formatInstant(invitation.expires_at, language),
          },
        ]}
        rowKey={(invitation) => invitation.id}
        rowAttributes={(invitation) => ({
          'data-testid': 'console-invitation-row',
          'data-email': invitation.email_address,
          'data-status': invitation.status,
        })}
        actions={(invitation) =>
          invitation.status === 'pending' && (
            <ActionButton
              kind="danger"
              pending={action.isPending}
              confirm={t('console.signUp.invitations.confirmRevoke', { email: invitation.email_address })}
              onClick={() => revoke(invitation)}
              testId="console-invitation-revoke"
            >
              {t('console.signUp.invitations.revoke')}
            </ActionButton>
          )
        }
        offset={offset}
        size={PAGE_SIZE}
        onPage={setOffset}
      />
    </div>
  );
}

/** An address to invite, and optionally where the invitation's link leads once accepted. */
function InvitationForm({
  pending,
  onSubmit,
}: {
  pending: boolean;
  onSubmit: (emailAddress: string, redirectUrl: string) => void;
}) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [redirectUrl, setRedirectUrl] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) onSubmit(email.trim(), redirectUrl.trim());
  };
  return (
    <form className="console__filters" onSubmit={submit}>
      <label>
        <span>{t('console.signUp.email')}</span>
        <input
          type="email"
          value={email}
          maxLength={254}
          required
          onChange={(e) => setEmail(e.target.value)}
          data-testid="console-invitation-email"
        />
      </label>
      <label>
        <span>{t('console.signUp.invitations.redirectUrl')}</span>
        <input
          type="url"
          value={redirectUrl}
          maxLength={2000}
          placeholder="https://…"
          onChange={(e) => setRedirectUrl(e.target.value)}
          data-testid="console-invitation-redirect-url"
        />
      </label>
      <button type="submit" className="button" disabled={pending} data-testid="console-invitation-create">
        {t('console.signUp.invitations.send')}
      </button>
    </form>
  );
}
