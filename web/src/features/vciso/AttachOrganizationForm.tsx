import { useOrganizationList } from '@clerk/clerk-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { roleHasAdminRights } from '../../state/auth/roles.ts';
import type { ChildOrganization } from './api/child-organization.ts';
import { attachChildOrganization } from './api/attach-child-organization.ts';
import { useHierarchyChange } from './useHierarchyChange.ts';

/**
 * Attaches one of the user's organisations where they are admin or vCISO (Clerk's list of their
 * memberships). The server checks that role again, and the hierarchy rules, whatever this form offers.
 */
export function AttachOrganizationForm({
  excludedIds,
  onAttached,
}: {
  /** The active organisation and its current children. */
  excludedIds: string[];
  onAttached: (child: ChildOrganization) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { isLoaded, userMemberships } = useOrganizationList({
    userMemberships: { infinite: true, pageSize: 50 },
  });
  const [selected, setSelected] = useState('');
  const { busy, error, run } = useHierarchyChange(attachChildOrganization);

  // Every page: the select offers all of them.
  const { hasNextPage, isFetching, fetchNext } = userMemberships;
  useEffect(() => {
    if (hasNextPage && !isFetching) fetchNext?.();
  }, [hasNextPage, isFetching, fetchNext]);
  // A creation or a detach changes which organisations qualify; Clerk's list is read again then.
  const excludedKey = excludedIds.join(',');
  const revalidate = userMemberships.revalidate;
  useEffect(() => {
    void revalidate?.();
  }, [excludedKey, revalidate]);

  const candidates = (userMemberships.data ?? [])
    .filter((m) => roleHasAdminRights(m.role) && !excludedIds.includes(m.organization.id))
    .map((m) => m.organization);
  const choice = candidates.some((o) => o.id === selected) ? selected : '';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!choice) return;
    void run(choice).then((child) => {
      if (!child) return;
      setSelected('');
      onAttached(child);
    });
  }

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('vciso.attach.heading')}</h2>
      {isLoaded && !userMemberships.isLoading && candidates.length === 0 ? (
        <p className="muted" data-testid="attach-none">
          {t('vciso.attach.none')}
        </p>
      ) : (
        <form className="vciso-form" onSubmit={submit} data-testid="attach-form">
          <label htmlFor={`${id}-organization`}>{t('vciso.attach.organization')}</label>
          <select
            id={`${id}-organization`}
            className="select"
            required
            value={choice}
            onChange={(e) => setSelected(e.currentTarget.value)}
            data-testid="attach-organization"
          >
            <option value="">{t('vciso.attach.choose')}</option>
            {candidates.map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name}
              </option>
            ))}
          </select>
          <button type="submit" className="button" disabled={busy || !choice} data-testid="attach-submit">
            {busy ? t('vciso.attach.submitting') : t('vciso.attach.submit')}
          </button>
        </form>
      )}
      {error && (
        <p className="status status--error" role="alert" data-testid="attach-error">
          {error}
        </p>
      )}
    </section>
  );
}
