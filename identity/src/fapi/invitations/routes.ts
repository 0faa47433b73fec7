import type { IdentityConfig } from '../../config.ts';
import type { FapiRoute } from '../context.ts';

/** Organisation invitations (admin side) and the user's own invitations. */
export function invitationRoutes(_config: IdentityConfig): FapiRoute[] {
  return [];
}
