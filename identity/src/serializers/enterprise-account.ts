import {
  clerkProtocolOf,
  connectionById,
  providerOf,
  type EnterpriseConnection,
} from '../enterprise-sso/connections.ts';
import type { InstanceSettings } from '../instance/settings/schema.ts';
import type { EnterpriseAccountRow } from '../store/enterprise-sso.ts';
import { ms } from './verification.ts';

type Connections = InstanceSettings['enterpriseConnections'];

const verified = (strategy: string) => ({
  object: 'verification',
  status: 'verified',
  strategy,
  attempts: null,
  expire_at: null,
  external_verification_redirect_url: null,
  error: null,
});

/** The connection as an account embeds it (EnterpriseAccountConnectionJSON of @clerk/types). */
function connectionJSON(c: EnterpriseConnection, at: number) {
  return {
    object: 'enterprise_connection',
    id: c.id,
    name: c.name,
    domain: c.domains[0]!,
    active: c.enabled,
    protocol: clerkProtocolOf(c),
    provider: providerOf(c),
    logo_public_url: null,
    sync_user_attributes: true,
    allow_subdomains: false,
    allow_idp_initiated: false,
    disable_additional_identifications: false,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Clerk's EnterpriseAccountJSON (<UserProfile/>'s enterprise accounts, @clerk/types json.ts). The
 * connection is read from the instance settings; one since removed leaves the account inactive with
 * `enterprise_connection: null`.
 */
export function enterpriseAccountJSON(x: EnterpriseAccountRow, connections: Connections) {
  const connection = connectionById(connections, x.connection_id);
  return {
    object: 'enterprise_account',
    id: x.id,
    active: connection?.enabled ?? false,
    email_address: x.email_address,
    first_name: x.first_name,
    last_name: x.last_name,
    protocol: clerkProtocolOf(x),
    provider: connection ? providerOf(connection) : x.protocol === 'saml' ? 'saml_custom' : 'oidc_custom',
    provider_user_id: x.provider_user_id,
    public_metadata: {},
    enterprise_connection: connection ? connectionJSON(connection, x.created_at.getTime()) : null,
    verification: verified('enterprise_sso'),
    created_at: ms(x.created_at),
    updated_at: ms(x.updated_at),
  };
}

/** The deprecated SamlAccountJSON clerk-js 5.90.0 still reads (`user.samlAccounts`): the SAML accounts only. */
export function samlAccountJSON(x: EnterpriseAccountRow, connections: Connections) {
  const connection = connectionById(connections, x.connection_id);
  const at = x.created_at.getTime();
  return {
    object: 'saml_account',
    id: x.id,
    provider: connection ? providerOf(connection) : 'saml_custom',
    provider_user_id: x.provider_user_id,
    active: connection?.enabled ?? false,
    email_address: x.email_address,
    first_name: x.first_name ?? '',
    last_name: x.last_name ?? '',
    verification: verified('saml'),
    saml_connection: connection ? samlConnectionOf(connectionJSON(connection, at)) : null,
  };
}

/** A SamlAccountJSON's connection: the EnterpriseConnectionJSON's fields it shares. */
function samlConnectionOf({
  object: _object,
  protocol: _protocol,
  logo_public_url: _logo,
  ...shared
}: ReturnType<typeof connectionJSON>) {
  return shared;
}
