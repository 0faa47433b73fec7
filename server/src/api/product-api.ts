import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ApiDeps } from './deps.ts';
import { bodyRouteErrorHandler, registerApiErrorHandler } from './errors.ts';
import { registerJsonBody } from './json-body.ts';
import { machineOrganizationRoute } from './machines/organization.ts';
import { meRoute } from './me.ts';
import { authorizedUserRoute } from './authorized-user.ts';
import { currentOrganizationRoute } from './organizations/current.ts';
import { addMemberRoute } from './organizations/members.ts';
import { organizationSettingsRoute } from './organizations/settings.ts';
import { machineOf, requireAuth } from './require-auth.ts';
import { requireActiveOrganization, requireOrgPermission, requireOrgRole } from './require-org-role.ts';
import type { ProductPermission, ProductRoute } from './route.ts';
import { requireVcisoConsole } from './vciso/console-guard.ts';
import { vcisoRoutes } from './vciso/routes.ts';

/**
 * Every product API route, under /api: the only place one is declared (method, path, authentication,
 * permission, input; server/src/api/route.ts). The tenant-isolation suite reads this list.
 */
export const PRODUCT_ROUTES: readonly ProductRoute[] = [
  meRoute,
  authorizedUserRoute,
  currentOrganizationRoute,
  organizationSettingsRoute,
  addMemberRoute,
  ...vcisoRoutes,
  machineOrganizationRoute,
];

/** The checks of a declared permission, in order, after authentication. */
function permissionChecks(permission: ProductPermission, deps: ApiDeps): preHandlerAsyncHookHandler[] {
  if (permission === 'signed_in') return [];
  if (permission === 'vciso_console') return [requireVcisoConsole(deps)];
  if (permission === 'machine') return [async (req) => void machineOf(req)];
  if ('roles' in permission) return [requireActiveOrganization, requireOrgRole(permission.roles)];
  return [requireActiveOrganization, requireOrgPermission(permission.orgPermission)];
}

/** Registers PRODUCT_ROUTES under the /api prefix, each with the checks it declares. */
export function registerProductApi(api: FastifyInstance, deps: ApiDeps) {
  registerApiErrorHandler(api);
  // Every route is for signed-in users. Fastify reads a body before preValidation and preHandler hooks:
  // only onRequest comes before, so an unauthenticated body is never read, however large or deep.
  api.addHook('onRequest', requireAuth(deps));
  registerJsonBody(api);
  for (const route of PRODUCT_ROUTES) {
    api.route({
      method: route.method,
      url: route.path,
      config: {
        acceptsApiKey: route.auth === 'session_token_or_api_key',
        acceptsM2mToken: route.auth === 'm2m_token',
        ...(route.oauthScopes ? { oauthScopes: route.oauthScopes } : {}),
      },
      preHandler: [requireAuth(deps), ...permissionChecks(route.permission, deps)],
      // A body that is not JSON is `422 invalid_request`, as a body the schema refuses.
      errorHandler: bodyRouteErrorHandler,
      handler: (req, reply) => route.run(req, reply, deps),
    });
  }
}
