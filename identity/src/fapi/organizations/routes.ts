import type { IdentityConfig } from '../../config.ts';
import type { FapiRoute } from '../context.ts';

/** Organisations, their roles and memberships, and the user's own memberships. */
export function organizationRoutes(_config: IdentityConfig): FapiRoute[] {
  return [];
}
