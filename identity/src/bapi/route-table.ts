import { jwks } from '../instance/signing-keys.ts';
import { actorTokenRoutes } from './actor-tokens/actor-token-routes.ts';
import { signInTokenRoutes } from './sign-in-tokens/sign-in-token-routes.ts';
import { testingTokenRoutes } from './testing-tokens/testing-token-routes.ts';
import { apiKeyBapiRoutes } from './api-keys/api-key-routes.ts';
import { billingBapiRoutes } from './billing/billing-routes.ts';
import { samlConnectionRoutes } from './saml-connections/saml-connection-routes.ts';
import { invitationRoutes } from './invitations/invitation-routes.ts';
import { applicationInvitationRoutes } from './invitations/application-invitation-routes.ts';
import { cloudOnlyRoutes } from './cloud-only/cloud-only-routes.ts';
import { signUpRoutes } from './sign-ups/sign-up-routes.ts';
import { oauthApplicationRoutes } from './oauth-applications/oauth-application-routes.ts';
import { userOAuthConsentRoutes } from './oauth-consents/user-oauth-consent-routes.ts';
import { verifyOAuthAccessTokenRoute } from './oauth-applications/verify-access-token.ts';
import { organizationRoutes } from './organizations/organization-routes.ts';
import type { BapiRoute } from './route.ts';
import { waitlistEntryRoutes } from './waitlist/waitlist-entry-routes.ts';
import { externalAccountRoutes } from './users/external-account-routes.ts';
import { userLockRoutes } from './users/lock-routes.ts';
import { passwordResetRoutes } from './users/password-reset-routes.ts';
import { passkeyRoutes } from './users/passkey-routes.ts';
import { userRoutes } from './users/user-routes.ts';
import { userBanRoutes } from './users/ban-routes.ts';
import { createUserRoute } from './users/create-user.ts';
import { deleteUserRoute } from './users/delete-user.ts';
import { userMfaRoutes } from './users/mfa-routes.ts';
import { userOrganizationRoutes } from './users/user-organization-routes.ts';
import { userProfileImageRoutes } from './users/profile-image-routes.ts';
import { updateUserRoute } from './users/update-user.ts';
import { userVerifyRoutes } from './users/verify-routes.ts';
import { web3WalletBapiRoutes } from './users/web3-wallet-routes.ts';
import { sessionRoutes } from './sessions/session-routes.ts';
import { sessionTokenRoutes } from './sessions/session-token-routes.ts';
import { clientRoutes } from './clients/client-routes.ts';
import { emailAddressRoutes } from './email-addresses/email-address-routes.ts';
import { phoneNumberRoutes } from './phone-numbers/phone-number-routes.ts';
import { identifierListRoutes } from './identifier-lists/identifier-list-routes.ts';
import { redirectUrlRoutes } from './redirect-urls/redirect-url-routes.ts';
import { jwtTemplateRoutes } from './jwt-templates/jwt-template-routes.ts';
import { auditEventRoutes } from './audit-events/audit-event-routes.ts';
import { domainRoutes } from './domains/domain-routes.ts';
import { instanceSettingsRoutes } from './instance-settings/instance-settings-routes.ts';
import { webhookDeliveryRoutes } from './webhooks/webhook-delivery-routes.ts';
import { machineRoutes } from './machines/machine-routes.ts';
import { m2mTokenRoutes } from './machines/m2m-token-routes.ts';
import { instanceRoutes } from './instance/instance-routes.ts';
import { consoleOperatorRoutes } from './console/console-operator-routes.ts';

const jwksRoute: BapiRoute = {
  method: 'GET',
  path: '/v1/jwks',
  auth: 'secret_key',
  permission: 'instance_secret_key',
  input: {},
  handler: async (_req, deps) => jwks(deps.signingKeys.published()),
};

/**
 * Every Backend API route this provider serves, under its prefix. The plugin registers exactly these,
 * and the fuzz and tenant-isolation suites read this table: a new route is covered by being here.
 */
export const bapiRoutes: readonly BapiRoute[] = [
  jwksRoute,
  ...userRoutes,
  createUserRoute,
  updateUserRoute,
  deleteUserRoute,
  ...userLockRoutes,
  ...userBanRoutes,
  ...userVerifyRoutes,
  ...userMfaRoutes,
  ...userProfileImageRoutes,
  ...userOrganizationRoutes,
  ...externalAccountRoutes,
  ...passkeyRoutes,
  ...passwordResetRoutes,
  ...web3WalletBapiRoutes,
  ...sessionRoutes,
  ...sessionTokenRoutes,
  ...clientRoutes,
  ...emailAddressRoutes,
  ...phoneNumberRoutes,
  ...organizationRoutes,
  ...invitationRoutes,
  ...actorTokenRoutes,
  ...signInTokenRoutes,
  ...testingTokenRoutes,
  ...samlConnectionRoutes,
  ...waitlistEntryRoutes,
  ...apiKeyBapiRoutes,
  ...oauthApplicationRoutes,
  verifyOAuthAccessTokenRoute,
  ...userOAuthConsentRoutes,
  ...billingBapiRoutes,
  ...identifierListRoutes,
  ...redirectUrlRoutes,
  ...jwtTemplateRoutes,
  ...applicationInvitationRoutes,
  ...signUpRoutes,
  ...cloudOnlyRoutes,
  ...auditEventRoutes,
  ...domainRoutes,
  ...machineRoutes,
  ...m2mTokenRoutes,
  ...instanceRoutes,
  // Our extensions for operators (docs/backend-api.md § Extensions).
  ...instanceSettingsRoutes,
  ...webhookDeliveryRoutes,
  ...consoleOperatorRoutes,
];
