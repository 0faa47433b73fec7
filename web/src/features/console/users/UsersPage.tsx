import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { PAGE_SIZE, usersQuery } from '../api/console-queries.ts';
import { displayName, formatInstant, primaryEmail } from '../format.ts';
import { PagedTable } from '../layout/PagedTable.tsx';
import { SearchForm } from '../layout/SearchForm.tsx';
import { useListAddress } from '../layout/useListAddress.ts';
import { useConsole } from '../useConsole.ts';

/** /console/users — search users by email, phone, username, name or id (`users.getUserList({ query })`). */
export function UsersPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const { setParams, search, offset } = useListAddress();
  const users = useQuery(usersQuery(client, userId, search, offset));
  return (
    <div data-testid="console-users">
      <h2>{t('console.users.title')}</h2>
      <SearchForm
        key={search}
        initial={search}
        label={t('console.users.searchLabel')}
        testId="console-users-search"
        onSearch={(query) => setParams(query ? { query } : {})}
      />
      <PagedTable
        query={users}
        what={t('console.users.what')}
        empty={t('console.users.none')}
        testId="console-users"
        columns={[
          {
            header: t('console.users.name'),
            cell: (user) => <Link to={`/console/users/${user.id}`}>{displayName(user)}</Link>,
          },
          { header: t('console.users.email'), cell: (user) => primaryEmail(user) ?? '—' },
          {
            header: t('console.users.state'),
            cell: (user) =>
              [
                user.banned && t('console.users.banned'),
                user.locked && t('console.users.locked'),
                user.two_factor_enabled && t('console.users.twoFactor'),
              ]
                .filter(Boolean)
                .join(', ') || '—',
          },
          { header: t('console.users.createdAt'), cell: (user) => formatInstant(user.created_at, language) },
          {
            header: t('console.users.lastSignIn'),
            cell: (user) => formatInstant(user.last_sign_in_at, language),
          },
        ]}
        rowKey={(user) => user.id}
        rowAttributes={() => ({ 'data-testid': 'console-user-row' })}
        offset={offset}
        size={PAGE_SIZE}
        onPage={(next) => setParams({ ...(search ? { query: search } : {}), offset: String(next) })}
      />
    </div>
  );
}
