/**
 * The console's client of the Backend API: the same paths and bodies as @clerk/backend 2.10.1's methods
 * (`users.getUserList({ query })` is `GET /v1/users?query=…`, `users.disableUserMFA` is
 * `DELETE /v1/users/:id/mfa`, `actorTokens.create` is `POST /v1/actor_tokens`…), with the secret key, and
 * one header more on every call: the operator it is made for (`X-Console-Operator`), which the embedded
 * provider records as the audit log's actor (docs/console.md). @clerk/backend has no per-call header, hence
 * this small client; a script with the secret key makes the very same calls.
 */

export interface BackendTarget {
  /** The Backend API's base, without `/v1` (`http://127.0.0.1:3000/__clerk_backend`, `https://api.clerk.com`). */
  apiUrl: string;
  secretKey: string;
}

/** One error of Clerk's envelope. */
export interface BackendErrorItem {
  code: string;
  message: string;
  long_message?: string;
}

/** A refusal of the Backend API (any status but 2xx), with Clerk's errors. */
export class BackendCallError extends Error {
  override name = 'BackendCallError';
  constructor(
    readonly status: number,
    readonly errors: readonly BackendErrorItem[],
    readonly retryAfter: number | null,
  ) {
    super(`Backend API answered ${status}: ${errors[0]?.code ?? 'no error code'}`);
  }
}

export interface BackendCall {
  /** The operator the call is made for: a user id, checked by the console before any call. */
  operatorId: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  body?: unknown;
  /** The operator's reason (impersonation), recorded in the audit event's summary. */
  reason?: string;
  /** A path without `/v1`, as @clerk/backend's `skipApiVersionInUrl` clients call it (`apiKeys`). */
  unversioned?: boolean;
  /** The operator's language, sent as Accept-Language: billing's names come in it (operator-language.ts). */
  acceptLanguage?: string;
}

export type BackendMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What the console's routes call; tests may wrap it. */
export interface ConsoleBackend {
  call<T = unknown>(method: BackendMethod, path: string, call: BackendCall): Promise<T>;
}

/** Past this, a Backend API call is given up (503): the console is not left waiting on a stuck call. */
const CALL_TIMEOUT_MS = 15_000;

export function consoleBackend(target: () => BackendTarget): ConsoleBackend {
  return {
    async call<T>(method: BackendMethod, path: string, call: BackendCall): Promise<T> {
      const { apiUrl, secretKey } = target();
      const url = new URL(`${apiUrl.replace(/\/$/, '')}${call.unversioned ? '' : '/v1'}${path}`);
      for (const [name, value] of Object.entries(call.query ?? {})) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const v of value) url.searchParams.append(name, String(v));
        else url.searchParams.set(name, String(value));
      }
      const headers: Record<string, string> = {
        authorization: `Bearer ${secretKey}`,
        'x-console-operator': call.operatorId,
      };
      if (call.reason) headers['x-console-reason'] = encodeURIComponent(call.reason);
      if (call.acceptLanguage) headers['accept-language'] = call.acceptLanguage;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
      } catch {
        throw new BackendCallError(503, [], null);
      }
      const text = await response.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      if (!response.ok) {
        const errors = (body as { errors?: BackendErrorItem[] } | null)?.errors;
        const retryAfter = Number(response.headers.get('retry-after'));
        throw new BackendCallError(
          response.status,
          Array.isArray(errors) ? errors : [],
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
        );
      }
      return body as T;
    },
  };
}
