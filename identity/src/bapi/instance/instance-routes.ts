import type { IdentityDeps } from '../../deps.ts';
import { ClerkError } from '../../errors.ts';
import { INSTANCE_ID } from '../../machines/machines.ts';
import type { JsonBody } from '../request-input.ts';
import { jsonInput, type BapiFieldKind } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: the instance, as @clerk/backend 2.10.1's `instance` calls it (api/endpoints/InstanceApi.ts).
 * What those calls change is, here, the operator's configuration (environment variables read at start)
 * or fixed behaviour, not something the Backend API may switch at run time. So each update takes a field
 * whose value is what the provider already does (the call then changes nothing and succeeds), and refuses
 * any other value of it, or any field it has no counterpart for, with `422 not_supported_by_this_provider`
 * naming the field (`meta.param_name`) and where it is set instead; a refused call changes nothing.
 */

type Effective = Record<string, unknown>;

interface FieldRule {
  kind: BapiFieldKind;
  /** Where the value is set here instead, for the refusal's message. */
  where: string;
}

/** The answer of a refused field: what it is here, and how to change it. */
const fieldRefused = (name: string, current: unknown, where: string) =>
  new ClerkError(
    422,
    'not_supported_by_this_provider',
    'Not supported by this provider',
    `${name} cannot be changed through the Backend API here${
      current === undefined ? '' : ` (it is ${JSON.stringify(current)})`
    }: ${where}`,
    { feature: 'instance_settings', param_name: name },
  );

const same = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i])
    : a === b;

/**
 * Checks every given field against what the provider does; the first that differs (in the declared
 * order) is refused. Absent and `null` fields are not asked for, as on Clerk.
 */
function checkUnchanged(body: JsonBody, rules: Record<string, FieldRule>, effective: Effective): void {
  for (const [name, rule] of Object.entries(rules)) {
    const value =
      rule.kind === 'boolean'
        ? body.boolean(name)
        : rule.kind === 'integer'
          ? body.integer(name)
          : rule.kind === 'strings'
            ? body.strings(name)
            : body.string(name);
    if (value === undefined) continue;
    if (!(name in effective) || !same(value, effective[name])) {
      throw fieldRefused(name, effective[name], rule.where);
    }
  }
}

const inputOf = (rules: Record<string, FieldRule>) =>
  jsonInput(Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, rule.kind])));

const CONFIGURATION = 'it is the operator’s configuration (docs/configuration.md).';
const NO_COUNTERPART = 'this provider has no such setting (docs/backend-api.md, `instance`).';

const INSTANCE_RULES: Record<string, FieldRule> = {
  test_mode: {
    kind: 'boolean',
    where: `test mode follows IDENTITY_MODE: on in development, off in production.`,
  },
  hibp: { kind: 'boolean', where: `IDENTITY_PASSWORD_REJECT_BREACHED; ${CONFIGURATION}` },
  enhanced_email_deliverability: { kind: 'boolean', where: NO_COUNTERPART },
  support_email: { kind: 'string', where: NO_COUNTERPART },
  clerk_js_version: { kind: 'string', where: 'the product pins clerk-js 5.90.0.' },
  development_origin: { kind: 'string', where: NO_COUNTERPART },
  allowed_origins: { kind: 'strings', where: `ALLOWED_ORIGINS; ${CONFIGURATION}` },
  url_based_session_syncing: { kind: 'boolean', where: NO_COUNTERPART },
};

function instanceEffective(deps: IdentityDeps): Effective {
  return {
    test_mode: deps.config.mode === 'development',
    hibp: deps.config.passwordPolicy.rejectBreached,
    enhanced_email_deliverability: false,
    clerk_js_version: '5.90.0',
    allowed_origins: deps.config.allowedOrigins,
  };
}

