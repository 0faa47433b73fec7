import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './deps.ts';
import { registerApiErrorHandler } from './errors.ts';
import { registerJsonBody } from './json-body.ts';
import { registerMeRoute } from './me.ts';
import { registerCurrentOrganizationRoute } from './organizations/current.ts';
import { registerAddMemberRoute } from './organizations/members.ts';
import { registerOrganizationSettingsRoute } from './organizations/settings.ts';
import { requireAuth } from './require-auth.ts';
import { registerVcisoRoutes } from './vciso/routes.ts';

/** Every product API route; registered under the /api prefix. */
export function registerProductApi(api: FastifyInstance, deps: ApiDeps) {
  registerApiErrorHandler(api);
  // Every route is for signed-in users. Fastify reads a body before preValidation and preHandler hooks:
  // only onRequest comes before, so an unauthenticated body is never read, however large or deep.
  api.addHook('onRequest', requireAuth(deps));
  registerJsonBody(api);
  registerMeRoute(api, deps);
  registerCurrentOrganizationRoute(api, deps);
  registerOrganizationSettingsRoute(api, deps);
  registerAddMemberRoute(api, deps);
  registerVcisoRoutes(api, deps);
}
