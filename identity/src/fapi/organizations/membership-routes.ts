import {
  addMember,
  changeRole,
  membershipJSONOf,
  membershipsJSON,
  removeMember,
} from '../../organizations/memberships.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { listOrganizationMemberships } from '../../store/organizations.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { requireOrganization } from './access.ts';
import { formInput } from '../form-input.ts';

/**
 * The repeated `role` filter. clerk-js builds list queries with URLSearchParams from an object, so an
 * array arrives comma-joined (`role=org:admin,org:member`); repeated keys are accepted as well.
 */
export function rolesFilterOf(value: string | string[] | undefined): string[] | undefined {
  const roles = (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return roles.length ? [...new Set(roles)] : undefined;
}

function queryOf(ctx: FapiContext): string | undefined {
  const raw = ctx.query.query;
  const value = (Array.isArray(raw) ? raw[raw.length - 1] : raw)?.trim();
  return value || undefined;
}

/**
 * GET /organizations/:id/memberships — OrganizationProfile → Members: paginated (`limit` default 10,
 * `offset`), filtered by `role` and a free-text `query` (name, email address, username, user id).
 */
export const listMembershipsRoute: FapiRoute = {
  method: 'GET',
  path: '/organizations/:id/memberships',
  auth: 'session',
  permission: 'org:sys_memberships:read',
  input: { query: formInput({ limit: 'page', offset: 'page', role: 'list', query: 'text' }) },
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!, 'org:sys_memberships:read');
    const page = await listOrganizationMemberships(
      ctx.tx,
      organization.id,
      { roles: rolesFilterOf(ctx.query.role), query: queryOf(ctx) },
      pageOf(ctx.query),
    );
    const data = await membershipsJSON(ctx.tx, ctx.deps, page.data, {
      organizations: new Map([[organization.id, organization]]),
    });
    return { response: { data, total_count: page.total } };
  },
};

/** POST /organizations/:id/memberships — `organization.addMember({userId, role})`. */
export const addMembershipRoute: FapiRoute = {
  method: 'POST',
  path: '/organizations/:id/memberships',
  auth: 'session',
  permission: 'org:sys_memberships:manage',
  input: { body: formInput({ user_id: 'id', role: 'enum' }) },
  async handler(ctx) {
    const { organization, membership: actor } = await requireOrganization(
      ctx,
      ctx.params.id!,
      'org:sys_memberships:manage',
    );
    const membership = await addMember(
      ctx.tx,
      organization,
      { userId: field(ctx.body, 'user_id'), role: field(ctx.body, 'role') },
      ctx.now,
      actor.role,
    );
    return { response: await membershipJSONOf(ctx.tx, ctx.deps, membership, organization) };
  },
};

/**
 * PATCH /organizations/:id/memberships/:userId — Members → change role (keyed by user id). Like adding
 * and removing, only for roles the caller's own role covers (organizations/role-management.ts).
 */
export const updateMembershipRoute: FapiRoute = {
  method: 'PATCH',
  path: '/organizations/:id/memberships/:userId',
  auth: 'session',
  permission: 'org:sys_memberships:manage',
  input: { body: formInput({ role: 'enum' }) },
  async handler(ctx) {
    const { organization, membership: actor } = await requireOrganization(
      ctx,
      ctx.params.id!,
      'org:sys_memberships:manage',
    );
    const membership = await changeRole(
      ctx.tx,
      organization,
      ctx.params.userId!,
      field(ctx.body, 'role'),
      ctx.now,
      actor.role,
    );
    return { response: await membershipJSONOf(ctx.tx, ctx.deps, membership, organization) };
  },
};

/** DELETE /organizations/:id/memberships/:userId — Members → Remove; answers the removed membership. */
export const removeMembershipRoute: FapiRoute = {
  method: 'DELETE',
  path: '/organizations/:id/memberships/:userId',
  auth: 'session',
  permission: 'org:sys_memberships:manage',
  input: { body: formInput() },
  async handler(ctx) {
    const { organization, membership: actor } = await requireOrganization(
      ctx,
      ctx.params.id!,
      'org:sys_memberships:manage',
    );
    const membership = await removeMember(
      ctx.tx,
      ctx.deps,
      organization,
      ctx.params.userId!,
      ctx.now,
      actor.role,
    );
    return { response: await membershipJSONOf(ctx.tx, ctx.deps, membership, organization) };
  },
};
