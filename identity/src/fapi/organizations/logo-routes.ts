import { setOrganizationLogo } from '../../organizations/organizations.ts';
import type { FapiRoute } from '../context.ts';
import { requireOrganization } from './access.ts';
import { organizationWithCounts } from './respond.ts';
import { uploadedImage } from '../images/upload.ts';
import { formInput } from '../form-input.ts';

/** PUT /organizations/:id/logo — `organization.setLogo({file})`: multipart `file` or a data-URL body. */
export const putLogoRoute: FapiRoute = {
  method: 'PUT',
  path: '/organizations/:id/logo',
  auth: 'session',
  permission: 'org:sys_profile:manage',
  input: { body: formInput() },
  upload: true,
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!, 'org:sys_profile:manage');
    const logo = uploadedImage(ctx.upload);
    const updated = await setOrganizationLogo(ctx.tx, organization.id, logo, ctx.now);
    return { response: await organizationWithCounts(ctx, updated) };
  },
};

/** DELETE /organizations/:id/logo — `organization.setLogo({file: null})`. */
export const deleteLogoRoute: FapiRoute = {
  method: 'DELETE',
  path: '/organizations/:id/logo',
  auth: 'session',
  permission: 'org:sys_profile:manage',
  input: { body: formInput() },
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!, 'org:sys_profile:manage');
    const updated = await setOrganizationLogo(ctx.tx, organization.id, null, ctx.now);
    return { response: await organizationWithCounts(ctx, updated) };
  },
};