const RESTRICTION_RULES: Record<string, FieldRule> = {
  allowlist: {
    kind: 'boolean',
    where: 'the allowlist applies as soon as it has an entry (allowlistIdentifiers); it has no switch here.',
  },
  blocklist: {
    kind: 'boolean',
    where: 'the blocklist applies as soon as it has an entry (blocklistIdentifiers); it has no switch here.',
  },
  block_email_subaddresses: { kind: 'boolean', where: NO_COUNTERPART },
  block_disposable_email_domains: { kind: 'boolean', where: NO_COUNTERPART },
  ignore_dots_for_gmail_addresses: { kind: 'boolean', where: NO_COUNTERPART },
};

/** The lists are always enforced (an empty list restricts nothing); the rest is not done here. */
const RESTRICTIONS: Effective = {
  allowlist: true,
  blocklist: true,
  block_email_subaddresses: false,
  block_disposable_email_domains: false,
  ignore_dots_for_gmail_addresses: false,
};

const ORGANIZATION_RULES: Record<string, FieldRule> = {
  enabled: { kind: 'boolean', where: 'organisations are always on here.' },
  max_allowed_memberships: { kind: 'integer', where: 'organisations have no membership limit here (0).' },
  admin_delete_enabled: { kind: 'boolean', where: 'an organisation’s admins may always delete it here.' },
  domains_enabled: { kind: 'boolean', where: 'verified organisation domains are not offered here.' },
  domains_enrollment_modes: { kind: 'strings', where: 'verified organisation domains are not offered here.' },
  creator_role_id: { kind: 'string', where: 'an organisation’s creator is always its org:admin here.' },
  domains_default_role_id: { kind: 'string', where: 'verified organisation domains are not offered here.' },
};

/** What environment.ts tells clerk-js of organisations, as Clerk's OrganizationSettings. */
const ORGANIZATION_SETTINGS = {
  enabled: true,
  max_allowed_memberships: 0,
  admin_delete_enabled: true,
  domains_enabled: false,
  domains_enrollment_modes: [] as string[],
  creator_role_id: 'org:admin',
};

function instanceJSON(deps: IdentityDeps) {
  return {
    object: 'instance',
    id: INSTANCE_ID,
    environment_type: deps.config.mode,
    allowed_origins: deps.config.allowedOrigins.length ? deps.config.allowedOrigins : null,
  };
}

function organizationSettingsJSON() {
  return {
    object: 'organization_settings',
    enabled: ORGANIZATION_SETTINGS.enabled,
    max_allowed_memberships: ORGANIZATION_SETTINGS.max_allowed_memberships,
    // Custom roles and permissions are not offered: the four system roles (docs/organizations.md).
    max_allowed_roles: 0,
    max_allowed_permissions: 0,
    creator_role: ORGANIZATION_SETTINGS.creator_role_id,
    admin_delete_enabled: ORGANIZATION_SETTINGS.admin_delete_enabled,
    domains_enabled: ORGANIZATION_SETTINGS.domains_enabled,
    domains_enrollment_modes: ORGANIZATION_SETTINGS.domains_enrollment_modes,
    domains_default_role: 'org:member',
  };
}

export const instanceRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/instance',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    handler: async (_req, deps) => instanceJSON(deps),
  },
  {
    method: 'PATCH',
    path: '/v1/instance',
    // Changes nothing: it succeeds only when it asks for what already is.
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: inputOf(INSTANCE_RULES) },
    async handler(req, deps) {
      checkUnchanged(req.fields, INSTANCE_RULES, instanceEffective(deps));
      return instanceJSON(deps);
    },
  },
  {
    method: 'PATCH',
    path: '/v1/instance/restrictions',
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: inputOf(RESTRICTION_RULES) },
    async handler(req) {
      checkUnchanged(req.fields, RESTRICTION_RULES, RESTRICTIONS);
      return { object: 'instance_restrictions', ...RESTRICTIONS };
    },
  },
  {
    method: 'PATCH',
    path: '/v1/instance/organization_settings',
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: inputOf(ORGANIZATION_RULES) },
    async handler(req) {
      checkUnchanged(req.fields, ORGANIZATION_RULES, ORGANIZATION_SETTINGS);
      return organizationSettingsJSON();
    },
  },
];
