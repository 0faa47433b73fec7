import { z } from '@app/contract';
import { ApiError } from '../../api/errors.ts';
import { BackendCallError } from '../backend-client.ts';
import { consoleRoute } from '../console-route.ts';

/**
 * What the console sends of the instance settings: the whole document as the editor holds it
 * (`replace: true`) or a merge patch, with the version it was read at (the Backend API's guard:
 * docs/instance-settings.md § The Backend API).
 */
const settingsChange = z
  .object({
    settings: z.record(z.string(), z.unknown()),
    version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    replace: z.boolean().optional(),
  })
  .strict();

/** One field the settings' schema refused, as the page lists it. */
export interface SettingsError {
  path: string;
  message: string;
}

/**
 * A refusal of the settings' validation (`422 form_param_value_invalid`, one error a field, each with
 * `meta.param_name` = `settings.<path>`) as the list the page shows; a stale version is
 * `409 settings_conflict`. Anything else is the console's usual error.
 */
function settingsRefusal(error: unknown): SettingsError[] {
  if (error instanceof BackendCallError && error.status === 409) throw new ApiError('settings_conflict');
  if (!(error instanceof BackendCallError) || error.status !== 422 || error.errors.length === 0) throw error;
  return error.errors.map((e) => {
    const param = (e as { meta?: { param_name?: unknown } }).meta?.param_name;
    return {
      path: typeof param === 'string' ? param.replace(/^settings\.?/, '') : '',
      message: (e.long_message || e.message || e.code).slice(0, 500),
    };
  });
}

/** GET /console/api/settings — the effective instance settings with their version (`GET /v1/instance_settings`). */
export const getSettingsRoute = consoleRoute({
  method: 'GET',
  path: '/settings',
  permission: 'operator',
  async handler({ operator }, { backend }) {
    return backend.call('GET', '/instance_settings', { operatorId: operator.userId });
  },
});

/**
 * POST /console/api/settings/validate `{ settings, version, replace? }` — what applying would change
 * (`changes`: `{path, before, after}`, `restart_required`), or every field refused (`valid: false,
 * errors`). Changes nothing, records nothing.
 */
export const validateSettingsRoute = consoleRoute({
  method: 'POST',
  path: '/settings/validate',
  permission: 'operator',
  input: { body: settingsChange },
  async handler({ operator, body }, { backend }) {
    try {
      return await backend.call('POST', '/instance_settings/validate', { operatorId: operator.userId, body });
    } catch (error) {
      return { object: 'instance_settings_validation', valid: false, errors: settingsRefusal(error) };
    }
  },
});

/**
 * POST /console/api/settings/apply `{ settings, version, replace? }` — `PATCH /v1/instance_settings`:
 * applied at once, written back to the settings file, recorded as the operator's
 * (`instance_settings.updated`). Re-verified, as the console's destructive actions. A refused field is
 * `422` with the list (`errors`, as validate's), a stale version `409 settings_conflict`.
 */
export const applySettingsRoute = consoleRoute({
  method: 'POST',
  path: '/settings/apply',
  permission: 'operator_reverified',
  input: { body: settingsChange },
  async handler({ operator, body, reply }, { backend }) {
    try {
      return await backend.call('PATCH', '/instance_settings', { operatorId: operator.userId, body });
    } catch (error) {
      const errors = settingsRefusal(error);
      return reply.status(422).send({
        errors: [{ code: 'change_refused', message: errors[0]?.message ?? 'Refused.' }],
        settings_errors: errors,
      });
    }
  },
});

export const settingsConsoleRoutes = [getSettingsRoute, validateSettingsRoute, applySettingsRoute];
