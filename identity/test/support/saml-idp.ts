import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import samlify from 'samlify';

/**
 * A real SAML 2.0 identity provider in the test (samlify 2.13, an implementation independent of the
 * node-saml our service provider uses), signing with a key made for the test and a self-signed X.509
 * certificate built here (node:crypto signs; the certificate's DER is assembled below, as no installed
 * package makes certificates). It reads our AuthnRequest as an IdP does (HTTP-Redirect binding) and
 * answers the HTTP-POST binding's SAMLResponse; `tags` lets an attack change what the response says.
 */

// samlify insists on a schema validator; ours does not need samlify to validate what it parses itself.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

// --- A minimal DER writer: just what a self-signed certificate needs. ---
function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
const integer = (bytes: Buffer) =>
  tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}
const utcTime = (d: Date) =>
  tlv(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));
const name = (cn: string) => seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));
const SHA256_WITH_RSA = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

export interface TestKeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** The self-signed X.509 certificate, PEM. */
  certificate: string;
}

/** A fresh RSA key and a self-signed certificate for it, valid from a day ago for a year. */
export function selfSignedCertificate(commonName: string): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(8)),
    SHA256_WITH_RSA,
    name(commonName),
    seq(utcTime(new Date(now - 86400_000)), utcTime(new Date(now + 365 * 86400_000))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey as KeyObject);
  const der = seq(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), signature));
  const body = der.toString('base64').replace(/(.{64})/g, '$1\n');
  return {
    privateKey: createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({
      type: 'pkcs8',
      format: 'pem',
    }) as string,
    certificate: `-----BEGIN CERTIFICATE-----\n${body.trim()}\n-----END CERTIFICATE-----\n`,
  };
}

/** The details of the person the IdP vouches for. */
export interface IdpUser {
  email: string;
  firstName?: string;
  lastName?: string;
}

/** The SP as the IdP knows it: its entity id and ACS (read from our SP metadata). */
export interface SpDescription {
  metadataXml: string;
}

/** The SP's ACS (HTTP-POST binding), as its metadata names it. */
function acsOf(sp: samlify.ServiceProviderInstance): string {
  const xml = sp.entityMeta.getMetadata();
  const acs = /<[^>]*AssertionConsumerService[^>]*Location="([^"]+)"/.exec(xml)?.[1];
  if (!acs) throw new Error('the SP metadata names no ACS');
  return acs;
}

export class TestIdp {
  readonly idp: samlify.IdentityProviderInstance;

  constructor(
    readonly entityId: string,
    readonly ssoUrl: string,
    readonly keys: TestKeyPair,
  ) {
    this.idp = samlify.IdentityProvider({
      entityID: entityId,
      signingCert: keys.certificate,
      privateKey: keys.privateKey,
      isAssertionEncrypted: false,
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoUrl }],
      loginResponseTemplate: {
        ...samlify.SamlLib.defaultLoginResponseTemplate,
        attributes: [
          {
            name: 'email',
            valueTag: 'user.email',
            nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
            valueXsiType: 'xs:string',
          },
          {
            name: 'firstName',
            valueTag: 'user.firstName',
            nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
            valueXsiType: 'xs:string',
          },
          {
            name: 'lastName',
            valueTag: 'user.lastName',
            nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
            valueXsiType: 'xs:string',
          },
        ],
      },
    });
  }

  /** Our SP as samlify sees it; `signAssertions: false` plays an SP that asks for a signed response only. */
  sp(metadataXml: string, opts: { signAssertions?: boolean } = {}): samlify.ServiceProviderInstance {
    const signAssertions = opts.signAssertions ?? true;
    return samlify.ServiceProvider({
      metadata: metadataXml.replace(
        /WantAssertionsSigned="(true|false)"/,
        `WantAssertionsSigned="${signAssertions}"`,
      ),
      wantMessageSigned: !signAssertions,
    });
  }

  /** Reads our AuthnRequest (HTTP-Redirect binding) as the IdP's SSO URL receives it: its ID. */
  async readRequest(
    sp: samlify.ServiceProviderInstance,
    redirectUrl: string,
  ): Promise<{ requestId: string }> {
    const url = new URL(redirectUrl);
    const parsed = await this.idp.parseLoginRequest(sp, 'redirect', {
      query: Object.fromEntries(url.searchParams),
      octetString: url.search.slice(1),
    });
    const requestId = (parsed.extract as { request?: { id?: string } }).request?.id;
    if (!requestId) throw new Error('samlify read no request id');
    return { requestId };
  }

  /**
   * The base64 SAMLResponse the IdP posts back for `requestId`, signed as `sp` asks. `tags` overrides what
   * the template says (an attack: another audience, an expired NotOnOrAfter, another InResponseTo …).
   */
  async respond(
    sp: samlify.ServiceProviderInstance,
    requestId: string,
    user: IdpUser,
    tags: Record<string, string> = {},
  ): Promise<string> {
    const spMeta = sp.entityMeta;
    const acs = acsOf(sp);
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const attributeStatement = samlify.SamlLib.attributeStatementBuilder(
      this.idp.entitySetting.loginResponseTemplate?.attributes ?? [],
    );
    const values: Record<string, string> = {
      ID: `_${randomBytes(16).toString('hex')}`,
      AssertionID: `_${randomBytes(16).toString('hex')}`,
      Destination: acs,
      Audience: spMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: this.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: samlify.Constants.StatusCode.Success,
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: user.email,
      InResponseTo: requestId,
      attrUserEmail: user.email,
      attrUserFirstName: user.firstName ?? 'Ada',
      attrUserLastName: user.lastName ?? 'Lovelace',
      ...tags,
    };
    const { context } = await this.idp.createLoginResponse(
      sp,
      { extract: { request: { id: requestId } } },
      'post',
      user as unknown as Record<string, unknown>,
      (template: string) => ({
        id: values.ID!,
        // The statements are XML, put in before the values (which are escaped as text).
        context: samlify.SamlLib.replaceTagsByValue(
          template
            .replace('{AuthnStatement}', '')
            .replace('{AttributeStatement}', attributeStatement)
            // The subject's own InResponseTo, when an attack makes it differ from the response's.
            .replace(
              'InResponseTo="{InResponseTo}"/>',
              values.SubjectInResponseTo
                ? 'InResponseTo="{SubjectInResponseTo}"/>'
                : 'InResponseTo="{InResponseTo}"/>',
            ),
          values,
        ),
      }),
    );
    return context;
  }

  /** An unsigned response: what the template renders, signed by nobody. */
  unsignedResponse(sp: samlify.ServiceProviderInstance, requestId: string, user: IdpUser): string {
    const acs = acsOf(sp);
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 5 * 60_000).toISOString();
    const xml = samlify.SamlLib.replaceTagsByValue(samlify.SamlLib.defaultLoginResponseTemplate.context, {
      ID: `_${randomBytes(16).toString('hex')}`,
      AssertionID: `_${randomBytes(16).toString('hex')}`,
      Destination: acs,
      Audience: sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: this.entityId,
      IssueInstant: now,
      StatusCode: samlify.Constants.StatusCode.Success,
      ConditionsNotBefore: now,
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: user.email,
      InResponseTo: requestId,
      AuthnStatement: '',
      AttributeStatement: '',
    });
    return Buffer.from(xml).toString('base64');
  }
}
