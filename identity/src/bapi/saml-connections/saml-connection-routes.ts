import type { IdentityDeps } from '../../deps.ts';
import {
  allConnections,
  connectionById,
  samlAcsUrl,
  samlMetadataUrl,
  samlSpEntityId,
  type EnterpriseConnection,
} from '../../enterprise-sso/connections.ts';
import { isCertificate, parseIdpMetadata } from '../../enterprise-sso/idp-metadata.ts';
import { errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import {
  InstanceSettingsError,
  parseInstanceSettings,
  type EnterpriseConnectionSettings,
} from '../../instance/settings/schema.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { enterpriseAccountCounts } from '../../store/enterprise-sso.ts';
import { findOrganization } from '../../store/organizations.ts';
import { queryList, queryString } from '../request-input.ts';
import type { BapiRequest, BapiRoute } from '../route.ts';
import { ownValue } from '../../util/own-value.ts';
import { jsonInput, queryInput, type BapiFieldKind } from '../json-input.ts';

/**
 * Backend API: SAML connections as @clerk/backend 2.10.1 calls them (`samlConnections.*`,
 * api/endpoints/SamlConnectionApi.ts): list, create, read, update, delete. They are the SAML entries of
 * the instance settings' `enterpriseConnections` (docs/enterprise-sso.md), so the settings file, the CLI
 * and this API show and change the same connections; a change reaches the other instances within
 * SETTINGS_POLL_MS. A settings file given at start replaces what was changed here (configuration as code).
 *
 * As hosted Clerk, a connection is created inactive (`active: false`); `PATCH … {active: true}` turns it
 * on once its IdP's entity id, SSO URL and certificate are known (or its metadata XML gave them).
 * Not supported, and refused rather than ignored: `idp_metadata_url` (nothing is fetched from outside),
 * `allow_idp_initiated` and `allow_subdomains` set to true.
 */

const PROVIDERS = ['saml_custom', 'saml_okta', 'saml_google', 'saml_microsoft'] as const;
type Provider = (typeof PROVIDERS)[number];

const FIELDS = {
  name: 'string',
  provider: 'string',
  domain: 'string',
  organization_id: 'string',
  idp_entity_id: 'string',
  idp_sso_url: 'string',
  idp_certificate: 'string',
  idp_metadata_url: 'string',
  idp_metadata: 'string',
  attribute_mapping: 'object',
  active: 'boolean',
  sync_user_attributes: 'boolean',
  allow_subdomains: 'boolean',
  allow_idp_initiated: 'boolean',
} as const satisfies Record<string, BapiFieldKind>;

const MAPPING_KEYS = {
  email_address: 'emailAddress',
  first_name: 'firstName',
  last_name: 'lastName',
  user_id: 'userId',
} as const;

const invalid = (name: string, detail: string) => errors.paramValueInvalid(name, detail);

/** The SAML connections of the instance; `id` must name one. */
function samlConnection(deps: IdentityDeps, id: string): EnterpriseConnection {
  const connection = connectionById(deps.settings.settings.enterpriseConnections, id);
  if (!connection || connection.protocol !== 'saml') throw errors.notFound('saml connection');
  return connection;
}

/** The changes a request asks for, each checked; nothing is written until all are. */
async function changesOf(
  req: BapiRequest,
  deps: IdentityDeps,
  creating: boolean,
): Promise<Partial<EnterpriseConnectionSettings>> {
  const f = req.fields;
  const mapping = f.object('attribute_mapping');
  const changes: Partial<EnterpriseConnectionSettings> = {};
  if (mapping !== undefined) {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(mapping)) {
      const to = ownValue<string>(MAPPING_KEYS, key);
      if (!to || (value !== null && (typeof value !== 'string' || value.length > 256))) {
        throw invalid(
          'attribute_mapping',
          `attribute_mapping.${key} is not an attribute name this API takes.`,
        );
      }
      if (value) out[to] = value;
    }
    changes.attributeMapping = out;
  }
  for (const flag of ['allow_idp_initiated', 'allow_subdomains'] as const) {
    if (f.boolean(flag)) throw invalid(flag, `${flag} is not supported by this instance.`);
  }
  f.boolean('sync_user_attributes');
  if (f.string('idp_metadata_url') !== undefined) {
    throw invalid(
      'idp_metadata_url',
      'Nothing is fetched from outside: give the metadata XML as idp_metadata.',
    );
  }
  const name = f.string('name');
  if (name !== undefined) {
    if (!name.trim() || name.length > 128) throw invalid('name', 'name must be 1 to 128 characters.');
    changes.name = name.trim();
  } else if (creating) throw invalid('name', 'name is required.');
  const provider = f.string('provider');
  if (provider !== undefined) {
    if (!PROVIDERS.includes(provider as Provider)) {
      throw invalid('provider', `provider must be one of ${PROVIDERS.join(', ')}.`);
    }
    changes.provider = provider as Provider;
  } else if (creating) throw invalid('provider', 'provider is required.');
  const domain = f.string('domain')?.trim().toLowerCase();
  if (domain !== undefined) changes.domains = [domain];
  else if (creating) throw invalid('domain', 'domain is required.');
  const organizationId = f.string('organization_id');
  if (organizationId !== undefined) {
    const organization = organizationId ? await findOrganization(deps.db, organizationId) : null;
    if (!organization) throw invalid('organization_id', 'organization_id names no organization.');
    changes.organization = organization.id;
  }
  const metadata = f.string('idp_metadata');
  if (metadata !== undefined) {
    const parsed = await parseIdpMetadata(metadata);
    if (!parsed) {
      throw invalid(
        'idp_metadata',
        'idp_metadata must be an IdP EntityDescriptor with an HTTP-Redirect SingleSignOnService and a signing certificate.',
      );
    }
    Object.assign(changes, {
      idpMetadata: metadata,
      idpEntityId: parsed.entityId,
      idpSsoUrl: parsed.ssoUrl,
      idpCertificate: parsed.certificate,
    });
  }
  const entityId = f.string('idp_entity_id');
  if (entityId !== undefined) changes.idpEntityId = entityId;
  const ssoUrl = f.string('idp_sso_url');
  if (ssoUrl !== undefined) changes.idpSsoUrl = ssoUrl;
  const certificate = f.string('idp_certificate');
  if (certificate !== undefined) {
    if (!isCertificate(certificate))
      throw invalid('idp_certificate', 'idp_certificate must be an X.509 certificate.');
    changes.idpCertificate = certificate;
  }
  const active = f.boolean('active');
  if (active !== undefined) changes.enabled = active;
  return changes;
}

