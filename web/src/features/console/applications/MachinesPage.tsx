import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { machinesQuery, PAGE_SIZE } from '../api/console-queries.ts';
import type { ConsoleMachine } from '../api/types.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { ActionButton } from '../layout/ActionButton.tsx';
import { useActionOutcome } from '../layout/useActionOutcome.ts';
import { SearchForm } from '../layout/SearchForm.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { ActionOutcome } from '../layout/ActionOutcome.tsx';
import { useConsole } from '../useConsole.ts';
import { useApplicationAction, type ApplicationAction, type NewMachine } from './application-actions.ts';
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
  const { setParams, search, offset, setOffset } = useListAddress();
  const machines = useQuery(machinesQuery(client, userId, search, offset));
  const action = useApplicationAction();
  const { done, run } = useActionOutcome<ApplicationAction, { text: string; secret?: string }>(action);
  const create = (machine: NewMachine, onCreated: () => void) =>
    run({ kind: 'create-machine', machine }, (answer) => {
      onCreated();
      const made = answer as ConsoleMachine;
      return {
        text: t('console.applications.machines.created', { name: made.name }),
        secret: made.secret_key,
      };
    });
  const remove = (machine: ConsoleMachine) =>
    run({ kind: 'delete-machine', machineId: machine.id }, () => ({
      text: t('console.applications.machines.deleted', { name: machine.name }),
    }));
  return (
    <div data-testid="console-machines">
      <h3>{t('console.applications.machines.create')}</h3>
      <MachineForm pending={action.isPending} onSubmit={create} />
      <ActionOutcome error={action.error} done={done?.text} testId="console-machines-action" />
      <SecretOnce
        label={t('console.applications.machines.secretKey')}
        secret={done?.secret}
        testId="console-machine-secret"
      />
      <h3>{t('console.applications.sections.machines')}</h3>
      <SearchForm
        key={search}
        initial={search}
        label={t('console.applications.machines.search')}
        testId="console-machines-search"
        onSearch={(text) => setParams(text ? { query: text } : {})}
      />
      <PagedTable
        query={machines}
        what={t('console.applications.machines.what')}
        empty={t('console.applications.machines.none')}
        testId="console-machines"
        columns={[
          { header: t('console.applications.name'), cell: (machine) => machine.name },
          { header: t('console.applications.machines.id'), cell: (machine) => <code>{machine.id}</code> },
          {
            header: t('console.applications.machines.scopes'),
            cell: (machine) =>
              machine.scoped_machines.length ? machine.scoped_machines.map((m) => m.name).join(', ') : '—',
            testId: 'console-machine-scopes',
          },
          {
            header: t('console.applications.machines.tokenTtl'),
            cell: (machine) =>
              t('console.applications.machines.seconds', { value: machine.default_token_ttl }),
          },
          {
            header: t('console.applications.createdAt'),
            cell: (machine) => formatInstant(machine.created_at, language),
          },
        ]}
        rowKey={(machine) => machine.id}
        rowAttributes={(machine) => ({ 'data-testid': 'console-machine-row', 'data-name': machine.name })}
        actions={(machine) => (
          <ActionButton
            kind="danger"
            pending={action.isPending}
            confirm={t('console.applications.machines.confirmDelete', { name: machine.name })}
            onClick={() => remove(machine)}
            testId="console-machine-delete"
          >
            {t('console.applications.delete')}
          </ActionButton>
        )}
        offset={offset}
        size={PAGE_SIZE}
        onPage={setOffset}
      />
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
