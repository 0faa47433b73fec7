import type { FastifyInstance } from 'fastify';
import { verifyWebhook } from '@clerk/backend/webhooks';
import { ApiError, registerApiErrorHandler } from '../api/errors.ts';
import { forgetOrganization } from '../organizations/hierarchy-store.ts';
import type { ProductHierarchy } from '../organizations/product-hierarchy.ts';

/** Where the identity provider (embedded, or hosted Clerk's dashboard) sends the product its events. */
export const CLERK_WEBHOOK_PATH = '/api/webhooks/clerk';

/** A webhook body is one event: Clerk's are a few kilobytes. */
const BODY_LIMIT = 256 * 1024;

/**
 * `POST /api/webhooks/clerk` (docs/webhooks.md): events verified with `@clerk/backend`'s `verifyWebhook`
 * against `secret()` (Svix headers, a signature over the exact body, a timestamp within 5 minutes); an
 * unverified request changes nothing and is answered 401. Handled: `organization.deleted`, which removes
 * the organisation's hierarchy links and queued projection. Every other verified event is acknowledged
 * (200) and ignored, as is a repeat: the handling is idempotent, so retries and replays are harmless.
 */
export async function registerClerkWebhooks(
  app: FastifyInstance,
  deps: { secret: () => string | null; hierarchy: ProductHierarchy },
) {
  await app.register(async (scope) => {
    registerApiErrorHandler(scope);
    // The signature covers the bytes sent: the body is kept as text, parsed only once verified.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(CLERK_WEBHOOK_PATH, async (req, reply) => {
      const secret = deps.secret();
      if (!secret) {
        throw new ApiError(
          'service_unavailable',
          'Webhooks are not configured here: set CLERK_WEBHOOK_SIGNING_SECRET (docs/webhooks.md).',
        );
      }
      const headers = new Headers();
      for (const name of ['svix-id', 'svix-timestamp', 'svix-signature', 'content-type']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      let event;
      try {
        event = await verifyWebhook(
          new Request(`http://localhost${CLERK_WEBHOOK_PATH}`, {
            method: 'POST',
            headers,
            body: typeof req.body === 'string' ? req.body : '',
          }),
          { signingSecret: secret },
        );
      } catch {
        throw new ApiError('unauthenticated', 'The webhook signature could not be verified.');
      }
      if (event.type === 'organization.deleted' && typeof event.data.id === 'string') {
        const affected = await forgetOrganization(deps.hierarchy.db, event.data.id);
        // Their metadata is rewritten by the outbox worker; no need to hold the provider's request.
        if (affected.length) deps.hierarchy.outbox.kick();
        req.log.info({ type: event.type, organization: event.data.id }, 'clerk webhook handled');
      }
      return reply.code(200).send({ received: true });
    });
  });
}
