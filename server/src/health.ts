import {
  healthzRoute,
  metricsRoute as identityMetricsRoute,
  readyzRoute,
  type OperationsDeps,
} from '@app/identity';
import type { ServerRoute } from './server-route.ts';

type OperationsOf = { operations: OperationsDeps };

/**
 * GET /healthz — the provider's liveness answer (`{ "status": "ok" }`, reading nothing), the same on the
 * product's origin. It is also what the HTTP stack alone costs per request, the baseline bench/api.ts sets
 * `GET /api/me` against.
 */
export const healthRoute: ServerRoute<OperationsOf> = {
  method: 'GET',
  path: healthzRoute.path,
  auth: 'none',
  permission: null,
  input: {},
  handler: (deps) => healthzRoute.handler(deps.operations),
};

/**
 * GET /readyz — 503 naming the dependency that does not answer (`identity_database` when the provider is
 * embedded, `product_database`), 200 when all do (docs/observability.md).
 */
export const readinessRoute: ServerRoute<OperationsOf> = {
  method: 'GET',
  path: readyzRoute.path,
  auth: 'none',
  permission: null,
  input: {},
  handler: (deps) => readyzRoute.handler(deps.operations),
};

/** GET /metrics — Prometheus's text format, to METRICS_ALLOWED_FROM only (404 otherwise). */
export const metricsRoute: ServerRoute<OperationsOf> = {
  method: 'GET',
  path: identityMetricsRoute.path,
  auth: 'allowed_network',
  permission: null,
  input: {},
  handler: (deps) => identityMetricsRoute.handler(deps.operations),
};
