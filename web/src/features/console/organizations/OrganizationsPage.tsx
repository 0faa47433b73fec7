import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { organizationsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import { formatInstant } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { SearchForm } from '../layout/SearchForm.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';

/** /console/organizations — search organisations by name, slug or id. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { setParams, search, offset } = useListAddress();
  const organizations = useQuery(organizationsQuery(client, userId, search, offset));
  return (
    <div data-testid="console-organizations">
      <h2>{t('console.organizations.title')}</h2>
      <SearchForm
        key={search}
        initial={search}
        label={t('console.organizations.searchLabel')}
        testId="console-organizations-search"
        onSearch={(query) => setParams(query ? { query } : {})}
      />
      <PagedTable
        query={organizations}
        what={t('console.organizations.what')}
        empty={t('console.organizations.none')}
        testId="console-organizations"
        columns={[
          {
            header: t('console.organizations.name'),
            cell: (o) => <Link to={`/console/organizations/${o.id}`}>{o.name}</Link>,
          },
          { header: t('console.organizations.slug'), cell: (o) => o.slug ?? '—' },
          { header: t('console.organizations.members'), cell: (o) => o.members_count ?? '—' },
          {
            header: t('console.organizations.createdAt'),
            cell: (o) => formatInstant(o.created_at, language),
          },
        ]}
        rowKey={(o) => o.id}
        offset={offset}
        size={PAGE_SIZE}
        onPage={(next) => setParams({ ...(search ? { query: search } : {}), offset: String(next) })}
      />
    </div>
  );
}
