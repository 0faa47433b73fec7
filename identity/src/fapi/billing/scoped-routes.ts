import type { FapiContext, FapiMethod, FapiResult, FapiRoute } from '../context.ts';

/**
 * A billing route for both payers, as clerk-js calls it: `/me{path}` (the session's user pays) and
 * `/organizations/:organizationId{path}` (the organisation pays; `billingCaller` checks the membership
 * and permission).
 */
export function scopedRoutes(
  method: FapiMethod,
  path: string,
  handler: (ctx: FapiContext) => Promise<FapiResult>,
): FapiRoute[] {
  return [
    { method, path: `/me${path}`, handler },
    { method, path: `/organizations/:organizationId${path}`, handler },
  ];
}
