import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Enterprise SSO: SAML and OIDC connections. */
export const enterpriseSsoCapability: Capability = {
  name: 'enterprise-sso',
  retention: [
    // SAML AuthnRequests live 10 minutes; accepted assertion ids are kept until they could not be valid anyway.
    { table: 'saml_requests', expired: `expire_at < $1::timestamptz - ${DAY}` },
    { table: 'saml_assertions', expired: `expire_at < $1::timestamptz` },
  ],
};
