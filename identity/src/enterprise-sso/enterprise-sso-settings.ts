import { z } from '@app/contract';
import { httpEndpoint as endpoint } from '../instance/settings/http-endpoint.ts';
import { secretReference } from '../instance/settings/secret-reference.ts';

/** `samlc_<…>` for a SAML connection (as Clerk names them), `entc_<…>` for an OpenID Connect one. */
export const ENTERPRISE_CONNECTION_ID = /^(samlc|entc)_[A-Za-z0-9_-]{1,64}$/;

const emailDomain = z
  .string()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be an email domain in lower case (example.com).',
  );

/**
 * One enterprise SSO connection (Clerk's dashboard → SSO connections → enterprise). A sign-in whose email
 * address is at one of `domains` goes to the connection's identity provider (docs/enterprise-sso.md).
 * SAML: the IdP's entity id, SSO URL (HTTP-Redirect binding) and signing certificate (PEM, or the
 * environment variable holding it). OpenID Connect: the issuer (discovery), client id and secret.
 */
export const enterpriseConnectionSettings = z
  .object({
    name: z.string().min(1).max(128),
    protocol: z.enum(['saml', 'oidc']),
    domains: z.array(emailDomain).min(1).max(50),
    enabled: z.boolean().default(true),
    /** May create the account of a person the IdP vouches for who has none yet. */
    signUpAllowed: z.boolean().default(true),
    /** The organisation (id or slug) people signing in through the connection join, with `defaultRole`. */
    organization: z.string().min(1).max(256).optional(),
    defaultRole: z.string().min(1).max(64).default('org:member'),
    /** SAML: Clerk's IdP slug, shown by <UserProfile/> (`saml_custom` unless said). */
    provider: z.enum(['saml_custom', 'saml_okta', 'saml_google', 'saml_microsoft']).optional(),
    idpEntityId: z.string().min(1).max(1024).optional(),
    idpSsoUrl: endpoint.optional(),
    /** The IdP's signing certificate: PEM (or its base64 body), or the environment variable that holds it. */
    idpCertificate: z.union([z.string().min(1).max(16384), secretReference]).optional(),
    /** The IdP's metadata XML, kept for the Backend API (entity id, SSO URL and certificate are what count). */
    idpMetadata: z.string().max(262144).optional(),
    /** SAML attribute names of the user's details (besides the NameID). */
    attributeMapping: z
      .object({
        emailAddress: z.string().min(1).max(256).optional(),
        firstName: z.string().min(1).max(256).optional(),
        lastName: z.string().min(1).max(256).optional(),
        userId: z.string().min(1).max(256).optional(),
      })
      .strict()
      .default({}),
    /** OpenID Connect: found by discovery of its issuer. */
    issuer: endpoint.optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: secretReference.optional(),
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be one scope token.')).optional(),
  })
  .strict();
export type EnterpriseConnectionSettings = z.output<typeof enterpriseConnectionSettings>;

/** The `enterpriseConnections` slice: the connections keyed by id. */
export const enterpriseConnectionsSettings = z
  .record(z.string(), enterpriseConnectionSettings)
  .superRefine((connections, ctx) => {
    const owners = new Map<string, string>();
    for (const [id, c] of Object.entries(connections)) {
      const problem = (message: string) => ctx.addIssue({ code: 'custom', path: [id], message });
      if (!ENTERPRISE_CONNECTION_ID.test(id)) {
        problem('is not a connection id: samlc_<name> for SAML, entc_<name> for OpenID Connect.');
        continue;
      }
      if ((c.protocol === 'saml') !== id.startsWith('samlc_')) {
        problem('a SAML connection is named samlc_<…>, an OpenID Connect one entc_<…>.');
      }
      // A connection being set up (the Backend API creates them disabled) may lack its IdP's details.
      if (!c.enabled) continue;
      if (c.protocol === 'saml' && !(c.idpEntityId && c.idpSsoUrl && c.idpCertificate)) {
        problem('an enabled SAML connection needs idpEntityId, idpSsoUrl and idpCertificate.');
      }
      if (c.protocol === 'oidc' && !(c.issuer && c.clientId && c.clientSecret)) {
        problem('an enabled OpenID Connect connection needs issuer, clientId and clientSecret.');
      }
      // An enabled domain belongs to one connection: the sign-in must know where to send an address.
      for (const domain of c.domains) {
        const other = owners.get(domain);
        if (other) problem(`the domain ${domain} is already the connection ${other}'s.`);
        owners.set(domain, id);
      }
    }
  });
