import { X509Certificate } from 'node:crypto';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml.js';

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What a connection takes from its IdP's metadata XML. */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  certificate: string;
}

/**
 * The IdP's entity id, its SingleSignOnService of the HTTP-Redirect binding and its signing certificate,
 * from its metadata XML (an EntityDescriptor with an IDPSSODescriptor); null when any is missing.
 */
export async function parseIdpMetadata(xml: string): Promise<IdpMetadata | null> {
  let doc: Document;
  try {
    doc = await parseDomFromString(xml);
  } catch {
    return null;
  }
  const entityId = xpath.selectAttributes(doc, "/*[local-name()='EntityDescriptor']/@entityID")[0]?.nodeValue;
  const idp = "/*[local-name()='EntityDescriptor']/*[local-name()='IDPSSODescriptor']";
  const ssoUrl = xpath
    .selectElements(doc, `${idp}/*[local-name()='SingleSignOnService']`)
    .find((e) => e.getAttribute('Binding') === REDIRECT_BINDING)
    ?.getAttribute('Location');
  const certificate = xpath
    .selectElements(
      doc,
      `${idp}/*[local-name()='KeyDescriptor'][not(@use) or @use='signing']//*[local-name()='X509Certificate']`,
    )[0]
    ?.textContent?.replace(/\s+/g, '');
  if (!entityId || !ssoUrl || !certificate || !isCertificate(certificate)) return null;
  return { entityId, ssoUrl, certificate };
}

/** Whether `text` (PEM, or the base64 of a DER certificate) is an X.509 certificate. */
export function isCertificate(text: string): boolean {
  const pem = text.includes('-----BEGIN')
    ? text
    : `-----BEGIN CERTIFICATE-----\n${text.replace(/\s+/g, '')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
