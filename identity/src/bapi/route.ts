import type { FastifyRequest } from 'fastify';
import type { IdentityDeps } from '../deps.ts';
import { JsonBody } from './request-input.ts';

export type BapiMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** What a JSON body field holds (as @clerk/backend sends it): its type, and what else makes it wrong. */
export type BapiFieldKind =
  /** Free text. */
  | 'string'
  /** The id of a user of this instance. */
  | 'id'
  | 'email'
  /** An organisation role key. */
  | 'role'
  /** A JSON object (metadata, an actor). */
  | 'object'
  | 'integer'
  | 'number'
  | 'boolean'
  /** A JSON array of strings (an API key's scopes). */
  | 'strings';

/** What a query parameter holds. */
export type BapiQueryKind =
  /** `limit` / `offset`. */
  | 'page'
  /** One of a fixed list (`order_by`, `status`). */
  | 'enum'
  /** `true`/`false`. */
  | 'flag'
  /** Free text, possibly repeated. */
  | 'text';

/** Everything a route reads of a request besides its path; it reads nothing else. */
export interface BapiInput {
  /** The JSON body's fields (of each element when `array`). */
  body?: Record<string, BapiFieldKind>;
  /** The body is a JSON array of objects (bulk invitations); any other body is refused. */
  array?: boolean;
  query?: Record<string, BapiQueryKind>;
  /** Takes a multipart upload (`file`) instead of JSON. */
  upload?: boolean;
}

/**
 * Who may call a route. The secret key stands for the instance's operator: every Backend API route
 * needs it, and it reaches this instance's data only (another instance has its own key and database).
 */
export type BapiPermission = 'instance_secret_key';

export interface BapiRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** The parsed body, as the parsers let it through (an object, or an array where `input.array`). */
  body: unknown;
  /** Typed reads of the body's declared fields; reading an undeclared one is a programming error. */
  fields: JsonBody;
  /** The request itself, for a multipart upload. */
  raw: FastifyRequest;
}

/** One Backend API route: the whole of what the plugin, the fuzz suite and the tenant suite know of it. */
export interface BapiRoute {
  method: BapiMethod;
  /** Path under the Backend API prefix, with `:name` segments. */
  path: string;
  permission: BapiPermission;
  input: BapiInput;
  /** Answers 200 with what it returns (a ClerkError thrown is answered in Clerk's envelope). */
  handler: (req: BapiRequest, deps: IdentityDeps) => Promise<unknown>;
}

/** The typed reader of a request's body, limited to the fields the route declares. */
export function fieldsOf(route: BapiRoute, body: unknown): JsonBody {
  return new JsonBody(route.input.array ? undefined : body, route.input.body ?? {});
}
