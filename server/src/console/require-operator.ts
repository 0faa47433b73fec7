import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, sendApiError } from '../api/errors.ts';
import { authOf } from '../api/require-auth.ts';
import { BackendCallError } from './backend-client.ts';
import { consoleErrorOf } from './backend-errors.ts';
import type { ConsoleDeps, ConsolePermission } from './console-route.ts';
import { isRecentlyVerified, sendReverificationRequired } from './reverification.ts';

/** The Backend API's answer about an operator (our extension, docs/backend-api.md). */
interface OperatorAnswer {
  object: 'console_operator';
  user_id: string;
  two_factor_enabled: boolean;
}

/**
 * A preHandler after requireAuth: asks the Backend API whether the token's user is an operator
 * (`GET /v1/console/operators/:user_id`) on every call, so a change of `console.operators`, or a second
 * factor removed, applies to the next request. The user is the verified token's, never the request's; an
 * impersonation session (a token with `act`) is refused: an operator acting as someone is not that someone.
 */
export function requireOperator(deps: ConsoleDeps, permission: ConsolePermission) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = authOf(req);
    if (auth.actorId) throw new ApiError('not_an_operator');
    let answer: OperatorAnswer;
    try {
      answer = await deps.backend.call<OperatorAnswer>(
        'GET',
        `/console/operators/${encodeURIComponent(auth.userId)}`,
        { operatorId: auth.userId },
      );
    } catch (error) {
      if (error instanceof BackendCallError && error.status === 404) throw new ApiError('not_an_operator');
      throw consoleErrorOf(error);
    }
    if (answer?.user_id !== auth.userId) throw new ApiError('not_an_operator');
    req.consoleOperator = { userId: auth.userId, twoFactorEnabled: answer.two_factor_enabled === true };
    if (permission === 'operator_enrolling') return;
    if (!answer.two_factor_enabled) return sendApiError(reply, new ApiError('second_factor_required'));
    if (permission === 'operator_reverified' && !isRecentlyVerified(auth.factorVerificationAge)) {
      return sendReverificationRequired(reply);
    }
  };
}