/** Stores the instance's connections with `id` replaced by `connection` (or removed when null). */
async function storeConnection(
  deps: IdentityDeps,
  id: string,
  connection: EnterpriseConnectionSettings | null,
): Promise<void> {
  const current = deps.settings.settings;
  const connections = { ...current.enterpriseConnections };
  if (connection) connections[id] = connection;
  else delete connections[id];
  const next = { ...current, enterpriseConnections: connections };
  try {
    // Validated whole first (a domain another enabled connection has, an active one without its IdP).
    parseInstanceSettings(next);
  } catch (err) {
    if (!(err instanceof InstanceSettingsError)) throw err;
    const problem = err.problems[0] ?? 'invalid';
    throw invalid(paramOf(problem), `The connection cannot be saved: ${problem.replace(/^[^:]*: /, '')}`);
  }
  await deps.settings.set(next);
}

const PARAM_OF_SETTING: Record<string, string> = {
  name: 'name',
  domains: 'domain',
  idpEntityId: 'idp_entity_id',
  idpSsoUrl: 'idp_sso_url',
  idpCertificate: 'idp_certificate',
  idpMetadata: 'idp_metadata',
  provider: 'provider',
  organization: 'organization_id',
  attributeMapping: 'attribute_mapping',
};

/** The request parameter a settings problem (`enterpriseConnections.<id>.<field>…: reason`) is about. */
function paramOf(problem: string): string {
  const field = problem.split(':')[0]!.split('.')[2];
  return (field && ownValue(PARAM_OF_SETTING, field)) || 'active';
}

