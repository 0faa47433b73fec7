import type { FastifyRequest } from 'fastify';
import { z } from '@app/contract';
import { jwtVerify } from 'jose';
import { apiKeyErrors } from '../../api-keys/api-key-errors.ts';
import { apiKeyJSON } from '../../api-keys/api-key-json.ts';
import {
  createApiKey,
  findApiKeyById,
  listApiKeys,
  ownerOfSubject,
  revealApiKeySecret,
  revokeApiKey,
  subjectAllowed,
} from '../../api-keys/api-keys.ts';
import type { Queryable } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import type { RouteDeclaration } from '../../http/route-declaration.ts';
import { hasPermission } from '../../organizations/roles.ts';
import type { ApiKeyOwner, ApiKeyRow } from '../../store/api-keys.ts';
import { membershipOf } from '../../store/organizations.ts';
import { findSessionById } from '../../store/sessions.ts';

/**
 * The Frontend API's API-key calls as clerk-js 5.90.0 makes them (core/modules/apiKeys): `pathPrefix ''`
 * (no `/v1`: `/__clerk//api_keys…` behind the proxy), `Authorization: Bearer <session token>`, JSON
 * bodies. Not the browser's client cookie: the session token says who calls, and it is verified as the
 * product server would (this instance's signature, not expired) and its session read again (still
 * active, still this user's), so a token of an ended session stops working at once.
 *
 *   GET  /api_keys?subject=&limit=   {api_keys: ApiKeyJSON[]}, 200 always (clerk-js reads `api_keys`
 *                                    of any answer): empty when the caller may not see the subject
 *   GET  /api_keys/:id/secret        {secret}
 *   POST /api_keys                   {response: ApiKeyJSON}; 409 for a name the subject already uses
 *   POST /api_keys/:id/revoke        {response: ApiKeyJSON}; the key then leaves the list
 *
 * A user's own keys are theirs alone; an organisation's need `org:sys_api_keys:read` (list, reveal) or
 * `:manage` (also create, revoke) from the caller's role in it, read from the membership now. A key the
 * caller may not see is 404, as one that does not exist. An impersonation session may list keys only:
 * creating, revealing or revoking one is 403 `not_allowed_access` before anything else is read.
 */
export function isApiKeysPath(path: string): boolean {
  return path === '/api_keys' || path.startsWith('/api_keys/');
}

type Access = 'read' | 'manage';

interface Caller {
  userId: string;
  sessionId: string;
  /** Who really acts, when the session is an impersonation (the token's `act`). */
  actor: Record<string, unknown> | null;
}

/** The caller the Bearer session token names, if the token is this instance's, current, and its session active. */
async function callerOf(req: FastifyRequest, deps: IdentityDeps, now: Date): Promise<Caller> {
  const header = req.headers.authorization;
  const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) throw apiKeyErrors.noSessionToken();
  let claims: { sid?: unknown; sub?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(token, deps.signingKeys.verificationKey, {
      algorithms: ['RS256'],
      issuer: deps.tokens.issuer,
      currentDate: now,
      // As @clerk/backend allows between servers; a token is minted for at most a minute anyway.
      clockTolerance: 5,
    }));
  } catch {
    throw apiKeyErrors.sessionTokenInvalid();
  }
  if (typeof claims.sid !== 'string' || typeof claims.sub !== 'string')
    throw apiKeyErrors.sessionTokenInvalid();
  const session = await findSessionById(deps.db, claims.sid);
  // A pending session (a task to finish first) is not signed in for this, as the product server treats it.
  if (
    !session ||
    session.user_id !== claims.sub ||
    session.status !== 'active' ||
    session.expire_at.getTime() <= now.getTime()
  ) {
    throw apiKeyErrors.sessionTokenInvalid();
  }
  return { userId: session.user_id, sessionId: session.id, actor: session.actor };
}

/** The caller, if it may create, reveal or revoke keys: not an impersonation (see actorForbidden). */
async function keyHolderOf(req: FastifyRequest, deps: IdentityDeps, now: Date): Promise<Caller> {
  const caller = await callerOf(req, deps, now);
  if (caller.actor) throw apiKeyErrors.actorForbidden();
  return caller;
}

/** Whether the caller may do `access` on the owner's keys (their own, or an organisation's by role). */
async function mayAccess(
  db: Queryable,
  caller: Caller,
  owner: ApiKeyOwner,
  access: Access,
): Promise<boolean> {
  if (owner.kind === 'user') return owner.id === caller.userId;
  const membership = await membershipOf(db, owner.id, caller.userId);
  if (!membership) return false;
  if (hasPermission(membership.role, 'org:sys_api_keys:manage')) return true;
  return access === 'read' && hasPermission(membership.role, 'org:sys_api_keys:read');
}

function ownerOfKey(key: ApiKeyRow): ApiKeyOwner {
  return key.user_id ? { kind: 'user', id: key.user_id } : { kind: 'organization', id: key.organization_id! };
}

/**
 * The key by id, if the caller may do `access` on it and it is not revoked; otherwise 404 whatever the
 * reason, so another user's or organisation's key ids tell nothing.
 */
async function visibleKey(
  db: Queryable,
  deps: IdentityDeps,
  caller: Caller,
  id: string,
  access: Access,
  lock = false,
): Promise<ApiKeyRow> {
  const key = await findApiKeyById(db, id, lock);
  if (!key || key.revoked_at) throw errors.notFound('api_key');
  const owner = ownerOfKey(key);
  if (!subjectAllowed(deps.settings.settings.apiKeys, owner)) throw errors.notFound('api_key');
  if (!(await mayAccess(db, caller, owner, access))) throw errors.notFound('api_key');
  return key;
}

