import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';

/** Backend API: organisations, memberships, invitations, and the user list/metadata endpoints. */
export async function registerOrganizationBapi(_app: FastifyInstance, _deps: IdentityDeps): Promise<void> {}
