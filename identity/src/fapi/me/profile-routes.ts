import type { IdentityConfig } from '../../config.ts';
import type { FapiRoute } from '../context.ts';
import { changePasswordRoute, deleteMeRoute } from './account-routes.ts';
import { attemptEmailVerificationRoute } from './email-addresses/attempt-verification.ts';
import { createEmailAddressRoute } from './email-addresses/create-email-address.ts';
import { deleteEmailAddressRoute } from './email-addresses/delete-email-address.ts';
import { getEmailAddressRoute } from './email-addresses/get-email-address.ts';
import { prepareEmailVerificationRoute } from './email-addresses/prepare-verification.ts';
import { getMeRoute } from './me-routes.ts';
import { deleteProfileImageRoute, setProfileImageRoute } from './profile-image.ts';
import { removePasswordRoute } from './remove-password.ts';
import { activeSessionsRoute } from './sessions/active-sessions.ts';
import { revokeSessionRoute } from './sessions/revoke-session.ts';
import { updateMeRoute } from './update-me.ts';

/** The current user's own account, as <UserProfile/> edits it (`/me` …; second factors apart). */
export function profileRoutes(config: IdentityConfig): FapiRoute[] {
  return [
    getMeRoute,
    updateMeRoute,
    deleteMeRoute,
    changePasswordRoute,
    removePasswordRoute,
    setProfileImageRoute,
    deleteProfileImageRoute,
    createEmailAddressRoute,
    getEmailAddressRoute,
    prepareEmailVerificationRoute,
    attemptEmailVerificationRoute(config),
    deleteEmailAddressRoute,
    activeSessionsRoute,
    revokeSessionRoute,
  ];
}
