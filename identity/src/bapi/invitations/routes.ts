import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';

/** Backend API: organisation invitations. */
export async function registerInvitationBapi(_app: FastifyInstance, _deps: IdentityDeps): Promise<void> {}
