import { inflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';
import {
  emailBelongsTo,
  idpCertificateOf,
  samlAcsUrl,
  samlSpEntityId,
  type EnterpriseConnection,
} from './connections.ts';
import type { EnterpriseIdentity } from './enterprise-identity.ts';

/**
 * The SAML 2.0 service provider side of a connection, on @node-saml/node-saml (≥ 5.1.0, which fixes
 * CVE-2025-54419): the AuthnRequest (HTTP-Redirect binding), the ACS's checks and our SP metadata.
 * Signatures, the audience, the time conditions and InResponseTo are node-saml's; the recipient, the
 * destination, the issuer, the subject's InResponseTo and the assertion id's single use are checked
 * here and by the ACS on top of them.
 */

/** How long the browser may spend at the IdP (as the social redirects). */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;
/** Clock skew allowed between the IdP and us on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60 * 1000;
/** How long a response (base64) may be: assertions are a few kilobytes (the form parser stops at 64 KiB too). */
export const MAX_SAML_RESPONSE_LENGTH = 64 * 1024;

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Why a response was refused: for the log (never the response's content) and nothing else. */
export class SamlRefusal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SamlRefusal';
  }
}

/** A node-saml cache that stores nothing (the ACS keeps the requests in the database, hashed). */
const noCache = (lookup?: (requestId: string) => Promise<boolean>): CacheProvider => ({
  saveAsync: () => Promise.resolve(null),
  // node-saml only asks whether the id is one we issued; the ACS's lookup answers from the database. The
  // value is compared with node-saml's own clock and our 10 minutes, so "issued now" leaves the expiry ours.
  getAsync: async (key) => ((await lookup?.(key)) ? new Date().toISOString() : null),
  removeAsync: (key) => Promise.resolve(key),
});

function samlFor(
  connection: EnterpriseConnection,
  fapiBase: string,
  lookup?: (requestId: string) => Promise<boolean>,
): SAML {
  const spEntityId = samlSpEntityId(fapiBase, connection.id);
  return new SAML({
    callbackUrl: samlAcsUrl(fapiBase, connection.id),
    entryPoint: connection.idpSsoUrl,
    issuer: spEntityId,
    audience: spEntityId,
    idpCert: idpCertificateOf(connection),
    idpIssuer: connection.idpEntityId,
    // The assertion itself must be signed: a signature on the response alone would let a signed response
    // carry an assertion nobody signed. The response may be signed too; nothing relies on it.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    cacheProvider: noCache(lookup),
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    identifierFormat: EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    authnRequestBinding: 'HTTP-Redirect',
  });
}

/** The IdP's URL for a new AuthnRequest (HTTP-Redirect binding), and the request's ID (its InResponseTo). */
export async function authnRequest(
  connection: EnterpriseConnection,
  fapiBase: string,
): Promise<{ url: string; requestId: string }> {
  const url = await samlFor(connection, fapiBase).getAuthorizeUrlAsync('', undefined, {});
  // The ID is inside the deflated SAMLRequest: read it back rather than guess what node-saml generated.
  const requestId = await requestIdOf(new URL(url).searchParams.get('SAMLRequest'));
  if (!requestId) throw new Error('node-saml made an AuthnRequest without an ID');
  return { url, requestId };
}

async function requestIdOf(samlRequest: string | null): Promise<string | null> {
  if (!samlRequest) return null;
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const doc = await parseDomFromString(xml);
  return xpath.selectAttributes(doc, "/*[local-name()='AuthnRequest']/@ID")[0]?.nodeValue ?? null;
}

/** The InResponseTo the (unverified) response names: which of our requests it claims to answer. */
export async function claimedRequestId(samlResponse: string): Promise<string | null> {
  try {
    const doc = await parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
    return xpath.selectAttributes(doc, "/*[local-name()='Response']/@InResponseTo")[0]?.nodeValue ?? null;
  } catch {
    return null;
  }
}

/** What an accepted response proves: who signed in, and the assertion to record against replay. */
export interface AcceptedSamlResponse {
  identity: EnterpriseIdentity;
  assertionId: string;
  /** When the assertion stops being usable anyway (its latest NotOnOrAfter, with the skew). */
  assertionExpireAt: Date;
}

