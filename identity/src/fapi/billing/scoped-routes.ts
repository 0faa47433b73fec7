import type { RouteInput } from '../../http/route-declaration.ts';
import type { FapiContext, FapiMethod, FapiResult, FapiRoute } from '../context.ts';

/**
 * A billing route for both payers, as clerk-js calls it: `/me{path}` (the session's user pays) and
 * `/organizations/:organizationId{path}` (the organisation pays; `billingCaller` checks the membership
 * and permission). Both need a signed-in session; the organisation's needs `org:sys_billing:manage`
 * (or `:read` to look), checked against the organisation of the path by `billingCaller`.
 */
export function scopedRoutes(
  method: FapiMethod,
  path: string,
  input: RouteInput,
  handler: (ctx: FapiContext) => Promise<FapiResult>,
): FapiRoute[] {
  return [
    { method, path: `/me${path}`, auth: 'session', permission: null, input, handler },
    {
      method,
      path: `/organizations/:organizationId${path}`,
      auth: 'session',
      permission: method === 'GET' ? 'org:sys_billing:read' : 'org:sys_billing:manage',
      input,
      handler,
    },
  ];
}
