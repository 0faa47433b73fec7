import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { QueryBody } from '../layout/QueryBody.tsx';
import { organizationsQuery, PAGE_SIZE } from '../api/console-queries.ts';
import { formatInstant } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
import { SearchForm } from '../layout/SearchForm.tsx';
import { useConsole } from '../useConsole.ts';

/** /console/organizations — search organisations by name, slug or id. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const [params, setParams] = useSearchParams();
  const search = params.get('query') ?? '';
  const offset = Number(params.get('offset')) || 0;
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
      <QueryBody
        query={organizations}
        what={t('console.organizations.what')}
        empty={t('console.organizations.none')}
        testId="console-organizations"
      >
        {(data) => (
          <>
            <table className="console__table" data-testid="console-organizations-table">
              <thead>
                <tr>
                  <th>{t('console.organizations.name')}</th>
                  <th>{t('console.organizations.slug')}</th>
                  <th>{t('console.organizations.members')}</th>
                  <th>{t('console.organizations.createdAt')}</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <Link to={`/console/organizations/${o.id}`}>{o.name}</Link>
                    </td>
                    <td>{o.slug ?? '—'}</td>
                    <td>{o.members_count ?? '—'}</td>
                    <td>{formatInstant(o.created_at, language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              offset={offset}
              size={PAGE_SIZE}
              total={data.total_count}
              onChange={(next) => setParams({ ...(search ? { query: search } : {}), offset: String(next) })}
            />
          </>
        )}
      </QueryBody>
    </div>
  );
}
