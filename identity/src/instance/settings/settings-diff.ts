/**
 * What an operator's change does to the settings document (Backend API `instance_settings`): a partial
 * document merged into the current one, the fields that move, and what the audit log keeps of them.
 */

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * RFC 7396 JSON Merge Patch: objects merge field by field, `null` removes a field, anything else
 * (arrays included) replaces. A full document is a patch that names every section.
 */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** One field that changes: its dotted path and its values before and after (absent: undefined). */
export interface SettingsChange {
  path: string;
  before?: Json;
  after?: Json;
}

/**
 * The leaves that differ between two documents, in document order. Objects are compared field by field;
 * arrays and scalars as wholes (an endpoint's `events` list is one change, not one per element).
 */
export function settingsDiff(before: Json, after: Json, path: string[] = []): SettingsChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => settingsDiff(before[key], after[key], [...path, key]));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const change: SettingsChange = { path: path.join('.') || '(document)' };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return [change];
}

/**
 * Sections whose change is stored and written back at once but takes effect at the next start:
 * `oauthApplications` are synced into the application table when a server starts
 * (oauth-provider/declared-applications.ts). Every other section is read live by each process.
 */
export const APPLIED_AT_START = ['oauthApplications'] as const;

export function restartRequired(changes: SettingsChange[]): string[] {
  return APPLIED_AT_START.filter((section) =>
    changes.some((c) => c.path === section || c.path.startsWith(`${section}.`)),
  );
}

/** Path segments whose values the audit log never keeps, as for request bodies (audit-context.ts). */
const SECRET_SEGMENT =
  /password|secret|token|code|private|key|digest|hash|totp|backup|signature|ticket|credential|otp|certificate|claims/i;

/** At most this many changes are itemised in one audit event; the count says how many there were. */
const AUDITED_CHANGES = 50;

/**
 * What the audit log keeps of a settings change: the paths that moved, with their values when they are
 * short scalars under no secret-like name. The settings hold no secret (only the names of environment
 * variables), but a claims template or a certificate is nobody's business in a log.
 */
export function auditSummaryOf(changes: SettingsChange[]): Record<string, unknown> {
  const shown = (path: string, v: Json): boolean =>
    !SECRET_SEGMENT.test(path) &&
    (v === null ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      (typeof v === 'string' && v.length <= 200));
  return {
    change_count: changes.length,
    changes: changes.slice(0, AUDITED_CHANGES).map((c) => ({
      path: c.path,
      ...(c.before !== undefined && shown(c.path, c.before) ? { before: c.before } : {}),
      ...(c.after !== undefined && shown(c.path, c.after) ? { after: c.after } : {}),
    })),
  };
}
