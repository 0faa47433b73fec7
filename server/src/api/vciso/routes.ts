import type { ProductRoute } from '../route.ts';
import { attachChildRoute } from './attach-child.ts';
import { createChildRoute } from './create-child.ts';
import { detachChildRoute } from './detach-child.ts';
import { getParentRoute } from './get-parent.ts';
import { listChildrenRoute } from './list-children.ts';

/** The vCISO organisation hierarchy: the active organisation's client organisations and its parent. */
export const vcisoRoutes: readonly ProductRoute[] = [
  listChildrenRoute,
  createChildRoute,
  attachChildRoute,
  detachChildRoute,
  getParentRoute,
];
