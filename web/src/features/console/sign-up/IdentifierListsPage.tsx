import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { identifierListQuery, PAGE_SIZE, type IdentifierList } from '../api/console-queries.ts';
import type { ListedIdentifier } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
import { useConsole } from '../useConsole.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { useSignUpAction } from './sign-up-actions.ts';

/**
 * /console/sign-up/lists — the allow list (once it holds anything, only what it names may sign up) and
 * the block list (what it names may neither sign up nor sign in): an address, a domain (`*@example.com`),
 * a phone number or a wallet; add, remove (re-verified).
 */
export function IdentifierListsPage() {
  return (
    <div data-testid="console-identifier-lists">
      <IdentifierListSection list="allowlist" />
      <IdentifierListSection list="blocklist" />
    </div>
  );
}

function IdentifierListSection({ list }: { list: IdentifierList }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { offset, setOffset } = useListAddress(`${list}_offset`);
  const identifiers = useQuery(identifierListQuery(client, userId, list, offset));
  const action = useSignUpAction();
  const { done, run } = useActionOutcome(action);
  const add = (identifier: string, onAdded: () => void) =>
    run({ kind: 'add-identifier', list, identifier }, (answer) => {
      onAdded();
      return t('console.signUp.lists.added', { identifier: (answer as ListedIdentifier).identifier });
    });
  const remove = (entry: ListedIdentifier) =>
    run({ kind: 'remove-identifier', list, identifierId: entry.id }, () =>
      t('console.signUp.lists.removed', { identifier: entry.identifier }),
    );
  return (
    <section data-testid={`console-${list}`}>
      <h3>{t(`console.signUp.lists.${list}.title`)}</h3>
      <p className="muted">{t(`console.signUp.lists.${list}.hint`)}</p>
      <IdentifierForm list={list} pending={action.isPending} onSubmit={add} />
      <ActionOutcome error={action.error} done={done} testId={`console-${list}-action`} />
      <PagedTable
        query={identifiers}
        what={t(`console.signUp.lists.${list}.what`)}
        empty={t(`console.signUp.lists.${list}.none`)}
        testId={`console-${list}`}
        columns={[
          {
            header: t('console.signUp.lists.identifier'),
            cell: (entry) => <code>{entry.identifier}</code>,
          },
          {
            header: t('console.signUp.lists.type'),
            cell: (entry) => t(`console.signUp.lists.types.${entry.identifier_type}`),
          },
          {
            header: t('console.signUp.lists.createdAt'),
            cell: (entry) => formatInstant(entry.created_at, language),
          },
        ]}
        rowKey={(entry) => entry.id}
        rowAttributes={(entry) => ({
          'data-testid': `console-${list}-row`,
          'data-identifier': entry.identifier,
        })}
        actions={(entry) => (
          <ActionButton
            kind="danger"
            pending={action.isPending}
            confirm={t('console.signUp.lists.confirmRemove', { identifier: entry.identifier })}
            onClick={() => remove(entry)}
            testId={`console-${list}-remove`}
          >
            {t('console.signUp.lists.remove')}
          </ActionButton>
        )}
        offset={offset}
        size={PAGE_SIZE}
        onPage={setOffset}
      />
    </section>
  );
}

/** One identifier to add to `list`; the field empties once it is added. */
function IdentifierForm({
  list,
  pending,
  onSubmit,
}: {
  list: IdentifierList;
  pending: boolean;
  onSubmit: (identifier: string, onAdded: () => void) => void;
}) {
  const { t } = useTranslation();
  const [identifier, setIdentifier] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (identifier.trim()) onSubmit(identifier.trim(), () => setIdentifier(''));
  };
  return (
    <form className="console__filters" onSubmit={submit}>
      <label>
        <span>{t('console.signUp.lists.identifierLabel')}</span>
        <input
          type="text"
          value={identifier}
          maxLength={254}
          required
          placeholder="*@example.com"
          onChange={(e) => setIdentifier(e.target.value)}
          data-testid={`console-${list}-identifier`}
        />
      </label>
      <button type="submit" className="button" disabled={pending} data-testid={`console-${list}-add`}>
        {t('console.signUp.lists.add')}
      </button>
    </form>
  );
}
