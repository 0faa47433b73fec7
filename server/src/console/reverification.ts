import { apiErrorBody } from '@app/contract';
import type { FastifyReply } from 'fastify';

/**
 * Clerk's `strict` re-verification preset (@clerk/shared's authorization.ts): a factor proven within the
 * last 10 minutes, the second one when the user has one. The identity provider asks the same before
 * removing a second factor or deleting an account in <UserProfile/>.
 */
export const STRICT = { level: 'second_factor', afterMinutes: 10 } as const;

/** Whether the token's `fva` is recent enough for STRICT (clerk-js's checkReverificationAuthorization). */
export function isRecentlyVerified(fva: readonly [number, number] | null | undefined): boolean {
  if (!fva) return false;
  const [first, second] = fva;
  const fresh = (age: number) => age !== -1 && age < STRICT.afterMinutes;
  return second === -1 ? fresh(first) : fresh(second);
}

/**
 * The 403 that Clerk's `useReverification` recognises (`reverificationErrorResponse` of
 * @clerk/shared/authorization-errors: `clerk_error` with the reason `reverification-error` and the level
 * asked), with the product API's `errors` beside it for any other reader: the web opens Clerk's
 * <UserVerification/> and sends the call again once the person has proven their factors.
 */
export function sendReverificationRequired(reply: FastifyReply): FastifyReply {
  return reply.code(403).send({
    ...apiErrorBody('session_reverification_required'),
    clerk_error: {
      type: 'forbidden',
      reason: 'reverification-error',
      metadata: { reverification: { level: STRICT.level, afterMinutes: STRICT.afterMinutes } },
    },
  });
}
