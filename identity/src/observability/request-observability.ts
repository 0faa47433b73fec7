import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Metrics } from './metrics.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming `X-Request-Id` kept as it is: what proxies and tracing systems make (UUIDs, hex, base64url,
 * `Root=1-…` traces), bounded, nothing that could break a log line or a JSON string.
 */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:=+/-]{7,127}$/;

/**
 * Fastify's `genReqId`: the caller's `X-Request-Id` when well formed (a proxy's id then follows the
 * request into our logs), a fresh UUID otherwise. It is on every log line of the request (`reqId`), in the
 * `X-Request-Id` response header and in the `clerk_trace_id` of every error answer.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * What Fastify logs of a request and never more: the method and the path without its query (query strings
 * carry dev-browser ids, email-link tokens, tickets). Headers are not serialized; should a log line carry
 * them anyway, credentials are censored.
 */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.query',
        'headers.authorization',
        'headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
}

/** The Fastify options of request ids (pass them to `Fastify()`). */
export const requestIdOptions = {
  genReqId: requestIdOf,
  // Fastify's log label stays its default, `reqId`.
  requestIdHeader: false,
} as const;

const ROUTE_LABEL = Symbol('metrics route label');

/**
 * Names the route of a request that a catch-all dispatches (the Frontend API's `/__clerk/*`): its declared
 * pattern, with `:name` segments, never the path with its ids.
 */
export function labelRoute(req: FastifyRequest, pattern: string): void {
  (req as unknown as Record<symbol, string>)[ROUTE_LABEL] = pattern;
}

function routeOf(req: FastifyRequest): string {
  return (
    (req as unknown as Record<symbol, string | undefined>)[ROUTE_LABEL] ?? req.routeOptions.url ?? 'unmatched'
  );
}

const ERROR_ENVELOPE_START = '{"errors":[';
/** Error envelopes are small; a larger body is not one and is left as it is. */
const ENVELOPE_MAX_BYTES = 64 * 1024;

/**
 * On the whole server (call before any route is registered): the `X-Request-Id` header on every answer,
 * the request id as `clerk_trace_id` in Clerk's error envelope (where hosted Clerk puts its trace id;
 * @clerk/backend reads it as `clerkTraceId`), and each answer counted by route pattern and status.
 */
export function registerRequestObservability(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    // Set here too: some answers (Fastify's refusals of a path it cannot decode) skip onRequest.
    reply.header(REQUEST_ID_HEADER, req.id);
    if (reply.statusCode < 400) return payload;
    // Bodies serialized by Fastify are strings; the Backend API sends its JSON as bytes (bapi/send-json.ts).
    const text =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload) && payload.length < ENVELOPE_MAX_BYTES
          ? payload.toString('utf8')
          : null;
    if (
      text === null ||
      !text.startsWith(ERROR_ENVELOPE_START) ||
      !text.endsWith('}') ||
      text.includes('"clerk_trace_id"')
    )
      return payload;
    return `${text.slice(0, -1)},"clerk_trace_id":${JSON.stringify(req.id)}}`;
  });
  app.addHook('onResponse', async (req, reply) => {
    const labels = { method: req.method, route: routeOf(req), status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
