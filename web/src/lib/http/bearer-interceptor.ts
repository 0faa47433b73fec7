import { matchesProtectedUrl } from './protected-urls.ts';
import { withHeaders, type GetToken, type RequestInterceptor } from './types.ts';

/**
 * Adds `Authorization: Bearer <session token>` to requests on the protected list (spec §7). Skipped for
 * an unlisted or other-origin URL, with no session (no token), and when the caller set Authorization.
 */
export function bearerInterceptor(options: {
  protectedUrls: readonly string[];
  getToken: GetToken;
  origin: string;
}): RequestInterceptor {
  return async (request) => {
    if (request.init.headers.has('Authorization')) return request;
    if (!matchesProtectedUrl(request.url, options.protectedUrls, options.origin)) return request;
    // Clerk answers the cached token while it is valid and mints a fresh one once it has expired.
    const token = await options.getToken();
    if (!token) return request;
    return withHeaders(request, (headers) => headers.set('Authorization', `Bearer ${token}`));
  };
}
