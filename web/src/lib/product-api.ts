import { ME_PATH, meSchema, type Me, type Schema, type SchemaOutput } from '@app/contract';
import { HttpError } from './http/http-error.ts';
import type { HttpClient } from './http/client.ts';

/**
 * The product API's error; the request client's HttpError under its former name, kept so existing
 * callers (`new ProductApiError(message, status, code)`) and `instanceof` checks keep working.
 */
export { HttpError as ProductApiError };

/** GET /api/me's answer and who impersonates the user, as the contract declares them. */
export type { ImpersonationActor, Me } from '@app/contract';

/**
 * Options of the former hand-built-bearer calls, kept for callers not yet moved to the request client
 * (lib/http, useHttpClient), which adds the session token itself.
 */
export interface RequestOptions {
  /** Clerk session token; the server verifies it on every call. */
  token: string;
  signal?: AbortSignal;
}

export interface ProductRequestOptions {
  signal?: AbortSignal;
}

/**
 * GETs a product API path through the request client (which adds the bearer token and x-localization)
 * and answers the parsed JSON, or throws ProductApiError (HttpError).
 */
export function productApiGet(
  client: HttpClient,
  path: string,
  { signal }: ProductRequestOptions = {},
): Promise<unknown> {
  // Answers depend on who is asking, so a cached one could belong to another session.
  return client.json<unknown>(path, { cache: 'no-store', signal });
}

/**
 * The answer of `path` read with its contract schema (and reduced to what it names); anything else is
 * ProductApiError with no status: the server answered, but not what the product expects.
 */
export function parseAnswer<S extends Schema>(schema: S, body: unknown, path: string): SchemaOutput<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(`The product API sent an unexpected answer for ${path}.`, null);
  return parsed.data;
}

/**
 * Sends `input` as JSON to a product API path with `method` and answers the reply read with its contract
 * schema (parseAnswer); refusals are HttpErrors with the contract's code.
 */
export async function productApiSend<S extends Schema>(
  client: HttpClient,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  input: unknown,
  schema: S,
): Promise<SchemaOutput<S>> {
  const body = await client.json<unknown>(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
    cache: 'no-store',
  });
  return parseAnswer(schema, body, path);
}

export async function fetchMe(client: HttpClient, options: ProductRequestOptions = {}): Promise<Me> {
  return parseAnswer(meSchema, await productApiGet(client, ME_PATH, options), ME_PATH);
}
