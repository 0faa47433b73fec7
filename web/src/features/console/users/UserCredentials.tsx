import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { userCredentialsQuery } from '../api/console-queries.ts';
import type { UserCredentials as Credentials } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { ActionOutcome } from '../sign-up/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import { useUserAction, type UserAction } from './user-actions.ts';

/**
 * The user page's passkeys and API keys: name, creation and last use (and an API key's scopes and expiry),
 * with **Remove** and **Revoke**, both re-verified (Clerk's <UserVerification/> opens when the session
 * proved its factors too long ago).
 */
export function UserCredentials({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { client, userId: operatorId } = useConsole();
  const credentials = useQuery(userCredentialsQuery(client, operatorId, userId));
  const errorText = useConsoleErrorText();
  if (credentials.isPending) return <Loading testId="console-user-credentials-loading" />;
  if (credentials.isError) {
    return (
      <LoadError
        what={t('console.details.credentialsWhat')}
        message={errorText(credentials.error)}
        testId="console-user-credentials-error"
        onRetry={() => void credentials.refetch()}
      />
    );
  }
  return <CredentialsView userId={userId} credentials={credentials.data} />;
}

function CredentialsView({ userId, credentials }: { userId: string; credentials: Credentials }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const action = useUserAction(userId);
  const [done, setDone] = useState<string | null>(null);
  const run = (change: UserAction & { kind: 'remove-passkey' | 'revoke-api-key' }, name: string) => {
    const confirmKey = change.kind === 'remove-passkey' ? 'confirmRemovePasskey' : 'confirmRevokeApiKey';
    if (!window.confirm(t(`console.details.${confirmKey}`, { name }))) return;
    setDone(null);
    action.mutate(change, { onSuccess: () => setDone(t(`console.details.done.${change.kind}`)) });
  };
  const { passkeys, api_keys: apiKeys } = credentials;
  return (
    <>
      <h3>{t('console.details.passkeys')}</h3>
      {passkeys.length === 0 ? (
        <p className="muted">{t('console.details.noPasskeys')}</p>
      ) : (
        <table className="console__table" data-testid="console-user-passkeys">
          <thead>
            <tr>
              <th>{t('console.details.name')}</th>
              <th>{t('console.details.created')}</th>
              <th>{t('console.details.lastUsed')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {passkeys.map((p) => (
              <tr key={p.id}>
                <td>{p.name || '—'}</td>
                <td>{formatInstant(p.created_at, language)}</td>
                <td>{formatInstant(p.last_used_at, language)}</td>
                <td>
                  <button
                    type="button"
                    className="button button--danger"
                    disabled={action.isPending}
                    onClick={() => run({ kind: 'remove-passkey', passkeyId: p.id }, p.name || p.id)}
                  >
                    {t('console.details.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>{t('console.details.apiKeys')}</h3>
      {apiKeys.length === 0 ? (
        <p className="muted">{t('console.details.noApiKeys')}</p>
      ) : (
        <table className="console__table" data-testid="console-user-api-keys">
          <thead>
            <tr>
              <th>{t('console.details.name')}</th>
              <th>{t('console.details.scopes')}</th>
              <th>{t('console.details.created')}</th>
              <th>{t('console.details.lastUsed')}</th>
              <th>{t('console.details.expires')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {apiKeys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{k.scopes.length === 0 ? '—' : k.scopes.join(', ')}</td>
                <td>{formatInstant(k.created_at, language)}</td>
                <td>{formatInstant(k.last_used_at, language)}</td>
                <td>
                  {k.expired
                    ? t('console.details.expired')
                    : k.expiration
                      ? formatInstant(k.expiration, language)
                      : t('console.details.never')}
                </td>
                <td>
                  <button
                    type="button"
                    className="button button--danger"
                    disabled={action.isPending}
                    onClick={() => run({ kind: 'revoke-api-key', apiKeyId: k.id }, k.name)}
                  >
                    {t('console.details.revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ActionOutcome error={action.error} done={done} testId="console-user-credentials-action" />
    </>
  );
}
