import { isEmailAddress, isOrgRole } from '@app/contract';
import { useOrganization, useUser } from '@clerk/clerk-react';
import type { OrganizationResource } from '@clerk/types';
import { useId, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage, TranslatableError, type Translate } from '../../../lib/error-message.ts';
import { useHttpClient } from '../../../lib/http/useHttpClient.ts';
import { formatNumber } from '../../../lib/i18n/format.ts';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { useAuthState } from '../../../state/auth/AuthStateProvider.tsx';
import { ORG_ROLES, roleLabel, type OrgRole } from '../../../state/auth/roles.ts';
import { selectHasAdminRights } from '../../../state/auth/selectors.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { PageTitle } from '../../../ui/PageTitle.tsx';
import { addMemberByEmail, type NewMemberAnswer } from './api/add-member.ts';
import { useOrganizationMembers, type Member, type RoleOption } from './useOrganizationMembers.ts';

/** The product's own members management; only for users with admin rights in the active organisation. */
export function MembersPage() {
  const auth = useAuthState();
  const organizationId = auth.organization?.id;
  if (!organizationId || !selectHasAdminRights(auth))
    return <MembersForbidden hasOrganization={organizationId !== undefined} />;
  return <MembersManager organizationId={organizationId} />;
}

function MembersForbidden({ hasOrganization }: { hasOrganization: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="card card--error page-narrow" role="alert" data-testid="members-forbidden">
      <PageTitle>{t('members.title')}</PageTitle>
      <h1>{t('members.forbidden.heading')}</h1>
      <p>{hasOrganization ? t('members.forbidden.notAdmin') : t('members.forbidden.noOrganization')}</p>
      <p>
        <Link to="/dashboard">{t('common.backToDashboard')}</Link>
      </p>
    </section>
  );
}

/** Worded at render, so a notice shown before a language switch follows it. */
type Feedback =
  | { kind: 'ok'; describe: (t: Translate) => string }
  | { kind: 'error'; error: unknown; fallbackKey: string }
  | null;

