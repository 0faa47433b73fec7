import { bapiRoutes } from './bapi/route-table.ts';
import type { IdentityConfig } from './config.ts';
import { devOutboxRoutes } from './dev/outbox-plugin.ts';
import { besideRoutes } from './fapi/beside-routes.ts';
import { directRoutes } from './fapi/direct-routes.ts';
import { operationsRoutes } from './observability/operations-routes.ts';

/** Where the development outbox's pages are (dev/outbox-plugin.ts). */
export const DEV_OUTBOX_PREFIX = '/__dev';

/** One route the provider may register on Fastify, and the table that declares it. */
export interface DeclaredRoute {
  /** An HTTP method, or `*` for the Frontend API's dispatch (every method). */
  method: string;
  /** The full path Fastify is given, with `:name` segments. */
  url: string;
  table: string;
}

/**
 * Every route `Identity.register` may put on Fastify, read from the tables that declare them: what a test
 * compares Fastify's own list against, so a route registered beside the tables fails it. The Frontend API
 * router's routes (fapi/route-table.ts, fapi/api-keys/api-key-routes.ts) reach Fastify as one dispatch,
 * `<fapiPath>/*`, every method.
 */
export function declaredRoutes(config: Pick<IdentityConfig, 'fapiPath'>, bapiPath: string): DeclaredRoute[] {
  const { fapiPath } = config;
  return [
    { method: '*', url: `${fapiPath}/*`, table: 'fapi/route-table.ts, fapi/api-keys/api-key-routes.ts' },
    ...directRoutes.map((r) => ({
      method: r.method,
      url: `${fapiPath}/v1${r.path}`,
      table: 'fapi/direct-routes.ts',
    })),
    ...besideRoutes.map((r) => ({
      method: r.method,
      url: `${fapiPath}${r.path}`,
      table: 'fapi/beside-routes.ts',
    })),
    ...bapiRoutes.map((r) => ({
      method: r.method,
      url: `${bapiPath}${r.path}`,
      table: 'bapi/route-table.ts',
    })),
    ...devOutboxRoutes.map((r) => ({
      method: r.method,
      url: `${DEV_OUTBOX_PREFIX}${r.path}`,
      table: 'dev/outbox-plugin.ts',
    })),
    ...operationsRoutes.map((r) => ({
      method: r.method,
      url: r.path,
      table: 'observability/operations-routes.ts',
    })),
  ];
}