type Xml2Js = Record<string, unknown> & { $?: Record<string, string> };
const first = (node: unknown, name: string): Xml2Js | undefined =>
  (node as Record<string, Xml2Js[] | undefined> | undefined)?.[name]?.[0];

/**
 * Checks a response posted to the ACS for `requestId`, one of our AuthnRequests (`lookup` says whether
 * an id is one we issued for this connection, unused and unexpired): throws SamlRefusal, or answers the
 * identity. Every check that fails refuses the whole response.
 */
export async function acceptSamlResponse(
  connection: EnterpriseConnection,
  fapiBase: string,
  samlResponse: string,
  requestId: string,
  lookup: (requestId: string) => Promise<boolean>,
): Promise<AcceptedSamlResponse> {
  const acsUrl = samlAcsUrl(fapiBase, connection.id);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(connection, fapiBase, lookup).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (err) {
    throw new SamlRefusal((err as Error).message);
  }
  if (!profile) throw new SamlRefusal('the response holds no assertion');
  if (profile.inResponseTo !== requestId) throw new SamlRefusal('InResponseTo is not our request');
  if (profile.issuer !== connection.idpEntityId)
    throw new SamlRefusal('the assertion is from another issuer');

  // The response's Destination (when the IdP says it) and the signed assertion's Recipient must be our ACS.
  const doc = await parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
  const destination = xpath.selectAttributes(doc, "/*[local-name()='Response']/@Destination")[0]?.nodeValue;
  if (destination && destination !== acsUrl) throw new SamlRefusal('the response is for another destination');

  const assertion = (profile.getAssertion?.() as { Assertion?: Xml2Js } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) throw new SamlRefusal('the assertion has no ID');
  const confirmations = (first(assertion, 'Subject')?.SubjectConfirmation ?? []) as Xml2Js[];
  const bearer = confirmations
    .map((c) => first(c, 'SubjectConfirmationData')?.$)
    .find((data) => data?.Recipient === acsUrl && data?.InResponseTo === requestId && !!data?.NotOnOrAfter);
  if (!bearer) {
    throw new SamlRefusal('no subject confirmation names our ACS, our request and an expiry');
  }
  const conditionsEnd = first(assertion, 'Conditions')?.$?.NotOnOrAfter;
  const ends = [bearer.NotOnOrAfter!, conditionsEnd].filter((v): v is string => !!v).map(Date.parse);
  const assertionExpireAt = new Date(Math.max(...ends) + SAML_CLOCK_SKEW_MS);

  return { identity: identityOf(connection, profile), assertionId, assertionExpireAt };
}

/** The attribute names tried for each detail when the connection maps none. */
const DEFAULT_ATTRIBUTES = {
  emailAddress: [
    'email',
    'emailAddress',
    'mail',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  ],
  firstName: [
    'firstName',
    'given_name',
    'givenName',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  ],
  lastName: [
    'lastName',
    'family_name',
    'surname',
    'sn',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  ],
} as const;

function attribute(profile: Profile, names: readonly string[]): string | null {
  for (const name of names) {
    const raw = profile[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

function identityOf(connection: EnterpriseConnection, profile: Profile): EnterpriseIdentity {
  const mapping = connection.attributeMapping;
  const pick = (key: keyof typeof DEFAULT_ATTRIBUTES) =>
    attribute(profile, mapping[key] ? [mapping[key]] : DEFAULT_ATTRIBUTES[key]);
  const email = (
    pick('emailAddress') ?? (profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : null)
  )?.toLowerCase();
  const userId = mapping.userId ? attribute(profile, [mapping.userId]) : profile.nameID;
  return {
    connectionId: connection.id,
    protocol: 'saml',
    providerUserId: userId ?? null,
    email: email ?? null,
    emailInDomain: !!email && emailBelongsTo(connection, email),
    firstName: pick('firstName')?.slice(0, 256) ?? null,
    lastName: pick('lastName')?.slice(0, 256) ?? null,
  };
}

/** Our SP metadata for the connection: entity id, ACS (HTTP-POST), NameID format; we sign nothing. */
export function spMetadataXml(connection: EnterpriseConnection, fapiBase: string): string {
  return samlFor(connection, fapiBase).generateServiceProviderMetadata(null, null);
}
