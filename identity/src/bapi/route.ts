import type { FastifyRequest } from 'fastify';
import type { IdentityDeps } from '../deps.ts';
import type { z } from '@app/contract';
import type { RouteDeclaration, RouteInput } from '../http/route-declaration.ts';
import type { MachineRow } from '../store/machines.ts';
import type { AuditedRowKind } from '../store/audited-rows.ts';
import { JsonBody } from './request-input.ts';

/** Everything a route reads of a request besides its path; it reads nothing else. */
export interface BapiInput extends RouteInput {
  /** The JSON body's fields (of each element when `array`), from `jsonInput` (json-input.ts). */
  body?: z.ZodObject;
  /** The query's parameters, from `queryInput`. */
  query?: z.ZodObject;
  /** The body is a JSON array of objects (bulk invitations); any other body is refused. */
  array?: boolean;
  /** Takes a multipart upload (`file`) instead of JSON. */
  upload?: boolean;
}

/**
 * Who may call a route. The secret key stands for the instance's operator: every Backend API route
 * needs it, and it reaches this instance's data only (another instance has its own key and database).
 * The machine-to-machine token routes also take a machine's secret key (`ak_…`), which acts for that
 * machine only (bapi/machines/m2m-token-routes.ts).
 */
export type BapiPermission = 'instance_secret_key' | 'machine_or_instance_secret_key';

export interface BapiRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** The parsed body, as the parsers let it through (an object, or an array where `input.array`). */
  body: unknown;
  /** Typed reads of the body's declared fields; reading an undeclared one is a programming error. */
  fields: JsonBody;
  /** The request itself, for a multipart upload. */
  raw: FastifyRequest;
  /** The machine whose secret key called (routes that take one), else null: the instance's key. */
  machine: MachineRow | null;
  /** The Accept-Language header, if any: the language billing's names are answered in (bapi/billing). */
  acceptLanguage: string | null;
}

/** One Backend API route: the whole of what the plugin, the fuzz suite and the tenant suite know of it. */
export interface BapiRoute extends RouteDeclaration {
  auth: 'secret_key';
  permission: BapiPermission;
  input: BapiInput;
  /**
   * What the audit log records of a successful call (docs/audit-log.md). Absent: a POST, PATCH, PUT or
   * DELETE records the action and object derived from its method and path (`auditOf`); a GET records
   * nothing. `false`: a call that changes nothing (a verification, a token minted) records nothing.
   */
  audit?: false | { action?: string; object?: string; before?: AuditedRowDeclaration };
  /** Answers 200 with what it returns (a ClerkError thrown is answered in Clerk's envelope). */
  handler: (req: BapiRequest, deps: IdentityDeps) => Promise<unknown>;
}

/**
 * The row a route changes, for its event's `summary.before`: the previous values of the fields its
 * `summary.after` keeps, read (and the row locked) in the transaction of the change (docs/audit-log.md).
 */
export interface AuditedRowDeclaration {
  /** Which row (store/audited-rows.ts). */
  row: AuditedRowKind;
  /** The path parameters that find it, in the order its lookup takes them. */
  params: readonly string[];
  /** The body's fields that are columns of the row, under the same name. */
  columns: readonly string[];
}

/** The typed reader of a request's body, limited to the fields the route declares. */
export function fieldsOf(route: BapiRoute, body: unknown): JsonBody {
  return new JsonBody(route.input.array ? undefined : body, route.input.body);
}
