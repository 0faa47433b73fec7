import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import {
  findApiKey,
  findApiKeyBySecretHash,
  insertApiKey,
  liveApiKeyCount,
  liveApiKeysOf,
  lockApiKeyOwner,
  revokeApiKeyRow,
  touchApiKey,
  type ApiKeyOwner,
  type ApiKeyRow,
} from '../store/api-keys.ts';
import { apiKeyErrors } from './api-key-errors.ts';
import {
  API_KEY_SECRET_SHAPE,
  apiKeySecretHash,
  apiKeySecretMatches,
  newApiKeySecret,
  sealApiKeySecret,
  unsealApiKeySecret,
} from './api-key-secret.ts';
import type { ApiKeysSettings } from './api-keys-settings.ts';

/** Spec §7: the list shows 100 keys, so a subject holds no more than that which are not revoked. */
export const MAX_LIVE_API_KEYS = 100;
export const API_KEY_NAME_MAX_LENGTH = 64;
export const API_KEY_DESCRIPTION_MAX_LENGTH = 500;
export const API_KEY_REASON_MAX_LENGTH = 500;
const DAY = 86_400;
/** Spec §9, <APIKeys/>'s choices (CreateApiKeyForm): 1, 7, 30, 60, 90, 180 days, a year; or never. */
export const API_KEY_EXPIRATION_CHOICES = [1, 7, 30, 60, 90, 180, 365].map((days) => days * DAY);
/** The Backend API may set any lifetime up to ten years (a test's key of a few seconds, say). */
const BAPI_MAX_LIFETIME = 10 * 365 * DAY;
/** `last_used_at` moves at most this often per key: a busy key costs no write per request. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** The subject named by a request: `user_…` or `org_…`, anything else refused. */
export function ownerOfSubject(subject: string | undefined): ApiKeyOwner {
  if (!subject) throw errors.paramMissing('subject');
  if (subject.startsWith('user_')) return { kind: 'user', id: subject };
  if (subject.startsWith('org_')) return { kind: 'organization', id: subject };
  throw errors.paramValueInvalid('subject', 'subject must be the id of a user or of an organization.');
}

/** Whether the instance's settings allow keys for this kind of subject. */
export function subjectAllowed(settings: ApiKeysSettings | undefined, owner: ApiKeyOwner): boolean {
  if (!settings?.enabled) return false;
  return owner.kind === 'user' ? settings.userKeys : settings.organizationKeys;
}

export interface ApiKeyInput {
  owner: ApiKeyOwner;
  name: string | undefined;
  description: string | undefined;
  secondsUntilExpiration: number | undefined;
  scopes?: string[];
  claims?: Record<string, unknown> | null;
  createdBy: string | null;
  /** The Frontend API offers <APIKeys/>'s choices only; the Backend API any whole number of seconds. */
  expirations: 'choices' | 'any';
}

/** Checks everything of a new key that needs no database; throws Clerk's field errors. */
function checked(input: ApiKeyInput): { name: string; description: string | null; lifetime: number | null } {
  const name = input.name?.trim();
  if (!name) throw errors.paramMissing('name');
  if (name.length > API_KEY_NAME_MAX_LENGTH) throw errors.paramMaxLength('name', API_KEY_NAME_MAX_LENGTH);
  const description = input.description?.trim() || null;
  if (description && description.length > API_KEY_DESCRIPTION_MAX_LENGTH) {
    throw errors.paramMaxLength('description', API_KEY_DESCRIPTION_MAX_LENGTH);
  }
  const seconds = input.secondsUntilExpiration;
  if (seconds === undefined) return { name, description, lifetime: null };
  const allowed =
    input.expirations === 'choices'
      ? API_KEY_EXPIRATION_CHOICES.includes(seconds)
      : Number.isInteger(seconds) && seconds > 0 && seconds <= BAPI_MAX_LIFETIME;
  if (!allowed) {
    throw errors.paramValueInvalid(
      'seconds_until_expiration',
      input.expirations === 'choices'
        ? 'seconds_until_expiration must be 1, 7, 30, 60, 90 or 180 days or a year, in seconds, or absent for a key that never expires.'
        : `seconds_until_expiration must be a whole number of seconds between 1 and ${BAPI_MAX_LIFETIME}.`,
    );
  }
  return { name, description, lifetime: seconds };
}

