import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  changeSummary,
  secretKeyFingerprint,
  withAuditContext,
  type AuditContext,
} from '../audit/audit-context.ts';
import { auditOf } from './route-audit.ts';
import { consoleOperatorOf } from './console/console-operator-header.ts';
import { DatabaseUnavailableError } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { ClerkError, errorBody, errors } from '../errors.ts';
import { BAPI_BODY_LIMIT, bodyRefusal, UPLOAD_BODY_LIMIT } from '../http/body-limits.ts';
import { MAX_IMAGE_BYTES } from '../images/image-file.ts';
import { registerJsonParser } from './body-parsers.ts';
import { machineOfSecret } from '../machines/machines.ts';
import type { MachineRow } from '../store/machines.ts';
import { fieldsOf, type BapiPermission, type BapiRoute } from './route.ts';
import { bapiRoutes } from './route-table.ts';
import { sendJson } from './send-json.ts';

/** The machine whose secret key authenticated a request (machine-to-machine token routes only). */
const callingMachines = new WeakMap<FastifyRequest, MachineRow>();

/** The Backend API subset @clerk/backend 2.10.1 calls, behind secret-key Bearer auth. Register under a prefix. */
export async function bapiPlugin(app: FastifyInstance, opts: { deps: IdentityDeps }) {
  const { deps } = opts;

  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const key = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (key && deps.keys.verifySecretKey(key)) return;
    const config = req.routeOptions.config as { bapiPermission?: BapiPermission };
    if (key && config.bapiPermission === 'machine_or_instance_secret_key') {
      const machine = await machineOfSecret(deps.db, deps, key, deps.clock());
      if (machine) {
        callingMachines.set(req, machine);
        return;
      }
    }
    return sendJson(reply, 401, errorBody(errors.clerkKeyInvalid()));
  });
  // After the key check: a caller without the key learns nothing about its input.
  registerJsonParser(app);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ClerkError) {
      // A 429's Retry-After (the failed-token limit of access_tokens/verify).
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      return sendJson(reply, err.status, errorBody(err));
    }
    if (err instanceof DatabaseUnavailableError) return sendJson(reply, 503, errorBody(errors.unavailable()));
    // Fastify's own refusals of a body (an unsupported type, one too large) before a handler runs.
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const refusal = bodyRefusal(status);
      return sendJson(reply, refusal.status, errorBody(refusal));
    }
    req.log.error({ err: { message: (err as Error).message } }, 'bapi handler failed');
    return sendJson(reply, 500, errorBody(errors.internal()));
  });
  app.setNotFoundHandler((_req, reply) => sendJson(reply, 404, errorBody(errors.notFound('endpoint'))));

  // Uploads in a scope of their own, so the multipart parser applies to those routes only.
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10, parts: 11 },
    });
    for (const route of bapiRoutes.filter((r) => r.input.upload)) register(uploads, deps, route);
  });
  for (const route of bapiRoutes.filter((r) => !r.input.upload)) register(app, deps, route);
}

/** One declared route on Fastify; its input declaration also sets how its body is read (see body-parsers.ts). */
function register(app: FastifyInstance, deps: IdentityDeps, route: BapiRoute): void {
  app.route({
    method: route.method,
    url: route.path,
    bodyLimit: route.input.upload ? UPLOAD_BODY_LIMIT : BAPI_BODY_LIMIT,
    config: { bapiInput: route.input, bapiPermission: route.permission },
    handler: async (req, reply) => {
      const params = req.params as Record<string, string>;
      const context = auditContextOf(req, route, params, deps);
      const body = await withAuditContext(context, () =>
        route.handler(
          {
            params,
            query: req.query as Record<string, string | string[] | undefined>,
            body: req.body,
            fields: fieldsOf(route, req.body),
            raw: req,
            machine: callingMachines.get(req) ?? null,
            acceptLanguage:
              typeof req.headers['accept-language'] === 'string' ? req.headers['accept-language'] : null,
          },
          deps,
        ),
      );
      return sendJson(reply, 200, body);
    },
  });
}

/**
 * Who calls (the secret key, by its fingerprint), from where, and what the call records if it succeeds
 * (docs/audit-log.md). The pending event is written by the first transaction of the call that changes a
 * row, as its last statement: a call that changed nothing, or whose change rolled back, records nothing.
 */
function auditContextOf(
  req: FastifyRequest,
  route: BapiRoute,
  params: Record<string, string>,
  deps: IdentityDeps,
): AuditContext {
  const header = req.headers.authorization ?? '';
  const audit = auditOf(route, params);
  const keyFingerprint = secretKeyFingerprint(header.slice(7).trim());
  const operator = consoleOperatorOf(req);
  const summary = audit && !route.input.array ? changeSummary(req.body) : {};
  const after = (summary.after ?? {}) as Record<string, unknown>;
  const before = audit?.before && {
    row: audit.before.row,
    fields: audit.before.columns.filter((column) => Object.hasOwn(after, column)),
  };
  return {
    // The console's calls name the operator who acts; the secret key they came with stays in the summary.
    actor: operator ? { kind: 'operator', id: operator.userId } : { kind: 'secret_key', id: keyFingerprint },
    ip: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : null,
    requestId: req.id,
    clock: deps.clock,
    pending: audit
      ? {
          action: audit.action,
          objectType: audit.objectType,
          objectId: audit.objectId,
          summary: operator
            ? {
                ...summary,
                secret_key_fingerprint: keyFingerprint,
                ...(operator.reason ? { reason: operator.reason } : {}),
              }
            : summary,
          ...(before?.fields.length ? { before } : {}),
        }
      : undefined,
    recorded: false,
  };
}
