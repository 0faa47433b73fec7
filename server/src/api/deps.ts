import type { RequestAuthenticator } from '../auth/authenticate.ts';
import type { ProductHierarchy } from '../organizations/product-hierarchy.ts';
import type { BackendApi } from './backend-api.ts';

/** Re-exported for the routes, which take their dependencies from here. */
export type { BackendApi, BackendMembership, BackendOrganization } from './backend-api.ts';

export interface ApiDeps extends RequestAuthenticator {
  readonly clerk: BackendApi;
  /** The vCISO hierarchy in the product database. */
  readonly hierarchy: ProductHierarchy;
}
