/**
 * The request as the interceptors see it: the URL resolved against the page origin (for matching) and
 * a private copy of the headers. Interceptors return a new OutgoingRequest and never mutate the one
 * they receive, so a failing interceptor can hand its input on unchanged.
 */
export interface OutgoingRequest {
  /** What the caller passed to `request`; sent to fetch as is, so relative paths stay relative. */
  readonly input: string | URL | Request;
  /** `input` resolved against the page origin; null when it cannot be parsed. */
  readonly url: URL | null;
  readonly init: Omit<RequestInit, 'headers'> & { headers: Headers };
}

/** One step of the chain; applied in order by createHttpClient. */
export type RequestInterceptor = (request: OutgoingRequest) => Promise<OutgoingRequest>;

/** Clerk's `useAuth().getToken`: the session token, or null when there is no session. */
export type GetToken = () => Promise<string | null | undefined>;

/** The UI language to announce; anything other than FR or EN (case-insensitive) falls back to FR. */
export type GetLanguage = () => string | null | undefined;

export type HttpLogger = (message: string, error: unknown) => void;

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Returns a copy of the request with a fresh Headers object the interceptor may change freely. */
export function withHeaders(request: OutgoingRequest, change: (headers: Headers) => void): OutgoingRequest {
  const headers = new Headers(request.init.headers);
  change(headers);
  return { ...request, init: { ...request.init, headers } };
}

/** Copies the caller's headers: a Request's own, then init's on top (fetch gives init's precedence). */
export function collectHeaders(input: string | URL | Request, init: RequestInit | undefined): Headers {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
  return headers;
}
