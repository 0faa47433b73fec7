import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { organizationQuery } from '../api/console-queries.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { ConsoleTable } from '../layout/ConsoleTable.tsx';
import { MetadataView } from '../layout/MetadataView.tsx';
import { useConsole } from '../useConsole.ts';
import { OrganizationExtras } from './OrganizationExtras.tsx';

/**
 * /console/organizations/:organizationId — an organisation's members, roles, modules, subscription,
 * pending invitations, metadata, and its parent and client organisations (the product's hierarchy,
 * docs/client-organizations.md).
 */
export function OrganizationPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { organizationId: id = '' } = useParams();
  const { client, userId } = useConsole();
  const details = useQuery(organizationQuery(client, userId, id));
  const errorText = useConsoleErrorText();
  if (details.isPending) return <Loading testId="console-organization-loading" />;
  if (details.isError) {
    return (
      <LoadError
        what={t('console.organization.what')}
        message={errorText(details.error)}
        testId="console-organization-error"
        onRetry={() => void details.refetch()}
      />
    );
  }
  const {
    organization,
    memberships,
    invitations,
    parent_id: parentId,
    children_ids: childrenIds,
  } = details.data;
  return (
    <div data-testid="console-organization">
      <p>
        <Link to="/console/organizations">{t('console.organization.back')}</Link>
      </p>
      <h2>{organization.name}</h2>
      <p className="muted">
        <code>{organization.id}</code> · {organization.slug ?? '—'} ·{' '}
        {t('console.organization.createdAt', { date: formatInstant(organization.created_at, language) })}
      </p>

      <h3>{t('console.organization.members')}</h3>
      <ConsoleTable
        rows={memberships}
        empty={t('console.organization.noMembers')}
        columns={[
          {
            header: t('console.organization.member'),
            cell: (m) =>
              m.public_user_data ? (
                <Link to={`/console/users/${m.public_user_data.user_id}`}>
                  {m.public_user_data.identifier}
                </Link>
              ) : (
                '—'
              ),
          },
          { header: t('console.organization.role'), cell: (m) => m.role },
          { header: t('console.organization.since'), cell: (m) => formatInstant(m.created_at, language) },
        ]}
        rowKey={(m) => m.id}
        testId="console-organization-members"
      />

      <OrganizationExtras organizationId={organization.id} />

      <h3>{t('console.organization.invitations')}</h3>
      {invitations.length === 0 ? (
        <p className="muted">{t('console.organization.noInvitations')}</p>
      ) : (
        <ul>
          {invitations.map((i) => (
            <li key={i.id}>
              {i.email_address} · {i.role} · {formatInstant(i.created_at, language)}
            </li>
          ))}
        </ul>
      )}

      <h3>{t('console.organization.hierarchy')}</h3>
      <p>
        {t('console.organization.parent')}{' '}
        {parentId ? <Link to={`/console/organizations/${parentId}`}>{parentId}</Link> : '—'}
      </p>
      <p>
        {t('console.organization.children')}{' '}
        {childrenIds.length === 0
          ? '—'
          : childrenIds.map((child, index) => (
              <span key={child}>
                {index > 0 && ', '}
                <Link to={`/console/organizations/${child}`}>{child}</Link>
              </span>
            ))}
      </p>

      <h3>{t('console.user.metadata')}</h3>
      <MetadataView
        entries={[
          ['public', organization.public_metadata],
          ['private', organization.private_metadata],
        ]}
      />
    </div>
  );
}
