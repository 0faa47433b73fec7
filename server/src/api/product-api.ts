import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './deps.ts';
import { registerApiErrorHandler } from './errors.ts';
import { registerMeRoute } from './me.ts';
import { registerCurrentOrganizationRoute } from './organizations/current.ts';
import { registerOrganizationSettingsRoute } from './organizations/settings.ts';
import { registerVcisoRoutes } from './vciso/routes.ts';

/** Every product API route; registered under the /api prefix. */
export function registerProductApi(api: FastifyInstance, deps: ApiDeps) {
  registerApiErrorHandler(api);
  registerMeRoute(api, deps);
  registerCurrentOrganizationRoute(api, deps);
  registerOrganizationSettingsRoute(api, deps);
  registerVcisoRoutes(api, deps);
}
