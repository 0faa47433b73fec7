import { HttpError, isApiErrorBody, type HttpClient } from '../../../lib/http/index.ts';

/** The console's API on the product server (server/src/console, docs/console.md). */
export const CONSOLE_API = '/console/api';

/** Query parameters, empty ones left out. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return `${CONSOLE_API}${path}${text ? `?${text}` : ''}`;
}

/**
 * Clerk's re-verification hint (`{ clerk_error: { type: 'forbidden', reason: 'reverification-error' } }`,
 * @clerk/shared's authorization-errors), which the console API answers for a destructive action when the
 * session has not proven its factors recently.
 */
function isReverificationHint(value: unknown): boolean {
  const error = (value as { clerk_error?: { type?: unknown; reason?: unknown } } | null)?.clerk_error;
  return error?.type === 'forbidden' && error.reason === 'reverification-error';
}

/** A read of the console API: the parsed answer, or HttpError with the server's code. */
export function consoleGet<T>(client: HttpClient, path: string, signal?: AbortSignal): Promise<T> {
  return client.json<T>(path, { cache: 'no-store', signal });
}

/**
 * A change through the console API. Its answer is returned as is when it is Clerk's re-verification
 * hint, for `useReverification` to recognise, open <UserVerification/> and send the call again; any
 * other refusal is HttpError.
 */
export async function consoleSend<T>(
  client: HttpClient,
  method: 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  let response: Response;
  try {
    response = await client.request(path, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    const error = new HttpError('Could not reach the product API.', null);
    error.cause = cause;
    throw error;
  }
  const answer: unknown = await response.json().catch(() => null);
  if (isReverificationHint(answer)) return answer as T;
  if (!response.ok) {
    const errors = isApiErrorBody(answer) ? answer.errors : [];
    throw new HttpError(
      errors[0]?.message ?? `The console API answered with HTTP ${response.status}.`,
      response.status,
      errors[0]?.code ?? null,
      errors,
    );
  }
  return answer as T;
}
