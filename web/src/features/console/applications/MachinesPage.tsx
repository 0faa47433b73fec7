import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { machinesQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsoleMachine } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
import { QueryBody } from '../layout/QueryBody.tsx';
import { SearchForm } from '../layout/SearchForm.tsx';
import { ActionOutcome } from '../sign-up/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import { useApplicationAction, type NewMachine } from './application-actions.ts';
import { SecretOnce } from './SecretOnce.tsx';

/**
 * /console/applications/machines — the instance's machines (services that call each other with
 * machine-to-machine tokens), each with the machines it may call (its M2M scopes); create one (its
 * secret key shown once), delete one (re-verified).
 */
export function MachinesPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const [params, setParams] = useSearchParams();
  const search = params.get('query') ?? '';
  const offset = Number(params.get('offset')) || 0;
  const machines = useQuery(machinesQuery(client, userId, search, offset));
  const action = useApplicationAction();
  const [done, setDone] = useState<{ text: string; secret?: string } | null>(null);
  const create = (machine: NewMachine, onCreated: () => void) => {
    setDone(null);
    action.mutate(
      { kind: 'create-machine', machine },
      {
        onSuccess: (answer) => {
          onCreated();
          const made = answer as ConsoleMachine;
          setDone({
            text: t('console.applications.machines.created', { name: made.name }),
            secret: made.secret_key,
          });
        },
      },
    );
  };
  const remove = (machine: ConsoleMachine) => {
    if (!window.confirm(t('console.applications.machines.confirmDelete', { name: machine.name }))) return;
    setDone(null);
    action.mutate(
      { kind: 'delete-machine', machineId: machine.id },
      {
        onSuccess: () =>
          setDone({ text: t('console.applications.machines.deleted', { name: machine.name }) }),
      },
    );
  };
  return (
    <div data-testid="console-machines">
      <h3>{t('console.applications.machines.create')}</h3>
      <MachineForm pending={action.isPending} onSubmit={create} />
      <ActionOutcome error={action.error} done={done?.text} testId="console-machines-action" />
      {done?.secret && (
        <SecretOnce
          label={t('console.applications.machines.secretKey')}
          secret={done.secret}
          testId="console-machine-secret"
        />
      )}
      <h3>{t('console.applications.sections.machines')}</h3>
      <SearchForm
        key={search}
        initial={search}
        label={t('console.applications.machines.search')}
        testId="console-machines-search"
        onSearch={(text) => setParams(text ? { query: text } : {})}
      />
      <QueryBody
        query={machines}
        what={t('console.applications.machines.what')}
        empty={t('console.applications.machines.none')}
        testId="console-machines"
      >
        {(data) => (
          <>
            <table className="console__table" data-testid="console-machines-table">
              <thead>
                <tr>
                  <th>{t('console.applications.name')}</th>
                  <th>{t('console.applications.machines.id')}</th>
                  <th>{t('console.applications.machines.scopes')}</th>
                  <th>{t('console.applications.machines.tokenTtl')}</th>
                  <th>{t('console.applications.createdAt')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.data.map((machine) => (
                  <tr key={machine.id} data-testid="console-machine-row" data-name={machine.name}>
                    <td>{machine.name}</td>
                    <td>
                      <code>{machine.id}</code>
                    </td>
                    <td data-testid="console-machine-scopes">
                      {machine.scoped_machines.length
                        ? machine.scoped_machines.map((m) => m.name).join(', ')
                        : '—'}
                    </td>
                    <td>
                      {t('console.applications.machines.seconds', { value: machine.default_token_ttl })}
                    </td>
                    <td>{formatInstant(machine.created_at, language)}</td>
                    <td>
                      <button
                        type="button"
                        className="button button--danger"
                        disabled={action.isPending}
                        onClick={() => remove(machine)}
                        data-testid="console-machine-delete"
                      >
                        {t('console.applications.delete')}
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
                copy.set('offset', String(next));
                setParams(copy);
              }}
            />
          </>
        )}
      </QueryBody>
    </div>
  );
}

/** A new machine: its name, its tokens' lifetime, and the machines (ids, one a line) it may call. */
function MachineForm({
  pending,
  onSubmit,
}: {
  pending: boolean;
  onSubmit: (machine: NewMachine, onCreated: () => void) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [ttl, setTtl] = useState('');
  const [scoped, setScoped] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    const ids = scoped
      .split(/[\s,]+/)
      .map((id) => id.trim())
      .filter(Boolean);
    onSubmit(
      {
        name: name.trim(),
        ...(ttl ? { default_token_ttl: Number(ttl) } : {}),
        ...(ids.length ? { scoped_machines: ids } : {}),
      },
      () => {
        setName('');
        setTtl('');
        setScoped('');
      },
    );
  };
  return (
    <form className="console__filters" onSubmit={submit}>
      <label>
        <span>{t('console.applications.name')}</span>
        <input
          type="text"
          value={name}
          maxLength={255}
          required
          onChange={(e) => setName(e.target.value)}
          data-testid="console-machine-name"
        />
      </label>
      <label>
        <span>{t('console.applications.machines.tokenTtlLabel')}</span>
        <input
          type="number"
          min={1}
          step={1}
          value={ttl}
          placeholder="3600"
          onChange={(e) => setTtl(e.target.value)}
          data-testid="console-machine-ttl"
        />
      </label>
      <label>
        <span>{t('console.applications.machines.scopesLabel')}</span>
        <textarea
          value={scoped}
          rows={2}
          placeholder="mch_…"
          onChange={(e) => setScoped(e.target.value)}
          data-testid="console-machine-scoped"
        />
      </label>
      <button type="submit" className="button" disabled={pending} data-testid="console-machine-create">
        {t('console.applications.machines.submit')}
      </button>
    </form>
  );
}
