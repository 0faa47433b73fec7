import { isOperator, type OperatorCandidate } from '../../console/operators.ts';
import { ClerkError, errors } from '../../errors.ts';
import type { BapiRoute } from '../route.ts';
import { userAnswer } from '../users/user-routes.ts';

/**
 * Backend API: whether a user is one of the instance's console operators (our extension; hosted Clerk has
 * no console): `{ object: "console_operator", user_id, two_factor_enabled }`, or 404 `resource_not_found`
 * when the user is not one (or does not exist: the two are not told apart). The product server asks it on
 * every console call (docs/console.md), so a change of `console.operators` applies at once.
 */
export const consoleOperatorRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/console/operators/:userId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.userId!;
      const settings = deps.settings.settings.console;
      if (!settings?.operators.length || !/^user_[0-9A-Za-z]{1,64}$/.test(id)) {
        throw errors.notFound('console_operator');
      }
      let user: OperatorCandidate & { two_factor_enabled: boolean };
      try {
        user = (await userAnswer(deps, id)) as typeof user;
      } catch (error) {
        if (error instanceof ClerkError && error.status === 404) throw errors.notFound('console_operator');
        throw error;
      }
      if (!isOperator(settings, user)) throw errors.notFound('console_operator');
      return { object: 'console_operator', user_id: user.id, two_factor_enabled: user.two_factor_enabled };
    },
  },
];
