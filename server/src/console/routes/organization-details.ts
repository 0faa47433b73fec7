import {
  MODULE_SETTING_FLAGS,
  MODULE_SETTING_KEYS,
  ROLES,
  defaultMetadataPatch,
  moduleFlagsOf,
  settingsMetadataPatch,
  z,
  type ModuleSettingKey,
} from '@app/contract';
import { BackendCallError, type ConsoleBackend } from '../backend-client.ts';
import { consoleRoute } from '../console-route.ts';
import { organizationIdParam } from './ids.ts';

/**
 * An organisation's roles, modules and subscription on the console's organisation page (docs/console.md).
 * The roles are the instance's (the contract's ROLES, which the provider serves), each with how many
 * members hold it; the modules are the product's flags in the organisation's public metadata, switched by
 * the same merge as the admins' settings page (`settingsMetadataPatch`), written through the Backend API as
 * the operator's (`organization.metadata_updated` in the audit log); the subscription is billing's
 * `getOrganizationBillingSubscription`, null when there is none.
 */

interface BackendOrganization {
  id: string;
  public_metadata?: Record<string, unknown> | null;
}

/** The product's modules by their settings key (`vCiso`, `compliance`…), on or off. */
function modulesOf(metadata: unknown): Record<ModuleSettingKey, boolean> {
  const flags = moduleFlagsOf(metadata);
  return Object.fromEntries(
    MODULE_SETTING_KEYS.map((key) => [key, flags[MODULE_SETTING_FLAGS[key]]]),
  ) as Record<ModuleSettingKey, boolean>;
}

async function subscriptionOf(backend: ConsoleBackend, operatorId: string, organizationId: string) {
  try {
    return await backend.call<unknown>('GET', `/organizations/${organizationId}/billing/subscription`, {
      operatorId,
    });
  } catch (error) {
    // The organisation was just read: a 404 here is "no subscription" (or billing not offered).
    if (error instanceof BackendCallError && error.status === 404) return null;
    throw error;
  }
}

/**
 * GET /console/api/organizations/:organizationId/details — `{ roles: [{ key, name, description,
 * members_count }], modules: { vCiso, compliance, qompanion, hexadiag, passport }, subscription }`.
 */
export const organizationDetailsRoute = consoleRoute({
  method: 'GET',
  path: '/organizations/:organizationId/details',
  permission: 'operator',
  input: { params: { organizationId: organizationIdParam } },
  async handler({ operator, params: { organizationId } }, { backend }) {
    const operatorId = operator.userId;
    const organization = await backend.call<BackendOrganization>('GET', `/organizations/${organizationId}`, {
      operatorId,
    });
    const [counts, subscription] = await Promise.all([
      Promise.all(
        ROLES.map((role) =>
          backend.call<{ total_count: number }>('GET', `/organizations/${organization.id}/memberships`, {
            operatorId,
            query: { role: role.key, limit: 1 },
          }),
        ),
      ),
      subscriptionOf(backend, operatorId, organization.id),
    ]);
    return {
      roles: ROLES.map((role, i) => ({
        key: role.key,
        name: role.name,
        description: role.description,
        members_count: counts[i]!.total_count,
      })),
      modules: modulesOf(organization.public_metadata),
      subscription,
    };
  },
});

/** The modules a change names, each on or off; at least one. */
const modulesChangeSchema = z
  .strictObject(
    Object.fromEntries(MODULE_SETTING_KEYS.map((key) => [key, z.boolean().optional()])) as Record<
      ModuleSettingKey,
      z.ZodOptional<z.ZodBoolean>
    >,
  )
  .refine((change) => Object.values(change).some((value) => value !== undefined), 'at least one module');

/**
 * POST /console/api/organizations/:organizationId/modules `{ vCiso?, compliance?, … }` — switches the
 * named modules on or off, as the organisation's admins do on /settings: one merge of the public metadata
 * (with the product's defaults when they were never written), `PATCH /v1/organizations/:id/metadata`.
 * Answers the modules after the change.
 */
export const changeOrganizationModulesRoute = consoleRoute({
  method: 'POST',
  path: '/organizations/:organizationId/modules',
  permission: 'operator',
  input: { params: { organizationId: organizationIdParam }, body: modulesChangeSchema },
  async handler({ operator, params: { organizationId }, body }, { backend }) {
    const operatorId = operator.userId;
    const organization = await backend.call<BackendOrganization>('GET', `/organizations/${organizationId}`, {
      operatorId,
    });
    const patch = {
      ...defaultMetadataPatch(organization.id, organization.public_metadata),
      ...settingsMetadataPatch({ modules: body }),
    };
    const updated = await backend.call<BackendOrganization>(
      'PATCH',
      `/organizations/${organization.id}/metadata`,
      {
        operatorId,
        body: { public_metadata: patch },
      },
    );
    return { modules: modulesOf(updated.public_metadata) };
  },
});

export const organizationDetailConsoleRoutes = [organizationDetailsRoute, changeOrganizationModulesRoute];
