/**
 * Who an enterprise IdP vouched for, as the ACS (SAML) or the OAuth callback (OpenID Connect) found it.
 * Kept on the SAML request between the ACS and the browser's next request (saml_requests.outcome): it
 * holds no token or assertion, only the user's details.
 */
export interface EnterpriseIdentity {
  connectionId: string;
  protocol: 'saml' | 'oidc';
  /** The IdP's user: the SAML NameID (or the mapped user id attribute), the OIDC `sub`. */
  providerUserId: string | null;
  email: string | null;
  /** The address is at one of the connection's domains: the only addresses an IdP may vouch for. */
  emailInDomain: boolean;
  firstName: string | null;
  lastName: string | null;
}

/** An identity the connection's IdP vouched for, checked: its user and an address at the connection's domains. */
export type VouchedEnterpriseIdentity = EnterpriseIdentity & { providerUserId: string; email: string };
