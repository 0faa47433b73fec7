import { currentAuditContext } from '../../audit/audit-context.ts';
import type { IdentityDeps } from '../../deps.ts';
import { ClerkError, errors } from '../../errors.ts';
import { instanceSettingsSchema, type InstanceSettings } from '../../instance/settings/schema.ts';
import {
  APPLIED_AT_START,
  auditSummaryOf,
  mergePatch,
  restartRequired,
  settingsDiff,
  type SettingsChange,
} from '../../instance/settings/settings-diff.ts';
import { prepareSettingsFile, type PendingSettingsFile } from '../../instance/settings/settings-file.ts';
import type { StoredInstanceSettings } from '../../store/instance-settings.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRequest, BapiRoute } from '../route.ts';

/**
 * Backend API: the instance settings (our extension; hosted Clerk keeps them in its dashboard, with no
 * API). The same document as the settings file and `npm run identity -- settings`, validated by the same
 * schema (docs/instance-settings.md § The Backend API):
 *
 *   GET   /v1/instance_settings           the effective document and its version
 *   POST  /v1/instance_settings/validate  {settings, version?, replace?} → the changes, or every refusal
 *   PATCH /v1/instance_settings           the same, applied: stored, audited, written back to the file
 *
 * `settings` is an RFC 7396 merge patch of the current document (`null` removes a field), or with
 * `replace: true` the whole document. `version`, when given, must be the current one (else 409 conflict),
 * so two operators editing at once do not overwrite each other.
 */

const PATH = '/v1/instance_settings';
const body = jsonInput({ settings: 'object', version: 'integer', replace: 'boolean' });

interface Proposal {
  current: StoredInstanceSettings;
  next: InstanceSettings;
  changes: SettingsChange[];
  expectedVersion: number;
}

function conflict(current: number): ClerkError {
  return new ClerkError(
    409,
    'conflict',
    'Settings changed meanwhile',
    `The instance settings changed since the version you read; they are at version ${current} now. Read them again and reapply your change.`,
    { current_version: current },
  );
}

/** Each field the schema refuses, as Clerk answers a form: one error per field, named by its path. */
function refusal(issues: { path: PropertyKey[]; message: string }[]): ClerkError {
  const [first, ...rest] = issues.map((issue) => {
    const path = ['settings', ...issue.path.map(String)].join('.');
    return errors.paramValueInvalid(path, `${path}: ${issue.message}`);
  });
  first!.also = rest;
  return first!;
}

/** Reads the request and checks it against the current settings; changes nothing. */
async function propose(req: BapiRequest, deps: IdentityDeps): Promise<Proposal> {
  const patch = req.fields.object('settings');
  const version = req.fields.integer('version');
  const replace = req.fields.boolean('replace') ?? false;
  if (patch === undefined) throw errors.paramMissing('settings');
  if (version !== undefined && version < 1)
    throw errors.paramValueInvalid('version', 'version must be a version GET answered (1 or more).');
  // Another process may have changed them within the last poll: judge against the stored document.
  await deps.settings.refresh();
  const current: StoredInstanceSettings = {
    settings: deps.settings.settings,
    version: deps.settings.version,
    updatedAt: deps.settings.updatedAt,
  };
  if (version !== undefined && version !== current.version) throw conflict(current.version);
  const candidate = replace ? patch : mergePatch(current.settings, patch);
  const parsed = instanceSettingsSchema.safeParse(candidate);
  if (!parsed.success) throw refusal(parsed.error.issues);
  const { $schema: _link, ...next } = parsed.data;
  return {
    current,
    next,
    changes: settingsDiff(current.settings, next),
    // The change was computed on this version: stored only if it is still the stored one, so a change
    // made meanwhile elsewhere is never lost, whether the caller sent a version or not.
    expectedVersion: current.version,
  };
}

function settingsJSON(stored: StoredInstanceSettings, deps: IdentityDeps) {
  return {
    object: 'instance_settings_document',
    version: stored.version,
    updated_at: stored.updatedAt.getTime(),
    settings: stored.settings,
    /** Whether a change is also written to the settings file the instance was started with. */
    settings_file: deps.config.settingsFile !== null,
    /** Sections a change of which takes effect at the next start only. */
    applied_at_start: [...APPLIED_AT_START],
  };
}

export const instanceSettingsRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(_req, deps) {
      await deps.settings.refresh();
      return settingsJSON(
        {
          settings: deps.settings.settings,
          version: deps.settings.version,
          updatedAt: deps.settings.updatedAt,
        },
        deps,
      );
    },
  },
  {
    method: 'POST',
    path: `${PATH}/validate`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body },
    // Changes nothing.
    audit: false,
    async handler(req, deps) {
      const { current, changes } = await propose(req, deps);
      return {
        object: 'instance_settings_validation',
        valid: true,
        version: current.version,
        changes,
        restart_required: restartRequired(changes),
      };
    },
  },
  {
    method: 'PATCH',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body },
    audit: { action: 'instance_settings.updated', object: 'instance_settings' },
    async handler(req, deps) {
      const { current, next, changes, expectedVersion } = await propose(req, deps);
      // Nothing moves: nothing is written (no version, no audit event, the file as it is).
      if (!changes.length) return { ...settingsJSON(current, deps), changes, restart_required: [] };
      const pending = currentAuditContext()?.pending;
      if (pending) pending.summary = auditSummaryOf(changes);
      // The file is written beside the old one first (a failure changes nothing), renamed over it as the
      // transaction's last step (a failed rename rolls the change back), so the file stays the record.
      const path = deps.config.settingsFile;
      let file: PendingSettingsFile | null = null;
      if (path) {
        try {
          file = prepareSettingsFile(path, next);
        } catch (err) {
          throw fileNotWritten(path, err);
        }
      }
      let result: Awaited<ReturnType<typeof deps.settings.setAtVersion>>;
      try {
        result = await deps.settings.setAtVersion(next, expectedVersion, {
          db: deps.db,
          beforeCommit: () => {
            try {
              file?.commit();
              file = null;
            } catch (err) {
              throw fileNotWritten(path!, err);
            }
          },
        });
      } finally {
        file?.abort();
      }
      if ('conflict' in result) throw conflict(result.conflict);
      return {
        ...settingsJSON(result.stored, deps),
        changes,
        restart_required: restartRequired(changes),
      };
    },
  },
];

function fileNotWritten(path: string, err: unknown): ClerkError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  // The path and the system's code only: never the document.
  console.warn(`identity: writing the settings file ${path} failed (${code}); the change was not applied.`);
  return new ClerkError(
    500,
    'internal_clerk_error',
    'Settings file not written',
    `The settings file could not be written (${code}); nothing was changed.`,
  );
}
