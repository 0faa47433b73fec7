import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { apiKeysQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsoleApiKey } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import { useApplicationAction } from './application-actions.ts';

/** A user's or an organisation's id, as the Backend API lists keys by (`?subject=`). */
const SUBJECT = /^(user|org)_[0-9A-Za-z]{1,64}$/;

/**
 * /console/applications/api-keys — the API keys of a user or an organisation (the Backend API lists keys by
 * subject only), the revoked and expired ones on request; revoke one (re-verified), with a reason.
 */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { params, setParams, offset } = useListAddress();
  const subject = params.get('subject') ?? '';
  const includeInvalid = params.get('include_invalid') === 'true';
  const keys = useQuery(
    apiKeysQuery(client, userId, SUBJECT.test(subject) ? subject : '', includeInvalid, offset),
  );
  const action = useApplicationAction();
  const { done, run } = useActionOutcome(action);
  const show = (next: { subject?: string; includeInvalid?: boolean; offset?: number }) => {
    const copy = new URLSearchParams();
    const s = next.subject ?? subject;
    if (s) copy.set('subject', s);
    if (next.includeInvalid ?? includeInvalid) copy.set('include_invalid', 'true');
    if (next.offset) copy.set('offset', String(next.offset));
    setParams(copy);
  };
  const revoke = (key: ConsoleApiKey) => {
    const reason = window.prompt(t('console.applications.apiKeys.confirmRevoke', { name: key.name }), '');
    if (reason === null) return;
    run({ kind: 'revoke-api-key', apiKeyId: key.id, reason: reason.trim().slice(0, 500) }, () =>
      t('console.applications.apiKeys.revoked', { name: key.name }),
    );
  };
  return (
    <div data-testid="console-api-keys">
      <p className="muted">{t('console.applications.apiKeys.hint')}</p>
      <SubjectForm
        initial={subject}
        includeInvalid={includeInvalid}
        onSubmit={(s, invalid) => show({ subject: s, includeInvalid: invalid, offset: 0 })}
      />
      {subject && !SUBJECT.test(subject) && (
        <p className="status status--error" role="alert" data-testid="console-api-keys-subject-invalid">
          {t('console.applications.apiKeys.subjectInvalid')}
        </p>
      )}
      <ActionOutcome error={action.error} done={done} testId="console-api-keys-action" />
      {SUBJECT.test(subject) && (
        <PagedTable
          query={keys}
          what={t('console.applications.apiKeys.what')}
          empty={t('console.applications.apiKeys.none')}
          testId="console-api-keys"
          columns={[
            {
              header: t('console.applications.name'),
              cell: (key) => (
                <>
                  {key.name}
                  {key.description && <div className="muted">{key.description}</div>}
                </>
              ),
            },
            { header: t('console.applications.apiKeys.scopes'), cell: (key) => key.scopes.join(' ') || '—' },
            {
              header: t('console.applications.apiKeys.state'),
              cell: (key) => (
                <>
                  {key.revoked
                    ? t('console.applications.apiKeys.states.revoked')
                    : key.expired
                      ? t('console.applications.apiKeys.states.expired')
                      : t('console.applications.apiKeys.states.valid')}
                  {key.revocation_reason && <div className="muted">{key.revocation_reason}</div>}
                </>
              ),
            },
            {
              header: t('console.applications.createdAt'),
              cell: (key) => formatInstant(key.created_at, language),
            },
            {
              header: t('console.applications.apiKeys.expiresAt'),
              cell: (key) =>
                key.expiration
                  ? formatInstant(key.expiration, language)
                  : t('console.applications.apiKeys.never'),
            },
            {
              header: t('console.applications.apiKeys.lastUsedAt'),
              cell: (key) => (key.last_used_at ? formatInstant(key.last_used_at, language) : '—'),
            },
          ]}
          rowKey={(key) => key.id}
          rowAttributes={(key) => ({ 'data-testid': 'console-api-key-row', 'data-name': key.name })}
          actions={(key) =>
            !key.revoked && (
              <ActionButton
                kind="danger"
                pending={action.isPending}
                onClick={() => revoke(key)}
                testId="console-api-key-revoke"
              >
                {t('console.applications.apiKeys.revoke')}
              </ActionButton>
            )
          }
          offset={offset}
          size={PAGE_SIZE}
          onPage={(next) => show({ offset: next })}
        />
      )}
    </div>
  );
}

/** Whose keys: a user's or an organisation's id, and whether revoked and expired keys are listed too. */
function SubjectForm({
  initial,
  includeInvalid,
  onSubmit,
}: {
  initial: string;
  includeInvalid: boolean;
  onSubmit: (subject: string, includeInvalid: boolean) => void;
}) {
  const { t } = useTranslation();
  const [subject, setSubject] = useState(initial);
  const [invalid, setInvalid] = useState(includeInvalid);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(subject.trim(), invalid);
  };
  return (
    <form className="console__filters" onSubmit={submit}>
      <label>
        <span>{t('console.applications.apiKeys.subject')}</span>
        <input
          type="text"
          value={subject}
          maxLength={80}
          size={36}
          required
          placeholder="user_… / org_…"
          onChange={(e) => setSubject(e.target.value)}
          data-testid="console-api-keys-subject"
        />
      </label>
      <label className="console__choice">
        <input
          type="checkbox"
          checked={invalid}
          onChange={(e) => setInvalid(e.target.checked)}
          data-testid="console-api-keys-include-invalid"
        />{' '}
        <span>{t('console.applications.apiKeys.includeInvalid')}</span>
      </label>
      <button type="submit" className="button" data-testid="console-api-keys-show">
        {t('console.applications.apiKeys.show')}
      </button>
    </form>
  );
}
