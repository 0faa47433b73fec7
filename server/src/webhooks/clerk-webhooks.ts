import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerRoute, ServerRouteFamily } from '../server-route.ts';
import { verifyWebhook } from '@clerk/backend/webhooks';
import { ApiError, registerApiErrorHandler } from '../api/errors.ts';
import type { OrganizationSubscriptions } from '../billing/organization-subscriptions.ts';
import { forgetSubscription } from '../billing/subscription-store.ts';
import { forgetOrganization } from '../organizations/hierarchy-store.ts';
import type { ProductHierarchy } from '../organizations/product-hierarchy.ts';

/** Where the identity provider (embedded, or hosted Clerk's dashboard) sends the product its events. */
export const CLERK_WEBHOOK_PATH = '/api/webhooks/clerk';

/** A webhook body is one event: Clerk's are a few kilobytes. */
const BODY_LIMIT = 256 * 1024;

/** What the webhook's handler needs of the server. */
export interface ClerkWebhookDeps {
  secret: () => string | null;
  hierarchy: ProductHierarchy;
  subscriptions: OrganizationSubscriptions;
}

/**
 * `POST /api/webhooks/clerk` (docs/webhooks.md): events verified with `@clerk/backend`'s `verifyWebhook`
 * against `secret()` (Svix headers, a signature over the exact body, a timestamp within 5 minutes); an
 * unverified request changes nothing and is answered 401. Handled: `organization.deleted`, which removes
 * the organisation's hierarchy links, subscription flag and queued projection; and billing's
 * `subscription.*`, `subscriptionItem.*` and `paymentAttempt.*` for an organisation payer (docs/billing.md), which make the
 * product ask the Backend API for that organisation's subscription and derive its hasActiveSubscription —
 * the payload only says which organisation to ask about, so a late, repeated or replayed event changes
 * nothing the provider does not say now. When the Backend API cannot answer, 503: the provider retries.
 * Every other verified event is acknowledged (200) and ignored, as is a repeat: the handling is
 * idempotent, so retries and replays are harmless.
 */
export const clerkWebhookRoute: ServerRoute<{ webhooks: ClerkWebhookDeps }> = {
  method: 'POST',
  path: CLERK_WEBHOOK_PATH,
  auth: 'webhook_signature',
  permission: null,
  // The body is the signed bytes, parsed by verifyWebhook once the signature holds.
  input: {},
  handler:
    ({ webhooks: deps }) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
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
        await forgetSubscription(deps.hierarchy.db, event.data.id);
        // Their metadata is rewritten by the outbox worker; no need to hold the provider's request.
        if (affected.length) deps.hierarchy.outbox.kick();
        req.log.info({ type: event.type, organization: event.data.id }, 'clerk webhook handled');
      }
      const payerOrganization = billingEventOrganization(event.type, event.data);
      if (payerOrganization) {
        try {
          const result = await deps.subscriptions.refresh(payerOrganization);
          req.log.info(
            {
              type: event.type,
              organization: payerOrganization,
              status: result.status,
              changed: result.changed,
            },
            'clerk webhook handled',
          );
        } catch (error) {
          req.log.warn(
            {
              type: event.type,
              organization: payerOrganization,
              reason: (error as Error).message?.slice(0, 300),
            },
            'clerk webhook: the subscription could not be read; the provider will retry',
          );
          throw new ApiError('service_unavailable');
        }
      }
      return reply.code(200).send({ received: true });
    },
};

/** The webhook's scope: the body kept as text, refusals in the product API's envelope. */
export const clerkWebhookFamily: ServerRouteFamily<{ webhooks: ClerkWebhookDeps }> = {
  name: 'clerk webhooks',
  scope: (scope) => {
    registerApiErrorHandler(scope);
    // The signature covers the bytes sent: the body is kept as text, parsed only once verified.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
  },
  routes: [clerkWebhookRoute],
};

/**
 * The organisation a billing event is about: `subscription.*`, `subscriptionItem.*` and `paymentAttempt.*`
 * name their payer (`payer.organization_id`; hosted Clerk's item events carry it though @clerk/backend
 * 2.10.1's type leaves it out). A user payer's events are not the product's concern; events of another
 * kind, or without an organisation payer, answer null.
 */
export function billingEventOrganization(type: string, data: unknown): string | null {
  if (!BILLING_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix))) return null;
  const payer = (data as { payer?: { organization_id?: unknown } } | null)?.payer;
  const id = payer?.organization_id;
  return typeof id === 'string' && /^org_[A-Za-z0-9]{1,64}$/.test(id) ? id : null;
}
const BILLING_EVENT_PREFIXES = ['subscription.', 'subscriptionItem.', 'paymentAttempt.'];

/**
 * The billing events the embedded provider sends this process (hosted Clerk: subscribe the endpoint to the
 * same in its dashboard). `subscription.*` carry the payer; item events do on hosted Clerk.
 */
export const BILLING_WEBHOOK_EVENTS = [
  'subscription.created',
  'subscription.updated',
  'subscription.active',
  'subscription.past_due',
  'subscriptionItem.created',
  'subscriptionItem.updated',
  'subscriptionItem.active',
  'subscriptionItem.canceled',
  'subscriptionItem.upcoming',
  'subscriptionItem.ended',
  'subscriptionItem.past_due',
] as const;
