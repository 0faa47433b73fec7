import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { AUDIT_PAGE_SIZE, auditEventsQuery, type AuditFilters } from '../api/console-queries.ts';
import type { AuditEvent } from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';
import { exportAuditEvents } from './export-audit-events.ts';

const ACTOR_TYPES = ['operator', 'secret_key', 'api_key', 'cli', 'user', 'system'] as const;
const TEXT_FILTERS = ['actor_id', 'action', 'object_type', 'object_id'] as const;

/** The filters in the address: text as is, the dates as days (`2026-12-06`), turned into Unix milliseconds. */
function filtersOf(params: URLSearchParams): AuditFilters {
  const day = (name: string, end: boolean) => {
    const value = params.get(name);
    if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
    const start = new Date(`${value}T00:00:00`).getTime();
    return String(end ? start + 86_400_000 : start);
  };
  return {
    actor_type: params.get('actor_type') || undefined,
    ...Object.fromEntries(TEXT_FILTERS.map((name) => [name, params.get(name) || undefined])),
    created_at_after: day('from', false),
    created_at_before: day('to', true),
  };
}

/** /console/audit-log — the audit log (docs/audit-log.md), newest first, with its filters and an export. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { params, offset, setOffset, submitFilters } = useListAddress();
  const filters = filtersOf(params);
  const events = useQuery(auditEventsQuery(client, userId, filters, offset));
  const exporting = useMutation({ mutationFn: () => exportAuditEvents(client, filters) });
  const errorText = useConsoleErrorText();
  return (
    <div data-testid="console-audit-log">
      <h2>{t('console.audit.title')}</h2>
      <form className="console__filters" onSubmit={submitFilters} key={params.toString()}>
        <label>
          <span>{t('console.audit.actorType')}</span>
          <select
            name="actor_type"
            defaultValue={params.get('actor_type') ?? ''}
            data-testid="console-audit-actor-type"
          >
            <option value="">{t('console.audit.any')}</option>
            {ACTOR_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`console.audit.actorTypes.${type}`)}
              </option>
            ))}
          </select>
        </label>
        {TEXT_FILTERS.map((name) => (
          <label key={name}>
            <span>{t(`console.audit.filters.${name}`)}</span>
            <input
              name={name}
              maxLength={255}
              defaultValue={params.get(name) ?? ''}
              data-testid={`console-audit-${name}`}
            />
          </label>
        ))}
        <label>
          <span>{t('console.audit.from')}</span>
          <input
            type="date"
            name="from"
            defaultValue={params.get('from') ?? ''}
            lang={language.toLowerCase()}
          />
        </label>
        <label>
          <span>{t('console.audit.to')}</span>
          <input type="date" name="to" defaultValue={params.get('to') ?? ''} lang={language.toLowerCase()} />
        </label>
        <button type="submit" className="button" data-testid="console-audit-filter">
          {t('console.audit.filter')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          data-testid="console-audit-export"
          disabled={exporting.isPending}
          onClick={() => exporting.mutate()}
        >
          {t('console.audit.export')}
        </button>
      </form>
      {exporting.isError && (
        <p className="status status--error" role="alert">
          {errorText(exporting.error)}
        </p>
      )}
      <PagedTable
        query={events}
        what={t('console.audit.what')}
        empty={t('console.audit.none')}
        testId="console-audit"
        columns={[
          { header: t('console.audit.when'), cell: (event) => formatInstant(event.created_at, language) },
          { header: t('console.audit.who'), cell: (event) => <AuditActor event={event} /> },
          { header: t('console.audit.what'), cell: (event) => <code>{event.action}</code> },
          { header: t('console.audit.object'), cell: (event) => <AuditSubject event={event} /> },
          {
            header: t('console.audit.summary'),
            cell: (event) => <code className="console__summary">{JSON.stringify(event.summary)}</code>,
          },
        ]}
        rowKey={(event) => event.id}
        rowAttributes={(event) => ({ 'data-testid': 'console-audit-row', 'data-action': event.action })}
        offset={offset}
        size={AUDIT_PAGE_SIZE}
        onPage={setOffset}
      />
    </div>
  );
}

/** Who did it: the kind of actor, and their id (a link to the user where the actor is one). */
function AuditActor({ event }: { event: AuditEvent }) {
  const { t } = useTranslation();
  return (
    <>
      {t(`console.audit.actorTypes.${event.actor.type}`, { defaultValue: event.actor.type })}
      {event.actor.id && (
        <>
          {' '}
          {event.actor.type === 'operator' || event.actor.type === 'user' ? (
            <Link to={`/console/users/${event.actor.id}`}>
              <code>{event.actor.id}</code>
            </Link>
          ) : (
            <code>{event.actor.id}</code>
          )}
        </>
      )}
    </>
  );
}

/** What it was done to: a link to the user or the organisation, else its id or its kind. */
function AuditSubject({ event }: { event: AuditEvent }) {
  const subject = event.subject.id;
  if (subject && event.subject.type === 'user')
    return <Link to={`/console/users/${subject}`}>{subject}</Link>;
  if (subject && event.subject.type === 'organization')
    return <Link to={`/console/organizations/${subject}`}>{subject}</Link>;
  return <>{subject ?? event.subject.type ?? '—'}</>;
}
