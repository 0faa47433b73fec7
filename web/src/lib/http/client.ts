import { bearerInterceptor } from './bearer-interceptor.ts';
import { HttpError, isApiErrorBody } from './http-error.ts';
import { consoleLogger, localizationInterceptor } from './localization-interceptor.ts';
import {
  collectHeaders,
  type FetchLike,
  type GetLanguage,
  type GetToken,
  type HttpLogger,
  type OutgoingRequest,
  type RequestInterceptor,
} from './types.ts';

export interface HttpClientOptions {
  /** Path prefixes (such as `/api/`) whose requests carry the session token; see matchesProtectedUrl. */
  protectedUrls: readonly string[];
  /** Clerk's `useAuth().getToken`. */
  getToken: GetToken;
  /** The UI language for `x-localization`; FR when it gives nothing usable. */
  getLanguage: GetLanguage;
  /** Where interceptor failures are reported; console.error by default. */
  logger?: HttpLogger;
  /** The page origin protected paths resolve against; `window.location.origin` by default. */
  origin?: string;
  /** The fetch to send with; the global one by default (tests pass a fake). */
  fetch?: FetchLike;
}

export interface HttpClient {
  /** Sends the request through the interceptors and answers fetch's Response, whatever its status. */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Sends the request with `Accept: application/json` and answers the parsed body, typed as T without
   * checking (validate it at the call site). Throws HttpError with the server's `{ errors }` on a
   * refusal, and with status null when the server could not be reached or did not answer JSON.
   * An abort is rethrown as is.
   */
  json<T = unknown>(input: string | URL | Request, init?: RequestInit): Promise<T>;
}

const defaultOrigin = (): string => (typeof location === 'undefined' ? '' : location.origin);

function resolveUrl(input: string | URL | Request, origin: string): URL | null {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    return origin ? new URL(raw, origin) : new URL(raw);
  } catch {
    return null;
  }
}

/** Runs the interceptors one after the other, each on the previous one's result. */
export function composeInterceptors(interceptors: readonly RequestInterceptor[]): RequestInterceptor {
  return async (request) => {
    let current = request;
    for (const intercept of interceptors) current = await intercept(current);
    return current;
  };
}

/** The one client every product request goes through: bearer token, then `x-localization`. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const origin = options.origin ?? defaultOrigin();
  const logger = options.logger ?? consoleLogger;
  const send: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const intercept = composeInterceptors([
    bearerInterceptor({ protectedUrls: options.protectedUrls, getToken: options.getToken, origin }),
    localizationInterceptor({ getLanguage: options.getLanguage, logger }),
  ]);

  const request: HttpClient['request'] = async (input, init) => {
    const outgoing: OutgoingRequest = {
      input,
      url: resolveUrl(input, origin),
      init: { ...init, headers: collectHeaders(input, init) },
    };
    const final = await intercept(outgoing);
    return send(final.input, final.init);
  };

  const json: HttpClient['json'] = async <T>(input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    let response: Response;
    try {
      response = await request(input, { ...init, headers });
    } catch (cause) {
      if (init?.signal?.aborted) throw cause;
      const error = new HttpError('Could not reach the product API.', null);
      error.cause = cause;
      throw error;
    }

    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const errors = isApiErrorBody(body) ? body.errors : [];
      throw new HttpError(
        errors[0]?.message ?? `The product API answered with HTTP ${response.status}.`,
        response.status,
        errors[0]?.code ?? null,
        errors,
      );
    }
    if (body === null) {
      throw new HttpError('The product API sent a response that is not JSON.', null);
    }
    return body as T;
  };

  return { request, json };
}
