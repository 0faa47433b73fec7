import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { identifierListQuery, PAGE_SIZE, type IdentifierList } from '../api/console-queries.ts';
import type { ListedIdentifier } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { useConsole } from '../useConsole.ts';
import { ActionOutcome } from './ActionOutcome.tsx';
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
  const [params, setParams] = useSearchParams();
  const offsetParam = `${list}_offset`;
  const offset = Number(params.get(offsetParam)) || 0;
  const identifiers = useQuery(identifierListQuery(client, userId, list, offset));
  const action = useSignUpAction();
  const [done, setDone] = useState<string | null>(null);
  const add = (identifier: string, onAdded: () => void) => {
    setDone(null);
    action.mutate(
      { kind: 'add-identifier', list, identifier },
      {
        onSuccess: (answer) => {
          onAdded();
          setDone(t('console.signUp.lists.added', { identifier: (answer as ListedIdentifier).identifier }));
        },
      },
    );
  };
  const remove = (entry: ListedIdentifier) => {
    if (!window.confirm(t('console.signUp.lists.confirmRemove', { identifier: entry.identifier }))) return;
    setDone(null);
    action.mutate(
      { kind: 'remove-identifier', list, identifierId: entry.id },
      { onSuccess: () => setDone(t('console.signUp.lists.removed', { identifier: entry.identifier })) },
    );
  };
  return (
    <section data-testid={`console-${list}`}>
      <h3>{t(`console.signUp.lists.${list}.title`)}</h3>
      <p className="muted">{t(`console.signUp.lists.${list}.hint`)}</p>
      <IdentifierForm list={list} pending={action.isPending} onSubmit={add} />
      <ActionOutcome error={action.error} done={done} testId={`console-${list}-action`} />
      <QueryBody
        query={identifiers}
        what={t(`console.signUp.lists.${list}.what`)}
        empty={t(`console.signUp.lists.${list}.none`)}
        testId={`console-${list}`}
      >
        {(data) => (
          <>
            <table className="console__table" data-testid={`console-${list}-table`}>
              <thead>
                <tr>
                  <th>{t('console.signUp.lists.identifier')}</th>
                  <th>{t('console.signUp.lists.type')}</th>
                  <th>{t('console.signUp.lists.createdAt')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.data.map((entry) => (
                  <tr key={entry.id} data-testid={`console-${list}-row`} data-identifier={entry.identifier}>
                    <td>
                      <code>{entry.identifier}</code>
                    </td>
                    <td>{t(`console.signUp.lists.types.${entry.identifier_type}`)}</td>
                    <td>{formatInstant(entry.created_at, language)}</td>
                    <td>
                      <button
                        type="button"
                        className="button button--danger"
                        disabled={action.isPending}
                        onClick={() => remove(entry)}
                        data-testid={`console-${list}-remove`}
                      >
                        {t('console.signUp.lists.remove')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              offset={offset}
              size={PAGE_SIZE}
              total={data.total_count}
              onChange={(next) => {
                const copy = new URLSearchParams(params);
                copy.set(offsetParam, String(next));
                setParams(copy);
              }}
            />
          </>
        )}
      </QueryBody>
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
