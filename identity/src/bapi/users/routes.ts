import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';

/** Backend API: users (list, count, metadata). */
export async function registerUserBapi(_app: FastifyInstance, _deps: IdentityDeps): Promise<void> {}
