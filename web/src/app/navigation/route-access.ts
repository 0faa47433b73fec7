import type { RouteAccess } from './navigation-rule.ts';

/** A route's `handle`: who the route is for (read by the navigation rule through `useMatches`). */
export interface RouteAccessHandle {
  access: RouteAccess;
}

export const SIGNED_IN_ROUTE: RouteAccessHandle = { access: 'signed-in' };
export const IDENTITY_ROUTE: RouteAccessHandle = { access: 'identity' };

const isAccessHandle = (handle: unknown): handle is RouteAccessHandle =>
  typeof handle === 'object' && handle !== null && 'access' in handle;

/** The innermost matched route that declares its access decides; a route that declares none is public. */
export function routeAccess(matches: readonly { handle: unknown }[]): RouteAccess {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]!.handle;
    if (isAccessHandle(handle)) return handle.access;
  }
  return 'public';
}
