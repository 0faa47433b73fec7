import { useOrganization, useUser } from '@clerk/clerk-react';
import type { OrganizationResource } from '@clerk/types';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { clerkErrorMessage } from '../../../lib/clerk-error-message.ts';
import { PRODUCT_NAME } from '../../../lib/product.ts';
import { useAuthState } from '../../../state/auth/AuthStateProvider.tsx';
import { ORG_ROLES, roleLabel } from '../../../state/auth/roles.ts';
import { selectHasAdminRights } from '../../../state/auth/selectors.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
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
  return (
    <section className="card card--error page-narrow" role="alert" data-testid="members-forbidden">
      <title>{`Members · ${PRODUCT_NAME}`}</title>
      <h1>You need admin rights</h1>
      <p>
        {hasOrganization
          ? 'Only admins and virtual security officers of an organisation can manage its members.'
          : 'Members are managed per organisation, and you have no active organisation.'}
      </p>
      <p>
        <Link to="/dashboard">Back to the dashboard</Link>
      </p>
    </section>
  );
}

type Feedback = { kind: 'ok' | 'error'; message: string } | null;

function MembersManager({ organizationId }: { organizationId: string }) {
  const { organization } = useOrganization();
  const { user } = useUser();
  const { state, reload } = useOrganizationMembers(organizationId);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState<string | null>(null);
  // Roles chosen but not yet confirmed by a reload, valid only for the member list they were chosen on.
  const [chosenRoles, setChosenRoles] = useState<{ list: Member[]; roles: Record<string, string> } | null>(
    null,
  );

  /** Runs one change through clerk-js, then reads the members again; the provider enforces the rules. */
  async function change(
    action: (organization: OrganizationResource) => Promise<unknown>,
    done: string,
    failed: string,
  ): Promise<boolean> {
    if (!organization || organization.id !== organizationId) return false;
    setBusy(true);
    setFeedback(null);
    try {
      await action(organization);
      setFeedback({ kind: 'ok', message: done });
      return true;
    } catch (error) {
      setFeedback({ kind: 'error', message: clerkErrorMessage(error, failed) });
      return false;
    } finally {
      setBusy(false);
      reload();
    }
  }

  async function changeRole(member: Member, list: Member[], role: string) {
    setChosenRoles((current) => ({
      list,
      roles: { ...(current?.list === list ? current.roles : {}), [member.userId]: role },
    }));
    const ok = await change(
      (org) => org.updateMember({ userId: member.userId, role }),
      `${displayName(member)} is now ${roleLabel(role)}.`,
      'The role could not be changed.',
    );
    // Your own role lives in your Clerk user's memberships: read them again so rights follow at once.
    if (ok && member.userId === user?.id) await user.reload();
  }

  async function remove(member: Member) {
    setConfirmingRemoval(null);
    await change(
      (org) => org.removeMember(member.userId),
      `${displayName(member)} was removed from the organisation.`,
      'The member could not be removed.',
    );
  }

  return (
    <div className="members" data-testid="members-page">
      <title>{`Members · ${PRODUCT_NAME}`}</title>
      <h1>Members</h1>
      <p className="muted">
        Change roles, remove members, or add someone who already has an account. To invite people by email,
        use the <Link to="/organization/organization-members">organisation settings</Link>.
      </p>

      <div aria-live="polite">
        {feedback && (
          <p
            className={`status ${feedback.kind === 'ok' ? 'status--ok' : 'status--error'}`}
            role={feedback.kind === 'error' ? 'alert' : 'status'}
            data-testid={feedback.kind === 'ok' ? 'members-notice' : 'members-error'}
          >
            {feedback.message}
          </p>
        )}
      </div>

      {state.status === 'loading' && <Loading testId="members-loading">Loading members…</Loading>}
      {state.status === 'error' && (
        <LoadError what="The members" message={state.message} testId="members-load-error" onRetry={reload} />
      )}
      {state.status === 'loaded' && (
        <>
          <section className="card" aria-labelledby="members-list-heading">
            <h2 id="members-list-heading">
              {state.members.length === 1 ? '1 member' : `${state.members.length} members`}
            </h2>
            <table className="members-table">
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Role</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
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
                        {isYou && <span className="badge">You</span>}
                        {member.name && (
                          <span className="members-table__identifier muted">{member.identifier}</span>
                        )}
                      </td>
                      <td>
                        <RoleSelect
                          label={`Role of ${displayName(member)}`}
                          roles={state.roles}
                          value={role}
                          disabled={busy}
                          testId={`members-role-select-${member.userId}`}
                          onChange={(next) => void changeRole(member, state.members, next)}
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
                              Remove {displayName(member)}
                            </button>
                            <button
                              type="button"
                              className="button button--secondary"
                              onClick={() => setConfirmingRemoval(null)}
                              data-testid={`members-remove-cancel-${member.userId}`}
                            >
                              Cancel
                            </button>
                          </span>
                        ) : (
                          <button
                            type="button"
                            className="button button--secondary"
                            // Leaving is done from the organisation settings, where it asks for the name.
                            disabled={busy || isYou}
                            title={
                              isYou ? 'To leave the organisation, use the organisation settings.' : undefined
                            }
                            onClick={() => setConfirmingRemoval(member.userId)}
                            data-testid={`members-remove-${member.userId}`}
                          >
                            Remove
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
            onAdd={(userId, role) =>
              change(
                (org) => org.addMember({ userId, role }),
                `${userId} was added as ${roleLabel(role)}.`,
                'The member could not be added.',
              )
            }
          />
        </>
      )}
    </div>
  );
}

function AddMemberForm({
  roles,
  busy,
  onAdd,
}: {
  roles: RoleOption[];
  busy: boolean;
  onAdd: (userId: string, role: string) => Promise<boolean>;
}) {
  const id = useId();
  const defaultRole = roles.some((r) => r.key === ORG_ROLES.member)
    ? ORG_ROLES.member
    : (roles[0]?.key ?? '');
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const chosenRole = role ?? defaultRole;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = userId.trim();
    if (!trimmed || !chosenRole) return;
    if (await onAdd(trimmed, chosenRole)) setUserId('');
  }

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Add a member</h2>
      <p className="muted">
        Adds a person who already has an account, by their user id (it starts with user_).
      </p>
      <form className="members-add" onSubmit={(event) => void submit(event)}>
        <label htmlFor={`${id}-user`}>User id</label>
        <input
          id={`${id}-user`}
          className="input"
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          placeholder="user_…"
          autoComplete="off"
          spellCheck={false}
          required
          data-testid="members-add-user-id"
        />
        <label htmlFor={`${id}-role`}>Role</label>
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
          disabled={busy || !userId.trim() || !chosenRole}
          data-testid="members-add-submit"
        >
          Add member
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
  // A role the instance no longer lists (or a custom one) still shows as the current value.
  const options = roles.some((r) => r.key === value)
    ? roles
    : [...roles, { key: value, name: roleLabel(value) }];
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
          {role.name}
        </option>
      ))}
    </select>
  );
}

function displayName(member: Member): string {
  return member.name ?? member.identifier;
}
