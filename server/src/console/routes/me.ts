import { consoleRoute } from '../console-route.ts';

/**
 * GET /console/api/me — whether the caller may use the console: `{ userId, twoFactorEnabled }` for an
 * operator (with or without a second factor: the page then sends them to set one up), `403
 * not_an_operator` for anyone else. The navigation shows the console's entry from this answer.
 */
export const consoleMeRoute = consoleRoute({
  method: 'GET',
  path: '/me',
  permission: 'operator_enrolling',
  async handler({ operator }) {
    return { userId: operator.userId, twoFactorEnabled: operator.twoFactorEnabled };
  },
});
