import { errors } from '../../errors.ts';
import { authorOf } from '../../impersonation/author.ts';
import {
  assertMayCreateOrganization,
  createOrganization,
  deleteOrganization,
  updateOrganization,
} from '../../organizations/organizations.ts';
import { findUserById } from '../../store/users.ts';
import type { FapiRoute } from '../context.ts';
import { field, has } from '../form.ts';
import { currentSession } from '../me/me-session.ts';
import { requireOrganization } from './access.ts';
import { organizationWithCounts } from './respond.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /organizations — `clerk.createOrganization({name, slug})` from <CreateOrganization/>, the
 * switcher and the choose-organization task. The creator becomes its admin; the piggy-backed client
 * already lists the new membership, so `setActive({organization})` can follow at once.
 */
export const createOrganizationRoute: FapiRoute = {
  method: 'POST',
  path: '/organizations',
  auth: 'session',
  permission: null,
  input: { body: formInput({ name: 'text', slug: 'text' }) },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const user = await findUserById(ctx.tx, session.user_id);
    if (!user) throw errors.notFound('session');
    await assertMayCreateOrganization(ctx.tx, user);
    const organization = await createOrganization(
      ctx.tx,
      {
        name: field(ctx.body, 'name'),
        slug: field(ctx.body, 'slug'),
        // Made in an impersonation, it is the actor's doing; the user owns it all the same.
        createdBy: authorOf(session),
        firstAdmin: user.id,
      },
      ctx.now,
    );
    return { response: await organizationWithCounts(ctx, organization) };
  },
};

/** GET /organizations/:id — `clerk.getOrganization(id)` and `organization.reload()`; members only. */
export const getOrganizationRoute: FapiRoute = {
  method: 'GET',
  path: '/organizations/:id',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!);
    return { response: await organizationWithCounts(ctx, organization) };
  },
};

/**
 * PATCH /organizations/:id — OrganizationProfile → General → Profile (`name`, `slug`). Other fields are
 * not the browser's to change (metadata is written with the secret key only) and are ignored.
 */
export const updateOrganizationRoute: FapiRoute = {
  method: 'PATCH',
  path: '/organizations/:id',
  auth: 'session',
  permission: 'org:sys_profile:manage',
  input: { body: formInput({ name: 'text', slug: 'text' }) },
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!, 'org:sys_profile:manage');
    // An emptied field is an error of that field, not "leave unchanged".
    const given = (name: 'name' | 'slug') => {
      if (!has(ctx.body, name)) return undefined;
      const value = field(ctx.body, name);
      if (value === undefined) throw errors.paramMissing(name);
      return value;
    };
    const updated = await updateOrganization(
      ctx.tx,
      organization,
      { name: given('name'), slug: given('slug') },
      ctx.now,
    );
    return { response: await organizationWithCounts(ctx, updated) };
  },
};

/**
 * DELETE /organizations/:id — OrganizationProfile → Delete organization: needs `org:sys_profile:delete`
 * and the organisation's `admin_delete_enabled`. Sessions that had it active fall back to none.
 */
export const deleteOrganizationRoute: FapiRoute = {
  method: 'DELETE',
  path: '/organizations/:id',
  auth: 'session',
  permission: 'org:sys_profile:delete',
  input: { body: formInput() },
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!, 'org:sys_profile:delete');
    if (!organization.admin_delete_enabled) throw errors.organizationDeleteDisabled();
    return { response: await deleteOrganization(ctx.tx, ctx.deps, organization, ctx.now) };
  },
};
