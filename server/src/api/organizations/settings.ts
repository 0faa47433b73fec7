import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { withDefaultMetadata, type ModuleFlag } from '../../organizations/default-metadata.ts';
import { readOrganizationWithDefaults } from '../../organizations/organization-with-defaults.ts';
import type { ApiDeps } from '../deps.ts';
import { ApiError, isUnreadableJson } from '../errors.ts';
import { ADMIN_RIGHTS_ROLES, requireOrgRole } from '../require-org-role.ts';
import { authOf, requireAuth } from '../require-auth.ts';

/** The module keys the settings body uses, each mapped to its public-metadata flag (spec §3). */
export const MODULE_SETTING_FLAGS = {
  vCiso: 'vCisoModuleEnabled',
  compliance: 'complianceModuleEnabled',
  qompanion: 'qompanionModuleEnabled',
  hexadiag: 'hexadiagModuleEnabled',
  passport: 'passportModuleEnabled',
} as const satisfies Record<string, ModuleFlag>;
export type ModuleSettingKey = keyof typeof MODULE_SETTING_FLAGS;

const UI_LANGUAGES = ['EN', 'FR'] as const;

export interface OrganizationSettingsBody {
  modules?: Partial<Record<ModuleSettingKey, boolean>>;
  uiLanguage?: (typeof UI_LANGUAGES)[number];
}

/**
 * A 422 in the product API's error shape. `invalid_request` is not one of the shared API_ERRORS codes
 * (errors.ts is outside this route's files), so this route answers it itself.
 */
class InvalidRequest extends Error {
  override name = 'InvalidRequest';
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Strict: unknown keys, wrong types or a body that is not an object are refused, never ignored. */
export function parseOrganizationSettingsBody(body: unknown): OrganizationSettingsBody {
  if (!isPlainObject(body)) throw new InvalidRequest('The body must be a JSON object.');
  const parsed: OrganizationSettingsBody = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'modules') {
      if (!isPlainObject(value)) throw new InvalidRequest('"modules" must be an object.');
      const modules: Partial<Record<ModuleSettingKey, boolean>> = {};
      for (const [moduleKey, enabled] of Object.entries(value)) {
        if (!Object.hasOwn(MODULE_SETTING_FLAGS, moduleKey)) {
          throw new InvalidRequest(
            `Unknown module "${moduleKey}"; expected one of ${Object.keys(MODULE_SETTING_FLAGS).join(', ')}.`,
          );
        }
        if (typeof enabled !== 'boolean')
          throw new InvalidRequest(`"modules.${moduleKey}" must be a boolean.`);
        modules[moduleKey as ModuleSettingKey] = enabled;
      }
      parsed.modules = modules;
    } else if (key === 'uiLanguage') {
      if (!(UI_LANGUAGES as readonly unknown[]).includes(value)) {
        throw new InvalidRequest('"uiLanguage" must be "EN" or "FR".');
      }
      parsed.uiLanguage = value as OrganizationSettingsBody['uiLanguage'];
    } else {
      throw new InvalidRequest(`Unknown field "${key}"; expected modules or uiLanguage.`);
    }
  }
  return parsed;
}

/** The metadata merge for a settings body: only the keys it names. */
export function settingsMetadataPatch(settings: OrganizationSettingsBody): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, enabled] of Object.entries(settings.modules ?? {})) {
    patch[MODULE_SETTING_FLAGS[key as ModuleSettingKey]] = enabled;
  }
  if (settings.uiLanguage) patch.uiLanguage = settings.uiLanguage;
  return patch;
}

const invalidRequestBody = (message: string) => ({ errors: [{ code: 'invalid_request', message }] });

/** Without an active organisation there is nothing to configure: 404, as GET current answers. */
async function requireActiveOrganization(req: FastifyRequest) {
  if (!authOf(req).orgId) throw new ApiError('no_active_organization');
}

/**
 * PATCH /api/organizations/current/settings — switches modules on or off and sets the interface
 * language of the token's active organisation, for its admins and virtual security officers. The
 * organisation is only ever the verified token's; the body cannot name one. Answers like GET current.
 */
export function registerOrganizationSettingsRoute(api: FastifyInstance, deps: ApiDeps) {
  api.patch(
    '/organizations/current/settings',
    {
      preHandler: [requireAuth(deps), requireActiveOrganization, requireOrgRole(ADMIN_RIGHTS_ROLES)],
      // A body that is not JSON (or not parseable) is an invalid request too, not a server error.
      errorHandler: (error: FastifyError, _req, reply) => {
        if (error instanceof InvalidRequest) return reply.code(422).send(invalidRequestBody(error.message));
        if (isUnreadableJson(error)) {
          return reply.code(422).send(invalidRequestBody('The body must be a JSON object.'));
        }
        throw error;
      },
    },
    async (req) => {
      const settings = parseOrganizationSettingsBody(req.body);
      const orgId = authOf(req).orgId!;
      try {
        // Also writes the defaults on first use, so the answer always has every field.
        const current = await readOrganizationWithDefaults(deps.clerk.organizations, orgId);
        const patch = settingsMetadataPatch(settings);
        if (Object.keys(patch).length === 0) return current;
        const updated = await deps.clerk.organizations.updateOrganizationMetadata(orgId, {
          publicMetadata: patch,
        });
        return {
          id: updated.id,
          slug: updated.slug || null,
          name: updated.name,
          publicMetadata: withDefaultMetadata(updated.id, updated.publicMetadata),
        };
      } catch (error) {
        if ((error as { status?: unknown }).status === 404) throw new ApiError('organization_not_found');
        throw error;
      }
    },
  );
}
