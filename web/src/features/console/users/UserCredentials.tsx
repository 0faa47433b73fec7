import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { userCredentialsQuery } from '../api/console-queries.ts';
import type { UserCredentials as Credentials } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
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
  const { done, run } = useActionOutcome(action);
  const remove = (change: UserAction & { kind: 'remove-passkey' | 'revoke-api-key' }) =>
    run(change, () => t(`console.details.done.${change.kind}`));
  const { passkeys, api_keys: apiKeys } = credentials;
  return (
    <>
      <h3>{t('console.details.passkeys')}</h3>
      <ConsoleTable
        rows={passkeys}
        empty={t('console.details.noPasskeys')}
        columns={[
          { header: t('console.details.name'), cell: (p) => p.name || '—' },
          { header: t('console.details.created'), cell: (p) => formatInstant(p.created_at, language) },
          { header: t('console.details.lastUsed'), cell: (p) => formatInstant(p.last_used_at, language) },
        ]}
        rowKey={(p) => p.id}
        actions={(p) => (
          <ActionButton
            kind="danger"
            pending={action.isPending}
            confirm={t('console.details.confirmRemovePasskey', { name: p.name || p.id })}
            onClick={() => remove({ kind: 'remove-passkey', passkeyId: p.id })}
          >
            {t('console.details.remove')}
          </ActionButton>
        )}
        testId="console-user-passkeys"
      />

      <h3>{t('console.details.apiKeys')}</h3>
      <ConsoleTable
        rows={apiKeys}
        empty={t('console.details.noApiKeys')}
        columns={[
          { header: t('console.details.name'), cell: (k) => k.name },
          {
            header: t('console.details.scopes'),
            cell: (k) => (k.scopes.length === 0 ? '—' : k.scopes.join(', ')),
          },
          { header: t('console.details.created'), cell: (k) => formatInstant(k.created_at, language) },
          { header: t('console.details.lastUsed'), cell: (k) => formatInstant(k.last_used_at, language) },
          {
            header: t('console.details.expires'),
            cell: (k) =>
              k.expired
                ? t('console.details.expired')
                : k.expiration
                  ? formatInstant(k.expiration, language)
                  : t('console.details.never'),
          },
        ]}
        rowKey={(k) => k.id}
        actions={(k) => (
          <ActionButton
            kind="danger"
            pending={action.isPending}
            confirm={t('console.details.confirmRevokeApiKey', { name: k.name })}
            onClick={() => remove({ kind: 'revoke-api-key', apiKeyId: k.id })}
          >
            {t('console.details.revoke')}
          </ActionButton>
        )}
        testId="console-user-api-keys"
      />
      <ActionOutcome error={action.error} done={done} testId="console-user-credentials-action" />
    </>
  );
}
