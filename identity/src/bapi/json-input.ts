import { z } from '@app/contract';

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

/**
 * The JSON types a body field can be, as zod checks them, with the words of the `param_format_invalid`
 * message a value of another type gets (what hosted Clerk's messages say, and what the suites expect).
 */
export const JSON_TYPES = {
  string: { schema: z.string(), expected: 'a string' },
  object: { schema: z.record(z.string(), z.unknown()), expected: 'a JSON object' },
  integer: { schema: z.number().refine(Number.isInteger), expected: 'a whole number' },
  // JSON.parse reads `1e400` as Infinity, which zod's number refuses; the routes check their ranges.
  number: { schema: z.union([z.number(), z.literal([Infinity, -Infinity])]), expected: 'a number' },
  strings: { schema: z.array(z.string()), expected: 'an array of strings' },
  boolean: { schema: z.boolean(), expected: 'true or false' },
} as const;
export type JsonType = keyof typeof JSON_TYPES;

/** The JSON type of each kind: what else is wrong for `id`, `email` or `role` is the domain's to say. */
const TYPE_OF_KIND: Record<BapiFieldKind, JsonType> = {
  string: 'string',
  id: 'string',
  email: 'string',
  role: 'string',
  object: 'object',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  strings: 'strings',
};

/** The metadata a declared field carries, for the reader (its type) and the fuzz suite (its kind). */
export interface JsonFieldMeta {
  bapiKind: BapiFieldKind;
  jsonType: JsonType;
}

/**
 * A route's JSON body (of each element, for a bulk route): each field its kind's zod type, `null` as
 * absent (@clerk/backend drops nothing in bodies). Unknown fields pass, as hosted Clerk ignores them.
 * The typed readers of request-input.ts check a field when the handler reads it, because the order in
 * which a request's defects are reported (and a 404 before a bad field) is part of what callers see.
 */
export function jsonInput(fields: Record<string, BapiFieldKind>): z.ZodObject {
  return z.looseObject(
    Object.fromEntries(
      Object.entries(fields).map(([name, kind]) => {
        const jsonType = TYPE_OF_KIND[kind];
        const meta: JsonFieldMeta = { bapiKind: kind, jsonType };
        return [name, JSON_TYPES[jsonType].schema.nullish().meta({ ...meta })];
      }),
    ),
  );
}

/** A query parameter as the query parser gives it: one string, or several when it is repeated. */
const queryValue = z.union([z.string(), z.array(z.string())]).optional();

/**
 * A route's query: its values are read (`pageOf`, `orderOf`, `queryFlag`…) where the handler needs them;
 * the kind says which values are wrong, for the fuzz suite.
 */
export function queryInput(fields: Record<string, BapiQueryKind>): z.ZodObject {
  return z.looseObject(
    Object.fromEntries(
      Object.entries(fields).map(([name, kind]) => [name, queryValue.meta({ bapiQueryKind: kind })]),
    ),
  );
}

/** The metadata of a declared body field, if `schema` declares `name`. */
export function jsonFieldMeta(schema: z.ZodObject | undefined, name: string): JsonFieldMeta | undefined {
  if (!schema || !Object.hasOwn(schema.shape, name)) return undefined;
  return (schema.shape[name] as z.ZodType).meta() as JsonFieldMeta | undefined;
}

/** The kinds a route's body declares, by field (for the fuzz and tenant suites). */
export function bodyKinds(schema: z.ZodObject | undefined): Record<string, BapiFieldKind> {
  const kinds: Record<string, BapiFieldKind> = {};
  for (const name of Object.keys(schema?.shape ?? {})) {
    const meta = jsonFieldMeta(schema, name);
    if (meta) kinds[name] = meta.bapiKind;
  }
  return kinds;
}

/** The kinds a route's query declares, by parameter (for the fuzz suite). */
export function queryKinds(schema: z.ZodObject | undefined): Record<string, BapiQueryKind> {
  const kinds: Record<string, BapiQueryKind> = {};
  for (const [name, field] of Object.entries(schema?.shape ?? {})) {
    const kind = (field as z.ZodType).meta()?.bapiQueryKind;
    if (typeof kind === 'string') kinds[name] = kind as BapiQueryKind;
  }
  return kinds;
}
