import type { FastifyInstance } from 'fastify';
import { ApiError, bodyRouteErrorHandler, registerApiErrorHandler, sendApiError } from '../api/errors.ts';
import { registerJsonBody } from '../api/json-body.ts';
import type { RequestAuthenticator } from '../auth/authenticate.ts';
import { requireAuth } from '../api/require-auth.ts';
import type { ConsoleDeps, ConsoleRoute } from './console-route.ts';
import { requireOperator } from './require-operator.ts';
import { applicationConsoleRoutes } from './routes/applications.ts';
import { auditConsoleRoutes } from './routes/audit-events.ts';
import { billingConsoleRoutes } from './routes/billing.ts';
import { consoleMeRoute } from './routes/me.ts';
import { organizationDetailConsoleRoutes } from './routes/organization-details.ts';
import { organizationConsoleRoutes } from './routes/organizations.ts';
import { settingsConsoleRoutes } from './routes/settings.ts';
import { signUpConsoleRoutes } from './routes/sign-up.ts';
import { userCredentialConsoleRoutes } from './routes/user-credentials.ts';
import { userConsoleRoutes } from './routes/users.ts';
import { webhookConsoleRoutes } from './routes/webhooks.ts';

/** Where the console's API lives on the product server (the page itself is the SPA's `/console`). */
export const CONSOLE_API_PREFIX = '/console/api';

/**
 * Every route of the operator console's API (docs/console.md), under /console/api: the only place one is
 * declared (method, path, authentication, permission, input). A new area of the console adds its file
 * under routes/ and its routes here.
 */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  consoleMeRoute,
  ...userConsoleRoutes,
  ...userCredentialConsoleRoutes,
  ...organizationConsoleRoutes,
  ...organizationDetailConsoleRoutes,
  ...signUpConsoleRoutes,
  ...applicationConsoleRoutes,
  ...billingConsoleRoutes,
  ...auditConsoleRoutes,
  ...settingsConsoleRoutes,
  ...webhookConsoleRoutes,
];

/** Registers CONSOLE_ROUTES in the scope (prefixed CONSOLE_API_PREFIX), each behind its operator check. */
export function registerConsoleApi(
  api: FastifyInstance,
  deps: ConsoleDeps & { authenticator: RequestAuthenticator },
) {
  registerApiErrorHandler(api);
  // As the product API: the caller is known before any body is read.
  api.addHook('onRequest', requireAuth(deps.authenticator));
  registerJsonBody(api);
  for (const route of CONSOLE_ROUTES) {
    api.route({
      method: route.method,
      url: route.path,
      preHandler: [requireAuth(deps.authenticator), requireOperator(deps, route.permission)],
      errorHandler: bodyRouteErrorHandler,
      handler: (req, reply) => route.run(req, reply, deps),
    });
  }
  // An unknown console API path is the API's 404, never the SPA's page.
  api.setNotFoundHandler((_req, reply) => sendApiError(reply, new ApiError('resource_not_found')));
}
