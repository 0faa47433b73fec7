import type { IdentityConfig } from '../config.ts';
import type { AnyFapiRoute } from './context.ts';
import { organizationRoutes } from './organizations/organization-route-list.ts';
import { invitationRoutes } from './invitations/invitation-routes.ts';
import {
  deleteClientRoute,
  deleteClientSessionsRoute,
  getClientRoute,
  putClientRoute,
} from './client/client-routes.ts';
import { createDevBrowserRoute } from './client/dev-browser.ts';
import { handshakeRoute } from './client/handshake.ts';
import { linkRoute, syncRoute } from './client/satellite-sync.ts';
import { verifyClientCaptchaRoute } from './captcha/verify-client.ts';
import { captchaChallengeRoute } from './captcha/captcha-challenge.ts';
import { environmentRoutes } from './environment/environment-routes.ts';
import { profileRoutes } from './me/profile-routes.ts';
import { createBackupCodesRoute } from './me/backup-codes/create-backup-codes.ts';
import { createTotpRoute } from './me/totp/create-totp.ts';
import { deleteTotpRoute } from './me/totp/delete-totp.ts';
import { verifyTotpRoute } from './me/totp/verify-totp.ts';
import { createTemplateTokenRoute, createTokenRoute } from './sessions/create-token.ts';
import { endSessionRoute, removeSessionRoute } from './sessions/end-session.ts';
import { touchSessionRoute } from './sessions/touch-session.ts';
import { sessionVerificationRoutes } from './sessions/verify/session-verification-routes.ts';
import { attemptFirstFactorRoute } from './sign-ins/attempt-first-factor.ts';
import { attemptSecondFactorRoute } from './sign-ins/attempt-second-factor.ts';
import { prepareSecondFactorRoute } from './sign-ins/prepare-second-factor.ts';
import { phoneNumberRoutes } from './me/phone-numbers/phone-number-routes.ts';
import { web3WalletRoutes } from './me/web3-wallets/web3-wallet-routes.ts';
import { createSignInRoute } from './sign-ins/create-sign-in.ts';
import { getSignInRoute } from './sign-ins/get-sign-in.ts';
import { prepareFirstFactorRoute } from './sign-ins/prepare-first-factor.ts';
import { resetPasswordRoute } from './sign-ins/reset-password.ts';
import { verifyEmailLinkRoute } from './email-links/verify-email-link.ts';
import { attemptVerificationRoute } from './sign-ups/attempt-verification.ts';
import { createSignUpRoute } from './sign-ups/create-sign-up.ts';
import { getSignUpRoute } from './sign-ups/get-sign-up.ts';
import { prepareVerificationRoute } from './sign-ups/prepare-verification.ts';
import { updateSignUpRoute } from './sign-ups/update-sign-up.ts';
import { oauthCallbackRoute } from './oauth/oauth-callback.ts';
import { externalAccountRoutes } from './me/external-accounts/external-account-routes.ts';
import { oauthCallbackFormPostRoute } from './oauth/oauth-callback-form-post.ts';
import { samlAcsRoute } from './enterprise-sso/saml-acs.ts';
import { samlAcsCompleteRoute } from './enterprise-sso/saml-acs-complete.ts';
import { passkeyRoutes } from './me/passkeys/passkey-routes.ts';
import { joinWaitlistRoute } from './waitlist/join-waitlist.ts';
import { offlineSetupConfirmRoute } from './billing/offline-gateway-route.ts';
import { billingRoutes } from './billing/billing-route-list.ts';
import { oauthConsentRoutes } from './me/oauth-consents/oauth-consent-routes.ts';

/** Every Frontend API route this instance serves, under /v1. */
export function fapiRoutes(config: IdentityConfig): AnyFapiRoute[] {
  return [
    ...environmentRoutes,
    getClientRoute,
    putClientRoute,
    handshakeRoute,
    syncRoute,
    linkRoute,
    deleteClientRoute,
    deleteClientSessionsRoute,
    verifyClientCaptchaRoute,
    captchaChallengeRoute,
    // Development keys only: production clients are identified by the HttpOnly cookie alone.
    ...(config.instanceKeys === 'development' ? [createDevBrowserRoute] : []),
    createSignInRoute,
    getSignInRoute,
    prepareFirstFactorRoute,
    attemptFirstFactorRoute(config),
    resetPasswordRoute,
    prepareSecondFactorRoute,
    attemptSecondFactorRoute(config),
    createSignUpRoute,
    joinWaitlistRoute,
    getSignUpRoute,
    updateSignUpRoute,
    prepareVerificationRoute,
    attemptVerificationRoute(config),
    verifyEmailLinkRoute,
    oauthCallbackRoute,
    oauthCallbackFormPostRoute,
    samlAcsRoute,
    samlAcsCompleteRoute,
    touchSessionRoute,
    createTokenRoute,
    createTemplateTokenRoute,
    endSessionRoute,
    removeSessionRoute,
    ...sessionVerificationRoutes(config),
    ...profileRoutes(config),
    ...phoneNumberRoutes(config),
    ...web3WalletRoutes(config),
    createTotpRoute,
    verifyTotpRoute(config),
    deleteTotpRoute,
    createBackupCodesRoute,
    ...passkeyRoutes,
    ...externalAccountRoutes,
    ...oauthConsentRoutes,
    ...organizationRoutes(config),
    ...invitationRoutes(config),
    ...billingRoutes,
    offlineSetupConfirmRoute,
  ];
}
