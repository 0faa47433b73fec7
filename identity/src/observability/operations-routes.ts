import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { RouteDeclaration } from '../http/route-declaration.ts';
import type { Metrics } from './metrics.ts';

/** A dependency readiness checks: a name operators read (`identity_database`) and a cheap probe. */
export interface Dependency {
  name: string;
  check: () => Promise<unknown>;
}

/** What the operations routes read of the server they run in (the provider alone, or the product). */
export interface OperationsDeps {
  metrics: Metrics;
  /** Whether the request may read /metrics (metrics-access.ts). */
  metricsAllowed: (req: FastifyRequest) => boolean;
  dependencies: readonly Dependency[];
}

/** A route for the people and systems that run the server, at the root of the origin. */
export interface OperationsRoute extends RouteDeclaration {
  method: 'GET';
  handler: (deps: OperationsDeps) => RouteHandlerMethod;
}

/** How long a dependency may take to answer a readiness probe before it counts as down. */
const PROBE_TIMEOUT_MS = 2000;

async function probe(dep: Dependency): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    timer.unref?.();
  });
  try {
    return await Promise.race([dep.check().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz — 200 `{ "status": "ok" }` while the process answers (liveness): reads nothing, so a
 * database outage does not get the process restarted.
 */
export const healthzRoute: OperationsRoute = {
  method: 'GET',
  path: '/healthz',
  auth: 'none',
  permission: null,
  input: {},
  handler: () => async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  },
};

/**
 * GET /readyz — whether the server can serve (readiness): 200 when every dependency answers, 503 naming
 * those that do not. Names and states only, never an address or an error message.
 */
export const readyzRoute: OperationsRoute = {
  method: 'GET',
  path: '/readyz',
  auth: 'none',
  permission: null,
  input: {},
  handler: (deps) => async (_req, reply) => {
    const results = await Promise.all(deps.dependencies.map(async (d) => [d.name, await probe(d)] as const));
    const down = results.filter(([, up]) => !up).map(([name]) => name);
    reply.header('cache-control', 'no-store');
    return reply.code(down.length ? 503 : 200).send({
      status: down.length ? 'unavailable' : 'ready',
      dependencies: Object.fromEntries(results.map(([name, up]) => [name, up ? 'up' : 'down'])),
      down,
    });
  },
};

/**
 * GET /metrics — Prometheus's text format, to the addresses of METRICS_ALLOWED_FROM only; anyone else gets
 * the same 404 as a path that does not exist.
 */
export const metricsRoute: OperationsRoute = {
  method: 'GET',
  path: '/metrics',
  auth: 'allowed_network',
  permission: null,
  input: {},
  handler: (deps) => async (req: FastifyRequest, reply: FastifyReply) => {
    // Fastify's own 404, word for word: nothing tells this path from one that does not exist.
    if (!deps.metricsAllowed(req))
      return reply
        .code(404)
        .send({ message: `Route GET:${req.url} not found`, error: 'Not Found', statusCode: 404 });
    const { contentType, body } = await deps.metrics.exposition();
    reply.header('cache-control', 'no-store');
    return reply.type(contentType).send(body);
  },
};

/** The operations routes of the provider alone (identity/src/main.ts); the product server declares its own. */
export const operationsRoutes: readonly OperationsRoute[] = [healthzRoute, readyzRoute, metricsRoute];