/**
 * A new key for the owner: its secret made, sealed and hashed. The owner's row is locked first, so the
 * name and count checks hold until the commit. Answers the row and the secret (shown to the Backend API).
 */
export async function createApiKey(
  tx: Queryable,
  deps: IdentityDeps,
  input: ApiKeyInput,
  now: Date,
): Promise<{ row: ApiKeyRow; secret: string }> {
  // The subject first: a caller naming someone this instance does not have learns only that.
  if (!(await lockApiKeyOwner(tx, input.owner))) throw errors.notFound('subject');
  const { name, description, lifetime } = checked(input);
  const scopes = input.scopes ?? [];
  if (scopes.length > 50 || scopes.some((s) => !s || s.length > 128)) {
    throw errors.paramValueInvalid(
      'scopes',
      'scopes must be at most 50 non-empty strings of at most 128 characters.',
    );
  }
  const held = await liveApiKeyCount(tx, input.owner, name);
  if (held.nameTaken) throw apiKeyErrors.nameTaken();
  if (held.count >= MAX_LIVE_API_KEYS) throw apiKeyErrors.limitReached(MAX_LIVE_API_KEYS);
  const id = newId('ak');
  const secret = newApiKeySecret();
  const row = await insertApiKey(tx, {
    id,
    owner: input.owner,
    name,
    description,
    scopes,
    claims: input.claims ?? null,
    secretHash: apiKeySecretHash(deps.keys.codePepper, secret),
    secretSealed: sealApiKeySecret(deps.keys.secretKey, id, secret),
    createdBy: input.createdBy,
    expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime * 1000),
    now,
  });
  return { row, secret };
}

/** The owner's keys as <APIKeys/> lists them: every key not revoked, newest first. */
export function listApiKeys(db: Queryable, owner: ApiKeyOwner): Promise<ApiKeyRow[]> {
  return liveApiKeysOf(db, owner, MAX_LIVE_API_KEYS);
}

export function findApiKeyById(db: Queryable, id: string, lock = false): Promise<ApiKeyRow | null> {
  return findApiKey(db, id, lock);
}

/** Revokes a key (one already revoked is answered as it is: a second revocation changes nothing). */
export async function revokeApiKey(
  tx: Queryable,
  key: ApiKeyRow,
  reason: string | undefined,
  now: Date,
): Promise<ApiKeyRow> {
  if (key.revoked_at) return key;
  const trimmed = reason?.trim() || null;
  if (trimmed && trimmed.length > API_KEY_REASON_MAX_LENGTH) {
    throw errors.paramMaxLength('revocation_reason', API_KEY_REASON_MAX_LENGTH);
  }
  return revokeApiKeyRow(tx, key.id, trimmed, now);
}

export function revealApiKeySecret(deps: IdentityDeps, key: ApiKeyRow): string {
  return unsealApiKeySecret(deps.keys.secretKey, key.id, key.secret_sealed);
}

export function isApiKeyExpired(key: Pick<ApiKeyRow, 'expires_at'>, now: Date): boolean {
  return key.expires_at !== null && key.expires_at.getTime() <= now.getTime();
}

/**
 * The key a presented secret belongs to, if it is valid now: found by its keyed hash, compared in
 * constant time, not revoked, not expired, its subject's kind still allowed. Its `last_used_at` moves
 * when it last moved more than a minute ago. Null for anything else: the caller cannot tell why.
 */
export async function verifyApiKeySecret(
  db: Queryable,
  deps: IdentityDeps,
  secret: string,
  now: Date,
): Promise<ApiKeyRow | null> {
  if (!API_KEY_SECRET_SHAPE.test(secret)) return null;
  const key = await findApiKeyBySecretHash(db, apiKeySecretHash(deps.keys.codePepper, secret));
  if (!key || !apiKeySecretMatches(deps.keys.codePepper, secret, key.secret_hash)) return null;
  if (key.revoked_at || isApiKeyExpired(key, now)) return null;
  const owner: ApiKeyOwner = key.user_id
    ? { kind: 'user', id: key.user_id }
    : { kind: 'organization', id: key.organization_id! };
  if (!subjectAllowed(deps.settings.settings.apiKeys, owner)) return null;
  const notSince = new Date(now.getTime() - LAST_USED_INTERVAL_MS);
  if (!key.last_used_at || key.last_used_at < notSince) {
    await touchApiKey(db, key.id, now, notSince);
    return { ...key, last_used_at: now };
  }
  return key;
}