/** Clerk's SamlConnectionJSON (@clerk/backend 2.10.1 resources/JSON.ts). */
async function samlConnectionJSON(deps: IdentityDeps, c: EnterpriseConnection, userCount: number) {
  const organization = c.organization ? await findOrganization(deps.db, c.organization) : null;
  const at = deps.settings.updatedAt.getTime();
  const mapping = c.attributeMapping;
  return {
    object: 'saml_connection',
    id: c.id,
    name: c.name,
    domain: c.domains[0] ?? '',
    organization_id: organization?.id ?? null,
    idp_entity_id: c.idpEntityId ?? null,
    idp_sso_url: c.idpSsoUrl ?? null,
    // A certificate kept in an environment variable is not shown (the settings name the variable only).
    idp_certificate: typeof c.idpCertificate === 'string' ? c.idpCertificate : null,
    idp_metadata_url: null,
    idp_metadata: c.idpMetadata ?? null,
    acs_url: samlAcsUrl(deps.fapiBase, c.id),
    sp_entity_id: samlSpEntityId(deps.fapiBase, c.id),
    sp_metadata_url: samlMetadataUrl(deps.fapiBase, c.id),
    active: c.enabled,
    provider: c.provider ?? 'saml_custom',
    user_count: userCount,
    sync_user_attributes: true,
    allow_subdomains: false,
    allow_idp_initiated: false,
    created_at: at,
    updated_at: at,
    attribute_mapping: {
      user_id: mapping.userId ?? '',
      email_address: mapping.emailAddress ?? '',
      first_name: mapping.firstName ?? '',
      last_name: mapping.lastName ?? '',
    },
  };
}

async function oneJSON(deps: IdentityDeps, c: EnterpriseConnection) {
  return samlConnectionJSON(deps, c, (await enterpriseAccountCounts(deps.db)).get(c.id) ?? 0);
}

export const samlConnectionRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/saml_connections',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({
        limit: 'page',
        offset: 'page',
        query: 'text',
        order_by: 'enum',
        organization_id: 'text',
      }),
    },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const order = queryString(req.query, 'order_by');
      if (order !== undefined && !/^[+-]?(created_at|name)$/.test(order)) {
        throw invalid('order_by', 'order_by must be created_at or name, with + or -.');
      }
      const search = queryString(req.query, 'query')?.toLowerCase();
      const organizations = queryList(req.query, 'organization_id');
      const include = organizations.filter((o) => !o.startsWith('-')).map((o) => o.replace(/^\+/, ''));
      const exclude = organizations.filter((o) => o.startsWith('-')).map((o) => o.slice(1));
      const orgIdOf = new Map<string, string | null>();
      const matching: EnterpriseConnection[] = [];
      for (const c of allConnections(deps.settings.settings.enterpriseConnections)) {
        if (c.protocol !== 'saml') continue;
        if (search && !c.name.toLowerCase().includes(search)) continue;
        if (c.organization && !orgIdOf.has(c.organization)) {
          orgIdOf.set(c.organization, (await findOrganization(deps.db, c.organization))?.id ?? null);
        }
        const orgId = c.organization ? orgIdOf.get(c.organization)! : null;
        if (include.length && (!orgId || !include.includes(orgId))) continue;
        if (orgId && exclude.includes(orgId)) continue;
        matching.push(c);
      }
      if (order?.endsWith('name')) matching.sort((a, b) => a.name.localeCompare(b.name));
      if (order?.startsWith('-')) matching.reverse();
      const counts = await enterpriseAccountCounts(deps.db);
      const data = [];
      for (const c of matching.slice(page.offset, page.offset + page.limit)) {
        data.push(await samlConnectionJSON(deps, c, counts.get(c.id) ?? 0));
      }
      return { data, total_count: matching.length };
    },
  },
  {
    method: 'POST',
    path: '/v1/saml_connections',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput(FIELDS) },
    async handler(req, deps) {
      const changes = await changesOf(req, deps, true);
      const id = newId('samlc');
      const connection: EnterpriseConnectionSettings = {
        name: changes.name!,
        protocol: 'saml',
        domains: changes.domains!,
        enabled: false,
        signUpAllowed: true,
        defaultRole: 'org:member',
        attributeMapping: {},
        ...changes,
      };
      await storeConnection(deps, id, connection);
      return oneJSON(deps, samlConnection(deps, id));
    },
  },
  {
    method: 'GET',
    path: '/v1/saml_connections/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    handler: (req, deps) => oneJSON(deps, samlConnection(deps, req.params.id!)),
  },
  {
    method: 'PATCH',
    path: '/v1/saml_connections/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput(FIELDS) },
    async handler(req, deps) {
      const { id, source } = samlConnection(deps, req.params.id!);
      const changes = await changesOf(req, deps, false);
      await storeConnection(deps, id, { ...source, ...changes });
      return oneJSON(deps, samlConnection(deps, id));
    },
  },
  {
    method: 'DELETE',
    path: '/v1/saml_connections/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const { id } = samlConnection(deps, req.params.id!);
      await storeConnection(deps, id, null);
      return { object: 'saml_connection', id, deleted: true };
    },
  },
];