function MembersManager({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { organization } = useOrganization();
  const { user } = useUser();
  const client = useHttpClient();
  const { state, reload } = useOrganizationMembers(organizationId);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState<string | null>(null);
  // Roles chosen but not yet confirmed by a reload, valid only for the member list they were chosen on.
  const [chosenRoles, setChosenRoles] = useState<{ list: Member[]; roles: Record<string, string> } | null>(
    null,
  );

  /**
   * Runs one change (through clerk-js, or the product API for adding by address), then reads the members
   * again; the provider and the server enforce the rules.
   */
  async function change<Result>(
    action: (organization: OrganizationResource) => Promise<Result>,
    done: (t: Translate, result: Result) => string,
    fallbackKey: string,
  ): Promise<boolean> {
    if (!organization || organization.id !== organizationId) return false;
    setBusy(true);
    setFeedback(null);
    try {
      const result = await action(organization);
      setFeedback({ kind: 'ok', describe: (t) => done(t, result) });
      return true;
    } catch (error) {
      setFeedback({ kind: 'error', error, fallbackKey });
      return false;
    } finally {
      setBusy(false);
      reload();
    }
  }

  async function changeRole(member: Member, list: Member[], roles: RoleOption[], role: string) {
    setChosenRoles((current) => ({
      list,
      roles: { ...(current?.list === list ? current.roles : {}), [member.userId]: role },
    }));
    const ok = await change(
      (org) => org.updateMember({ userId: member.userId, role }),
      (t) => t('members.notices.roleChanged', { name: displayName(member), role: roleName(role, roles, t) }),
      'members.errors.roleNotChanged',
    );
    // Your own role lives in your Clerk user's memberships: read them again so rights follow at once.
    if (ok && member.userId === user?.id) await user.reload();
  }

  async function remove(member: Member) {
    setConfirmingRemoval(null);
    await change(
      (org) => org.removeMember(member.userId),
      (t) => t('members.notices.removed', { name: displayName(member) }),
      'members.errors.notRemoved',
    );
  }

  return (
    <div className="members" data-testid="members-page">
      <PageTitle>{t('members.title')}</PageTitle>
      <h1>{t('members.title')}</h1>
      <p className="muted">
        <Trans
          t={t}
          i18nKey="members.intro"
          components={{ settings: <Link to="/organization/organization-members" /> }}
        />
      </p>

      <div aria-live="polite">
        {feedback && (
          <p
            className={`status ${feedback.kind === 'ok' ? 'status--ok' : 'status--error'}`}
            role={feedback.kind === 'error' ? 'alert' : 'status'}
            data-testid={feedback.kind === 'ok' ? 'members-notice' : 'members-error'}
          >
            {feedback.kind === 'ok'
              ? feedback.describe(t)
              : errorMessage(feedback.error, t, feedback.fallbackKey)}
          </p>
        )}
      </div>

      {state.status === 'loading' && <Loading testId="members-loading">{t('members.loading')}</Loading>}
      {state.status === 'error' && (
        <LoadError
          what={t('members.what')}
          message={errorMessage(state.error, t, 'members.errors.notLoaded')}
          testId="members-load-error"
          onRetry={reload}
        />
      )}
      {state.status === 'loaded' && (
        <>
          <section className="card" aria-labelledby="members-list-heading">
            <h2 id="members-list-heading">
              {t('members.count', {
                count: state.members.length,
                formatted: formatNumber(state.members.length, language),
              })}
            </h2>
            <table className="members-table">
              <thead>
                <tr>
                  <th scope="col">{t('members.table.member')}</th>
                  <th scope="col">{t('members.table.role')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('members.table.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {state.members.map((member) => {
                  const isYou = member.userId === user?.id;
                  const role =
                    (chosenRoles?.list === state.members ? chosenRoles.roles[member.userId] : undefined) ??
                    member.role;
                  return (
                    <tr key={member.userId} data-testid={`members-row-${member.userId}`}>
                      <td>
                        <span className="members-table__name">{displayName(member)}</span>
                        {isYou && <span className="badge">{t('members.you')}</span>}
                        {member.name && (
                          <span className="members-table__identifier muted">{member.identifier}</span>
                        )}
                      </td>
                      <td>
                        <RoleSelect
                          label={t('members.roleOf', { name: displayName(member) })}
                          roles={state.roles}
                          value={role}
                          disabled={busy}
                          testId={`members-role-select-${member.userId}`}
                          onChange={(next) => void changeRole(member, state.members, state.roles, next)}
                        />
                      </td>
                      <td className="members-table__actions">
                        {confirmingRemoval === member.userId ? (
                          <span className="actions">
                            <button
                              type="button"
                              className="button button--danger"
                              disabled={busy}
                              onClick={() => void remove(member)}
                              data-testid={`members-remove-confirm-${member.userId}`}
                            >
                              {t('members.removeNamed', { name: displayName(member) })}
                            </button>
                            <button
                              type="button"
                              className="button button--secondary"
                              onClick={() => setConfirmingRemoval(null)}
                              data-testid={`members-remove-cancel-${member.userId}`}
                            >
                              {t('common.cancel')}
                            </button>
                          </span>
                        ) : (
                          <button
                            type="button"
                            className="button button--secondary"
                            // Leaving is done from the organisation settings, where it asks for the name.
                            disabled={busy || isYou}
                            title={isYou ? t('members.leaveHint') : undefined}
                            onClick={() => setConfirmingRemoval(member.userId)}
                            data-testid={`members-remove-${member.userId}`}
                          >
                            {t('members.remove')}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
          <AddMemberForm
            roles={state.roles}
            busy={busy}
            onInvalid={() =>
              setFeedback({
                kind: 'error',
                error: new TranslatableError('members.errors.emailAddressInvalid'),
                fallbackKey: 'members.errors.notAdded',
              })
            }
            onAdd={(emailAddress, role) =>
              change(
                () => addMemberByEmail(client, { emailAddress, role }),
                (t, answer: NewMemberAnswer) =>
                  t(answer.outcome === 'added' ? 'members.notices.added' : 'members.notices.invited', {
                    emailAddress: answer.emailAddress,
                    role: roleName(answer.role, state.roles, t),
                  }),
                'members.errors.notAdded',
              )
            }
          />
        </>
      )}
    </div>
  );
}

/** Adds by email address: an existing account joins at once, anyone else is sent an invitation. */
function AddMemberForm({
  roles,
  busy,
  onAdd,
  onInvalid,
}: {
  roles: RoleOption[];
  busy: boolean;
  onAdd: (emailAddress: string, role: OrgRole) => Promise<boolean>;
  onInvalid: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const defaultRole = roles.some((r) => r.key === ORG_ROLES.member)
    ? ORG_ROLES.member
    : (roles[0]?.key ?? '');
  const [emailAddress, setEmailAddress] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const chosenRole = role ?? defaultRole;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = emailAddress.trim();
    if (!trimmed || !isOrgRole(chosenRole)) return;
    // Checked here, in the interface language (the browser's own bubble would speak its language).
    if (!isEmailAddress(trimmed)) return onInvalid();
    if (await onAdd(trimmed, chosenRole)) setEmailAddress('');
  }

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('members.add.heading')}</h2>
      <p className="muted">{t('members.add.intro')}</p>
      <form className="members-add" noValidate onSubmit={(event) => void submit(event)}>
        <label htmlFor={`${id}-email`}>{t('members.add.emailAddress')}</label>
        <input
          id={`${id}-email`}
          className="input"
          type="email"
          inputMode="email"
          value={emailAddress}
          onChange={(event) => setEmailAddress(event.target.value)}
          placeholder={t('members.add.emailAddressPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          required
          data-testid="members-add-email"
        />
        <label htmlFor={`${id}-role`}>{t('members.table.role')}</label>
        <RoleSelect
          id={`${id}-role`}
          roles={roles}
          value={chosenRole}
          disabled={busy}
          testId="members-add-role"
          onChange={setRole}
        />
        <button
          type="submit"
          className="button"
          disabled={busy || !emailAddress.trim() || !chosenRole}
          data-testid="members-add-submit"
        >
          {t('members.add.submit')}
        </button>
      </form>
    </section>
  );
}

function RoleSelect({
  id,
  label,
  roles,
  value,
  disabled,
  testId,
  onChange,
}: {
  id?: string;
  label?: string;
  roles: RoleOption[];
  value: string;
  disabled: boolean;
  testId: string;
  onChange: (role: string) => void;
}) {
  const { t } = useTranslation();
  // A role the instance no longer lists (or a custom one) still shows as the current value.
  const options = roles.some((r) => r.key === value) ? roles : [...roles, { key: value, name: '' }];
  return (
    <select
      id={id}
      aria-label={label}
      className="select"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
    >
      {options.map((role) => (
        <option key={role.key} value={role.key}>
          {roleLabel(role.key, t, role.name)}
        </option>
      ))}
    </select>
  );
}

/** A role's label: ours for the instance's roles, else the name the provider lists it under. */
function roleName(role: string, roles: RoleOption[], t: Translate): string {
  return roleLabel(role, t, roles.find((r) => r.key === role)?.name);
}

function displayName(member: Member): string {
  return member.name ?? member.identifier;
}
