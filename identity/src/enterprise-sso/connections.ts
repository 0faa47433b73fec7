import {
  secretFromEnv,
  type EnterpriseConnectionSettings,
  type InstanceSettings,
} from '../instance/settings/schema.ts';
import { ownValue } from '../util/own-value.ts';

/** A connection as the flows use it: its settings and its id (the settings' key). */
export interface EnterpriseConnection extends EnterpriseConnectionSettings {
  id: string;
  /** The settings object it was made from (replaced on every settings change: what caches are keyed on). */
  source: EnterpriseConnectionSettings;
}

/** The settings' connections (absent when none were ever set). */
type Connections = InstanceSettings['enterpriseConnections'];

const withId = (id: string, settings: EnterpriseConnectionSettings): EnterpriseConnection => ({
  ...settings,
  id,
  source: settings,
});

/** Every connection of the instance, enabled or not, by id order. */
export function allConnections(connections: Connections): EnterpriseConnection[] {
  return Object.entries(connections ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, s]) => withId(id, s));
}

/** The connection `id`, if the instance has it (enabled or not). */
export function connectionById(connections: Connections, id: string): EnterpriseConnection | null {
  const settings = connections ? ownValue(connections, id) : undefined;
  return settings ? withId(id, settings) : null;
}

/** The enabled connection `id`, or null. */
export function enabledConnection(connections: Connections, id: string): EnterpriseConnection | null {
  const connection = connectionById(connections, id);
  return connection?.enabled ? connection : null;
}

/** The domain of an email address, in lower case; null for anything that is not one. */
export function domainOf(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return email.slice(at + 1).toLowerCase();
}

/** The enabled connection an email address's domain belongs to (one at most: the schema sees to it). */
export function connectionForEmail(
  connections: Connections,
  email: string | null | undefined,
): EnterpriseConnection | null {
  const domain = domainOf(email);
  if (!domain) return null;
  for (const [id, settings] of Object.entries(connections ?? {})) {
    if (settings.enabled && settings.domains.includes(domain)) return withId(id, settings);
  }
  return null;
}

/** Whether `email` is at one of the connection's domains (what an IdP may vouch for). */
export function emailBelongsTo(connection: EnterpriseConnection, email: string): boolean {
  const domain = domainOf(email);
  return domain !== null && connection.domains.includes(domain);
}

/** The IdP's signing certificate as configured: PEM or base64 text, or read from its environment variable. */
export function idpCertificateOf(connection: EnterpriseConnection): string {
  const cert = connection.idpCertificate;
  if (!cert) throw new Error(`${connection.id}: no IdP certificate is configured.`);
  return typeof cert === 'string' ? cert : secretFromEnv(cert);
}

/** Where the SAML endpoints of a connection live, under the Frontend API (`fapiBase` ends in the FAPI path). */
export const samlAcsUrl = (fapiBase: string, id: string) => `${fapiBase}/v1/saml/acs/${id}`;
export const samlMetadataUrl = (fapiBase: string, id: string) => `${fapiBase}/v1/saml/metadata/${id}.xml`;
/** Our SP entity id: the metadata URL, so an IdP can fetch what it names. */
export const samlSpEntityId = samlMetadataUrl;

/** Clerk's `provider` of a connection: the SAML IdP slug, or `oidc_custom` for OpenID Connect. */
export const providerOf = (connection: EnterpriseConnection) =>
  connection.protocol === 'saml' ? (connection.provider ?? 'saml_custom') : 'oidc_custom';

/** Clerk's `protocol`: `saml`, or `oauth` for OpenID Connect (EnterpriseProtocol of @clerk/types). */
export const clerkProtocolOf = (connection: Pick<EnterpriseConnection, 'protocol'>) =>
  connection.protocol === 'saml' ? 'saml' : 'oauth';
