import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { userQuery } from '../api/console-queries.ts';
import type { UserDetails } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { displayName, formatInstant } from '../format.ts';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { MetadataView } from '../layout/MetadataView.tsx';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useConsole } from '../useConsole.ts';
import { UserCredentials } from './UserCredentials.tsx';
import { useUserAction, type UserAction } from './user-actions.ts';

/**
 * /console/users/:userId — a user's identifiers, second factors, passkeys, API keys, sessions, organisations
 * and metadata, with what an operator may do: remove a passkey, revoke an API key or a session, reset the
 * second factor, lock, ban, delete, impersonate.
 */
export function UserPage() {
  const { t } = useTranslation();
  const { userId: id = '' } = useParams();
  const { client, userId } = useConsole();
  const details = useQuery(userQuery(client, userId, id));
  const errorText = useConsoleErrorText();
  if (details.isPending) return <Loading testId="console-user-loading" />;
  if (details.isError) {
    return (
      <LoadError
        what={t('console.user.what')}
        message={errorText(details.error)}
        testId="console-user-error"
        onRetry={() => void details.refetch()}
      />
    );
  }
  return <UserDetailsView details={details.data} />;
}

function UserDetailsView({ details }: { details: UserDetails }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const navigate = useNavigate();
  const { user, sessions, organization_memberships: memberships } = details;
  const action = useUserAction(user.id);
  const errorText = useConsoleErrorText();
  const [done, setDone] = useState<string | null>(null);
  const [impersonation, setImpersonation] = useState<string | null>(null);
  /** The question an action asks first, with the user's name. */
  const confirm = (key: string) => t(key, { name: displayName(user) });
  const run = (change: UserAction) => {
    setDone(null);
    action.mutate(change, {
      onSuccess: (answer) => {
        if (change.kind === 'delete') return void navigate('/console/users');
        if (change.kind === 'impersonate') setImpersonation((answer as { url: string }).url);
        setDone(t(`console.user.done.${change.kind}`));
      },
    });
  };
  return (
    <div data-testid="console-user">
      <p>
        <Link to="/console/users">{t('console.user.back')}</Link>
      </p>
      <h2 data-testid="console-user-name">{displayName(user)}</h2>
      <p className="muted">
        <code>{user.id}</code> ·{' '}
        {t('console.user.createdAt', { date: formatInstant(user.created_at, language) })} ·{' '}
        {t('console.user.lastSignIn', { date: formatInstant(user.last_sign_in_at, language) })}
      </p>
      <p data-testid="console-user-state">
        {user.locked ? t('console.users.locked') : t('console.user.notLocked')} ·{' '}
        {user.banned ? t('console.users.banned') : t('console.user.notBanned')}
        {user.password_reset_required ? ` · ${t('console.user.passwordResetRequired')}` : ''}
      </p>

      <div className="console__actions" role="group" aria-label={t('console.user.actions')}>
        <ActionButton
          kind="secondary"
          testId={user.locked ? 'console-user-unlock' : 'console-user-lock'}
          pending={action.isPending}
          onClick={() => run({ kind: user.locked ? 'unlock' : 'lock' })}
        >
          {user.locked ? t('console.user.unlock') : t('console.user.lock')}
        </ActionButton>
        <ActionButton
          kind="secondary"
          testId={
            user.password_reset_required
              ? 'console-user-withdraw-password-reset'
              : 'console-user-require-password-reset'
          }
          pending={action.isPending}
          onClick={() =>
            run({ kind: user.password_reset_required ? 'withdraw-password-reset' : 'require-password-reset' })
          }
        >
          {user.password_reset_required
            ? t('console.user.withdrawPasswordReset')
            : t('console.user.requirePasswordReset')}
        </ActionButton>
        <ActionButton
          kind="secondary"
          testId={user.banned ? 'console-user-unban' : 'console-user-ban'}
          pending={action.isPending}
          confirm={user.banned ? undefined : confirm('console.user.confirmBan')}
          onClick={() => run({ kind: user.banned ? 'unban' : 'ban' })}
        >
          {user.banned ? t('console.user.unban') : t('console.user.ban')}
        </ActionButton>
        <ActionButton
          kind="danger"
          testId="console-user-delete"
          pending={action.isPending}
          confirm={confirm('console.user.confirmDelete')}
          onClick={() => run({ kind: 'delete' })}
        >
          {t('console.user.delete')}
        </ActionButton>
      </div>
      {action.isError && (
        <p className="status status--error" role="alert" data-testid="console-user-action-error">
          {errorText(action.error)}
        </p>
      )}
      {done && (
        <p className="status status--ok" role="status" data-testid="console-user-action-done">
          {done}
        </p>
      )}

      <h3>{t('console.user.identifiers')}</h3>
      <ul data-testid="console-user-identifiers">
        {user.email_addresses.map((a) => (
          <li key={a.id}>
            {a.email_address} (
            {t(a.verification?.status === 'verified' ? 'console.user.verified' : 'console.user.unverified')})
            {a.id === user.primary_email_address_id && ` · ${t('console.user.primary')}`}
          </li>
        ))}
        {user.phone_numbers.map((p) => (
          <li key={p.id}>
            {p.phone_number} (
            {t(p.verification?.status === 'verified' ? 'console.user.verified' : 'console.user.unverified')})
          </li>
        ))}
        {user.username && <li>{t('console.user.username', { username: user.username })}</li>}
        {(user.external_accounts ?? []).map((e) => (
          <li key={e.id}>
            {t('console.user.connected', { provider: e.provider, email: e.email_address ?? '' })}
          </li>
        ))}
        {(user.passkeys ?? []).map((p) => (
          <li key={p.id}>{t('console.user.passkey', { name: p.name })}</li>
        ))}
      </ul>

      <h3>{t('console.user.secondFactors')}</h3>
      <p data-testid="console-user-second-factors">
        {user.two_factor_enabled
          ? [
              user.totp_enabled && t('console.user.totp'),
              user.backup_code_enabled && t('console.user.backupCodes'),
              user.phone_numbers.some((p) => p.reserved_for_second_factor) && t('console.user.smsCode'),
            ]
              .filter(Boolean)
              .join(', ')
          : t('console.user.noSecondFactor')}
      </p>
      {user.two_factor_enabled && (
        <ActionButton
          kind="secondary"
          testId="console-user-reset-second-factor"
          pending={action.isPending}
          confirm={confirm('console.user.confirmReset')}
          onClick={() => run({ kind: 'reset-second-factor' })}
        >
          {t('console.user.resetSecondFactor')}
        </ActionButton>
      )}

      <UserCredentials userId={user.id} />

      <h3>{t('console.user.sessions')}</h3>
      <ConsoleTable
        rows={sessions}
        empty={t('console.user.noSessions')}
        columns={[
          {
            header: t('console.user.session'),
            cell: (s) => (
              <>
                <code>{s.id}</code>
                {s.actor ? ` · ${t('console.user.impersonated')}` : ''}
              </>
            ),
          },
          { header: t('console.user.status'), cell: (s) => s.status },
          { header: t('console.user.lastActive'), cell: (s) => formatInstant(s.last_active_at, language) },
        ]}
        rowKey={(s) => s.id}
        actions={(s) =>
          s.status === 'active' && (
            <ActionButton
              kind="secondary"
              pending={action.isPending}
              onClick={() => run({ kind: 'revoke-session', sessionId: s.id })}
            >
              {t('console.user.revoke')}
            </ActionButton>
          )
        }
        testId="console-user-sessions"
      />

      <h3>{t('console.user.organizations')}</h3>
      {memberships.length === 0 ? (
        <p className="muted">{t('console.user.noOrganizations')}</p>
      ) : (
        <ul data-testid="console-user-organizations">
          {memberships.map((m) => (
            <li key={m.id}>
              <Link to={`/console/organizations/${m.organization.id}`}>{m.organization.name}</Link> · {m.role}
            </li>
          ))}
        </ul>
      )}

      <h3>{t('console.user.impersonate')}</h3>
      <ImpersonateForm
        pending={action.isPending}
        onSubmit={(reason) => run({ kind: 'impersonate', reason })}
      />
      {impersonation && (
        <p className="status status--ok" data-testid="console-impersonation-link">
          {t('console.user.impersonationLink')}{' '}
          <a href={impersonation} target="_blank" rel="noreferrer noopener">
            {impersonation}
          </a>
        </p>
      )}

      <h3>{t('console.user.metadata')}</h3>
      <MetadataView
        entries={[
          ['public', user.public_metadata],
          ['private', user.private_metadata ?? {}],
          ['unsafe', user.unsafe_metadata],
        ]}
      />
    </div>
  );
}

/** The reason an impersonation needs, recorded in the audit log with the operator's name. */
function ImpersonateForm({ pending, onSubmit }: { pending: boolean; onSubmit: (reason: string) => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length >= 3) onSubmit(reason.trim());
  };
  return (
    <form className="console__search" onSubmit={submit}>
      <label>
        <span>{t('console.user.reason')}</span>
        <input
          type="text"
          value={reason}
          minLength={3}
          maxLength={500}
          required
          onChange={(e) => setReason(e.target.value)}
          data-testid="console-impersonate-reason"
        />
      </label>
      <button type="submit" className="button" disabled={pending} data-testid="console-impersonate">
        {t('console.user.impersonateSubmit')}
      </button>
    </form>
  );
}