type Body = Record<string, unknown>;

function text(body: Body, name: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw errors.paramFormatInvalid(name, 'a string');
  return v;
}

function seconds(body: Body): number | undefined {
  const v = body.seconds_until_expiration;
  if (v === undefined || v === null || v === '') return undefined;
  // A form body carries it as text; clerk-js's JSON as a number.
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,12}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw errors.paramFormatInvalid('seconds_until_expiration', 'a whole number');
  return n;
}

/** What one call answers: a status and a body. */
interface Answer {
  status: number;
  body: unknown;
}

/**
 * An API-key route of the Frontend API: declared like the others (method, path without `/v1`, the session
 * token as its credential, the organisation permission an organisation's keys need), dispatched and
 * answered in Clerk's envelope by the plugin (fapi/plugin.ts), which sets `cache-control: no-store` on
 * every answer of these paths.
 */
export interface FapiApiKeyRoute extends RouteDeclaration {
  auth: 'session_token';
  answer: (req: FastifyRequest, deps: IdentityDeps, params: Record<string, string>) => Promise<Answer>;
}

/** The JSON body fields clerk-js sends: text, and a number of seconds (text in a form body). */
const text_ = z.string().nullish();

/** The API-key routes, matched on the path after the Frontend API prefix (fapi/plugin.ts). */
export const apiKeyRoutes: FapiApiKeyRoute[] = [
  {
    method: 'GET',
    path: '/api_keys',
    auth: 'session_token',
    permission: 'org:sys_api_keys:read',
    input: { query: z.looseObject({ subject: z.unknown(), limit: z.unknown() }) },
    async answer(req, deps) {
      const now = deps.clock();
      const caller = await callerOf(req, deps, now);
      const query = req.query as Record<string, unknown>;
      // clerk-js sends the active organisation's id, else the user's (an empty one means the user's).
      if (query.subject !== undefined && typeof query.subject !== 'string') {
        return { status: 200, body: { api_keys: [] } };
      }
      let owner: ApiKeyOwner;
      try {
        owner = ownerOfSubject((query.subject as string | undefined) || caller.userId);
      } catch {
        return { status: 200, body: { api_keys: [] } };
      }
      const settings = deps.settings.settings.apiKeys;
      if (!subjectAllowed(settings, owner) || !(await mayAccess(deps.db, caller, owner, 'read'))) {
        return { status: 200, body: { api_keys: [] } };
      }
      const keys = await listApiKeys(deps.db, owner);
      return { status: 200, body: { api_keys: keys.map((k) => apiKeyJSON(k, now)) } };
    },
  },
  {
    method: 'POST',
    path: '/api_keys',
    auth: 'session_token',
    permission: 'org:sys_api_keys:manage',
    input: {
      body: z.looseObject({
        type: text_,
        subject: text_,
        name: text_,
        description: text_,
        seconds_until_expiration: z.union([z.number(), z.string()]).nullish(),
      }),
    },
    async answer(req, deps) {
      const now = deps.clock();
      const body = bodyOf(req);
      const caller = await keyHolderOf(req, deps, now);
      const type = text(body, 'type');
      if (type !== undefined && type !== 'api_key') {
        throw errors.paramValueInvalid('type', 'type must be api_key.');
      }
      const owner = ownerOfSubject(text(body, 'subject') || caller.userId);
      if (!subjectAllowed(deps.settings.settings.apiKeys, owner)) throw apiKeyErrors.disabled();
      const input = {
        owner,
        name: text(body, 'name'),
        description: text(body, 'description'),
        secondsUntilExpiration: seconds(body),
        createdBy: caller.userId,
        expirations: 'choices' as const,
      };
      return deps.db.transaction(async (tx) => {
        if (!(await mayAccess(tx, caller, owner, 'manage'))) {
          throw owner.kind === 'organization' && (await membershipOf(tx, owner.id, caller.userId))
            ? errors.permissionDenied()
            : errors.notFound('subject');
        }
        const { row } = await createApiKey(tx, deps, input, now);
        return { status: 200, body: { response: apiKeyJSON(row, now), client: null } };
      });
    },
  },
  {
    method: 'GET',
    path: '/api_keys/:id/secret',
    auth: 'session_token',
    permission: 'org:sys_api_keys:read',
    input: {},
    async answer(req, deps, params) {
      const caller = await keyHolderOf(req, deps, deps.clock());
      const key = await visibleKey(deps.db, deps, caller, params.id!, 'read');
      return { status: 200, body: { secret: revealApiKeySecret(deps, key) } };
    },
  },
  {
    method: 'POST',
    path: '/api_keys/:id/revoke',
    auth: 'session_token',
    permission: 'org:sys_api_keys:manage',
    input: { body: z.looseObject({ revocation_reason: text_ }) },
    async answer(req, deps, params) {
      const now = deps.clock();
      const caller = await keyHolderOf(req, deps, now);
      const reason = text(bodyOf(req), 'revocation_reason');
      return deps.db.transaction(async (tx) => {
        const key = await visibleKey(tx, deps, caller, params.id!, 'read', true);
        if (!(await mayAccess(tx, caller, ownerOfKey(key), 'manage'))) throw errors.permissionDenied();
        const revoked = await revokeApiKey(tx, key, reason, now);
        return { status: 200, body: { response: apiKeyJSON(revoked, now), client: null } };
      });
    },
  },
];

/** The JSON body, or none when it is not an object (its fields are then absent). */
function bodyOf(req: FastifyRequest): Body {
  return (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Body;
}
