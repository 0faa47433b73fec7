import { environmentJSON } from '../../instance/environment.ts';
import type { IdentityConfig } from '../../config.ts';
import type { FapiRoute } from '../context.ts';

/** GET /environment (production keys) and PATCH /environment (development keys "touch"), both bare. */
export function environmentRoutes(config: IdentityConfig): FapiRoute[] {
  const body = environmentJSON(config);
  const handler = async () => ({ bare: body });
  return [
    { method: 'GET', path: '/environment', handler },
    { method: 'PATCH', path: '/environment', handler },
  ];
}
