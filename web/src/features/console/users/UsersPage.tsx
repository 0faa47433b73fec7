import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { QueryBody } from '../layout/QueryBody.tsx';
import { PAGE_SIZE, usersQuery } from '../api/console-queries.ts';
import { displayName, formatInstant, primaryEmail } from '../format.ts';
import { Pager } from '../layout/Pager.tsx';
import { SearchForm } from '../layout/SearchForm.tsx';
import { useConsole } from '../useConsole.ts';

/** /console/users — search users by email, phone, username, name or id (`users.getUserList({ query })`). */
export function UsersPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const [params, setParams] = useSearchParams();
  const search = params.get('query') ?? '';
  const offset = Number(params.get('offset')) || 0;
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
      <QueryBody
        query={users}
        what={t('console.users.what')}
        empty={t('console.users.none')}
        testId="console-users"
      >
        {(data) => (
          <>
            <table className="console__table" data-testid="console-users-table">
              <thead>
                <tr>
                  <th>{t('console.users.name')}</th>
                  <th>{t('console.users.email')}</th>
                  <th>{t('console.users.state')}</th>
                  <th>{t('console.users.createdAt')}</th>
                  <th>{t('console.users.lastSignIn')}</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((user) => (
                  <tr key={user.id} data-testid="console-user-row">
                    <td>
                      <Link to={`/console/users/${user.id}`}>{displayName(user)}</Link>
                    </td>
                    <td>{primaryEmail(user) ?? '—'}</td>
                    <td>
                      {[
                        user.banned && t('console.users.banned'),
                        user.locked && t('console.users.locked'),
                        user.two_factor_enabled && t('console.users.twoFactor'),
                      ]
                        .filter(Boolean)
                        .join(', ') || '—'}
                    </td>
                    <td>{formatInstant(user.created_at, language)}</td>
                    <td>{formatInstant(user.last_sign_in_at, language)}</td>
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
