import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../deps.ts';
import { registerAttachChildRoute } from './attach-child.ts';
import { registerCreateChildRoute } from './create-child.ts';
import { registerDetachChildRoute } from './detach-child.ts';
import { registerGetParentRoute } from './get-parent.ts';
import { registerListChildrenRoute } from './list-children.ts';

/** The vCISO organisation hierarchy: the active organisation's client organisations and its parent. */
export function registerVcisoRoutes(api: FastifyInstance, deps: ApiDeps) {
  registerListChildrenRoute(api, deps);
  registerCreateChildRoute(api, deps);
  registerAttachChildRoute(api, deps);
  registerDetachChildRoute(api, deps);
  registerGetParentRoute(api, deps);
}
