import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError } from '../../db/database.ts';
import { errorBody, errors, type ClerkError } from '../../errors.ts';
import type { BesideFamily, BesideRoute } from '../../http/route-declaration.ts';
import { secretFromEnv } from '../../instance/settings/secret-reference.ts';
import { billingEnabled } from '../billing-settings.ts';
import { applyGatewayEvent } from '../gateway-events.ts';
import { readStripeWebhook, STRIPE_WEBHOOK_PATH } from './stripe-webhook.ts';

/** Stripe's events are a few KiB; room for the largest objects billing receives. */
const STRIPE_WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * POST <fapiPath>/v1/commerce/stripe/webhook — Stripe's deliveries (docs/billing.md § Stripe). A plain
 * route beside the Frontend API, not one of its routes: Stripe's servers send no browser client, cookie
 * or Origin, and the signature covers the exact bytes, which the Frontend API's strict form and JSON
 * readers would not keep. The signature is its only credential: checked (with the instance's webhook
 * secret, within 300 s) before anything is parsed or written; a failure is 400 and changes nothing.
 * Served only while billing is on with the Stripe gateway (404 otherwise). A verified event billing
 * does not follow is acknowledged and ignored; a repeat is harmless (applyGatewayEvent is idempotent).
 */
export const stripeWebhookRoute: BesideRoute = {
  method: 'POST',
  path: STRIPE_WEBHOOK_PATH,
  auth: 'webhook_signature',
  permission: null,
  // The body is the signed bytes, read by readStripeWebhook once the signature holds: nothing to declare
  // before that (an event is parsed only after it is verified).
  input: {},
  handler: (deps) => async (req: FastifyRequest, reply: FastifyReply) => {
    const billing = deps.settings.settings.billing;
    const gateway = billingEnabled(billing) ? billing.gateway : null;
    if (gateway?.kind !== 'stripe') return send(reply, errors.notFound('endpoint'));
    let secret: string;
    try {
      secret = secretFromEnv(gateway.webhookSecret);
    } catch (err) {
      // The variable's name, never a value: Stripe retries until the operator sets it.
      req.log.warn((err as Error).message);
      return send(reply, errors.unavailable());
    }
    const signature = req.headers['stripe-signature'];
    const outcome = readStripeWebhook(
      Buffer.isBuffer(req.body) ? req.body : undefined,
      typeof signature === 'string' ? signature : undefined,
      secret,
      deps.clock(),
    );
    if (!outcome.verified) {
      return send(reply, errors.bodyInvalid('The Stripe-Signature header does not sign this body.'));
    }
    if (outcome.event) {
      try {
        await applyGatewayEvent(deps.db, outcome.event, deps.clock());
      } catch (err) {
        // Answered 5xx, Stripe delivers the event again later.
        if (err instanceof DatabaseUnavailableError) return send(reply, errors.unavailable());
        throw err;
      }
    }
    return reply.code(200).header('cache-control', 'no-store').send({ received: true });
  },
};

/** Stripe's deliveries in a scope of their own: the exact bytes kept, refusals in Clerk's envelope. */
export const stripeWebhookRoutes: readonly BesideFamily[] = [
  {
    name: 'stripe webhook',
    scope: (scope) => {
      // The signature covers the bytes sent: the body is kept as they are, whatever its declared type.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT },
        (_req, body, done) => done(null, body),
      );
      scope.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
        if (err.statusCode === 413) return send(reply, errors.bodyTooLarge());
        if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
          return send(reply, errors.bodyInvalid('The request body could not be read.'));
        req.log.error({ err: { message: err.message } }, 'stripe webhook failed');
        return send(reply, errors.internal());
      });
    },
    routes: [stripeWebhookRoute],
  },
];

function send(reply: FastifyReply, err: ClerkError) {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.status).send(errorBody(err));
}
