import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { insertWebhookEvent } from '../store/webhooks.ts';

/** Clerk's event types for what this provider has (`@clerk/backend` 2.10.1's WebhookEventType). */
export type WebhookEventType =
  | 'user.created'
  | 'user.updated'
  | 'user.deleted'
  | 'session.created'
  | 'session.ended'
  | 'session.removed'
  | 'session.revoked'
  | 'email.created'
  | 'sms.created'
  | 'organization.created'
  | 'organization.updated'
  | 'organization.deleted'
  | 'organizationMembership.created'
  | 'organizationMembership.updated'
  | 'organizationMembership.deleted'
  | 'organizationInvitation.created'
  | 'organizationInvitation.accepted'
  | 'organizationInvitation.revoked'
  | 'waitlistEntry.created'
  | 'waitlistEntry.updated'
  // Billing (docs/billing.md): built in billing/billing-webhook-data.ts.
  | 'subscription.created'
  | 'subscription.updated'
  | 'subscription.active'
  | 'subscription.past_due'
  | 'subscriptionItem.created'
  | 'subscriptionItem.updated'
  | 'subscriptionItem.active'
  | 'subscriptionItem.canceled'
  | 'subscriptionItem.upcoming'
  | 'subscriptionItem.ended'
  | 'subscriptionItem.past_due'
  | 'paymentAttempt.created'
  | 'paymentAttempt.updated';

/** The request that caused an event, as Clerk reports it in `event_attributes.http_request`. */
export interface EventRequest {
  clientIp: string;
  userAgent: string;
}

export interface WebhookEvent {
  type: WebhookEventType;
  /** The object as the Backend API serialises it (a user, a session, an organisation…). */
  data: Record<string, unknown>;
  request?: EventRequest;
}

/**
 * Records an event in the caller's transaction (`db` must be the transaction that makes the change):
 * the event exists exactly when the change does. Delivery happens later, elsewhere (webhooks/delivery).
 */
export async function recordWebhookEvent(
  db: Queryable,
  event: WebhookEvent,
  now = new Date(),
): Promise<string> {
  const id = newId('evt');
  const payload = {
    data: event.data,
    object: 'event',
    type: event.type,
    timestamp: now.getTime(),
    instance_id: INSTANCE_ID,
    event_attributes: {
      http_request: event.request
        ? { client_ip: event.request.clientIp, user_agent: event.request.userAgent }
        : { client_ip: '', user_agent: '' },
    },
  };
  await insertWebhookEvent(db, { id, type: event.type, payload, createdAt: now });
  return id;
}

/** The embedded provider serves one instance per database; Clerk's payloads name it. */
const INSTANCE_ID = 'ins_embedded';
