import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';
import { strategyLabel } from './metrics.ts';

type Body = Record<string, string | string[] | undefined>;

/** The Frontend API routes where a factor of a sign-in is checked: what a sign-in attempt is. */
const ATTEMPT_PATHS = new Set([
  '/client/sign_ins/:id/attempt_first_factor',
  '/client/sign_ins/:id/attempt_second_factor',
]);

/** Fields of a sign-in's creation that make it an attempt too (a password, a ticket, a One Tap token). */
const CREDENTIAL_FIELDS = ['password', 'ticket', 'token'] as const;

/**
 * The strategy a Frontend API request attempts a sign-in with, or null when it attempts none: the factor
 * attempts, and a creation that carries its credential (`strategy=password` with the password, a ticket).
 */
export function signInAttemptOf(method: string, routePath: string, body: Body): string | null {
  if (method !== 'POST') return null;
  if (ATTEMPT_PATHS.has(routePath)) return strategyLabel(body.strategy);
  if (routePath !== '/client/sign_ins') return null;
  const given = CREDENTIAL_FIELDS.find((f) => typeof body[f] === 'string' && body[f] !== '');
  if (!given) return null;
  return strategyLabel(body.strategy ?? (given === 'ticket' ? 'ticket' : undefined));
}

const ATTEMPT = Symbol('sign-in attempt');

/** Marks the request as a sign-in attempt with `strategy`, counted when it is answered. */
export function markSignInAttempt(req: FastifyRequest, strategy: string): void {
  (req as unknown as Record<symbol, string>)[ATTEMPT] = strategy;
}

/**
 * Counts a marked request once answered: success when the factor was accepted (2xx), failure when it was
 * refused (4xx: wrong password or code, locked, rate limited). A server error attempted nothing.
 */
export function countSignInAttempt(metrics: Metrics, req: FastifyRequest, reply: FastifyReply): void {
  const strategy = (req as unknown as Record<symbol, string | undefined>)[ATTEMPT];
  if (!strategy || reply.statusCode >= 500) return;
  metrics.signInAttempts.inc({ strategy, outcome: reply.statusCode < 400 ? 'success' : 'failure' });
}
