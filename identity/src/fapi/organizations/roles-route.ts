import { pageOf } from '../../organizations/invitations.ts';
import { allRolesJSON } from '../../serializers/organization.ts';
import type { FapiRoute } from '../context.ts';
import { requireOrganization } from './access.ts';
import { formInput } from '../form-input.ts';

/** GET /organizations/:id/roles — the role pickers (`organization.getRoles()`); any member may read them. */
export const listRolesRoute: FapiRoute = {
  method: 'GET',
  path: '/organizations/:id/roles',
  auth: 'session',
  permission: null,
  input: { query: formInput({ limit: 'page', offset: 'page' }) },
  async handler(ctx) {
    await requireOrganization(ctx, ctx.params.id!);
    const roles = allRolesJSON();
    const { limit, offset } = pageOf(ctx.query);
    return { response: { data: roles.slice(offset, offset + limit), total_count: roles.length } };
  },
};
