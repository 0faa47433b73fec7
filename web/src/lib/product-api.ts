import { HttpError } from './http/http-error.ts';
import type { HttpClient } from './http/client.ts';

/**
 * The product API's error; the request client's HttpError under its former name, kept so existing
 * callers (`new ProductApiError(message, status, code)`) and `instanceof` checks keep working.
 */
export { HttpError as ProductApiError };

export interface Me {
  userId: string;
  sessionId: string;
  /** The session's active organisation, from the verified token; null without one. */
  orgId: string | null;
  orgSlug: string | null;
  orgRole: string | null;
  orgPermissions: string[];
  user: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    primaryEmailAddress: string | null;
  };
  /** Who is impersonating the user (the token's `act` claim), or null. */
  actor: ImpersonationActor | null;
}

export interface ImpersonationActor {
  userId: string;
  name: string | null;
  email: string | null;
}

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

export async function fetchMe(client: HttpClient, options: ProductRequestOptions = {}): Promise<Me> {
  const body = await productApiGet(client, '/api/me', options);
  if (!isMe(body)) {
    throw new HttpError('The product API sent an unexpected answer for /api/me.', null);
  }
  return body;
}

function isMe(value: unknown): value is Me {
  if (typeof value !== 'object' || value === null) return false;
  const me = value as Partial<Record<keyof Me, unknown>>;
  return (
    typeof me.userId === 'string' &&
    typeof me.sessionId === 'string' &&
    typeof me.user === 'object' &&
    me.user !== null &&
    typeof (me.user as { id?: unknown }).id === 'string'
  );
}
