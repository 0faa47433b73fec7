import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { InvitationRow, MembershipRow } from './rows.ts';

/**
 * Webhooks' tables (migrations 023, 024; docs/webhooks.md): the changes triggers mark, the events, their
 * deliveries to endpoints and every attempt.
 */

export interface WebhookChange {
  seq: string;
  kind: string;
  object_id: string;
  old: Record<string, unknown> | null;
}

/**
 * Takes the changes this transaction marked, in the order they happened. Deleting them is what makes
 * each one an event exactly once.
 */
export async function takeWebhookChanges(db: Queryable): Promise<WebhookChange[]> {
  const rows = await db.query<WebhookChange>(
    'DELETE FROM webhook_changes WHERE txid = txid_current() RETURNING seq::text AS seq, kind, object_id, old',
  );
  return bySeq(rows);
}

/**
 * Takes changes other transactions committed without turning them into events (a statement outside any
 * transaction, a transaction without the event hook); rows another sweep holds are skipped.
 */
export async function takeLeftoverWebhookChanges(db: Queryable, limit: number): Promise<WebhookChange[]> {
  const rows = await db.query<WebhookChange>(
    `DELETE FROM webhook_changes WHERE seq IN (
       SELECT seq FROM webhook_changes WHERE txid <> txid_current()
         ORDER BY seq LIMIT ${Math.floor(limit)} FOR UPDATE SKIP LOCKED)
     RETURNING seq::text AS seq, kind, object_id, old`,
  );
  return bySeq(rows);
}

const bySeq = (rows: WebhookChange[]) => rows.sort((a, b) => Number(BigInt(a.seq) - BigInt(b.seq)));

export async function membershipById(db: Queryable, id: string): Promise<MembershipRow | null> {
  const [row] = await db.query<MembershipRow>('SELECT * FROM organization_memberships WHERE id = $1', [id]);
  return row ?? null;
}

export async function invitationById(db: Queryable, id: string): Promise<InvitationRow | null> {
  const [row] = await db.query<InvitationRow>(
    `SELECT id, organization_id, email_address, role, status, inviter_user_id, public_metadata,
       private_metadata, expires_at, created_at, updated_at FROM organization_invitations WHERE id = $1`,
    [id],
  );
  return row ?? null;
}

/** The address's row, if a user has it (for email.created's `email_address_id` and `user_id`). */
export async function emailAddressOwner(
  db: Queryable,
  address: string,
): Promise<{ id: string; user_id: string } | null> {
  const [row] = await db.query<{ id: string; user_id: string }>(
    'SELECT id, user_id FROM email_addresses WHERE lower(email_address) = lower($1)',
    [address],
  );
  return row ?? null;
}

export async function phoneNumberOwner(
  db: Queryable,
  phone: string,
): Promise<{ id: string; user_id: string } | null> {
  const [row] = await db.query<{ id: string; user_id: string }>(
    'SELECT id, user_id FROM phone_numbers WHERE phone_number = $1 ORDER BY verified_at NULLS LAST LIMIT 1',
    [phone],
  );
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// Events and fan-out

export interface WebhookEventRow {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

export async function insertWebhookEvent(
  db: Queryable,
  event: { id: string; type: string; payload: Record<string, unknown>; createdAt: Date },
): Promise<void> {
  await db.query(`INSERT INTO webhook_events (id, type, payload, created_at) VALUES ($1, $2, $3, $4)`, [
    event.id,
    event.type,
    JSON.stringify(event.payload),
    event.createdAt,
  ]);
}

/**
 * Claims up to `limit` events no worker has fanned out yet (rows another worker holds are skipped) and
 * marks them fanned out; the caller inserts their deliveries in the same transaction.
 */
export async function claimEventsToFanOut(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<{ id: string; type: string }[]> {
  return db.query<{ id: string; type: string }>(
    `UPDATE webhook_events SET fanned_out_at = $1
       WHERE id IN (SELECT id FROM webhook_events WHERE fanned_out_at IS NULL
                    ORDER BY created_at, id LIMIT ${Math.floor(limit)} FOR UPDATE SKIP LOCKED)
       RETURNING id, type`,
    [now],
  );
}

export async function insertDelivery(
  db: Queryable,
  eventId: string,
  endpointId: string,
  now: Date,
): Promise<string> {
  const id = newId('msg');
  await db.query(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'pending', $4, $4, $4)`,
    [id, eventId, endpointId, now],
  );
  return id;
}

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
  lock_token: string;
  payload: Record<string, unknown>;
  event_created_at: Date;
}

/**
 * Claims due deliveries for one attempt each: pending, due, and not held by a live lease (a worker that
 * died leaves a lease that runs out). The attempt is counted at the claim, so a crash mid-request still
 * moves the delivery along its schedule.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  lockToken: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  return db.query<ClaimedDelivery>(
    `WITH claimed AS (
       UPDATE webhook_deliveries SET locked_until = $2, lock_token = $3, attempts = attempts + 1, updated_at = $1
         WHERE id IN (SELECT id FROM webhook_deliveries
                      WHERE status = 'pending' AND next_attempt_at <= $1
                        AND (locked_until IS NULL OR locked_until <= $1)
                      ORDER BY next_attempt_at LIMIT ${Math.floor(limit)} FOR UPDATE SKIP LOCKED)
         RETURNING id, event_id, endpoint_id, attempts, lock_token)
     SELECT c.*, e.payload, e.created_at AS event_created_at
       FROM claimed c JOIN webhook_events e ON e.id = c.event_id`,
    [now, leaseUntil, lockToken],
  );
}

/**
 * Records an attempt and the delivery's next state, if the caller still holds the lease it claimed with
 * (a lease that ran out and was taken again belongs to the other worker now). Answers whether it did.
 */
export async function finishAttempt(
  db: Queryable,
  d: { id: string; lockToken: string; attempt: number },
  outcome: {
    startedAt: Date;
    statusCode: number | null;
    latencyMs: number;
    excerpt: string | null;
    error: string | null;
    next: { status: 'delivered' | 'failed' } | { status: 'pending'; at: Date };
    now: Date;
  },
): Promise<boolean> {
  // Logged first, and either way (even when the lease was lost): a reader that sees the delivery's new
  // state sees the attempt that led to it.
  await db.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, response_excerpt, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      d.id,
      d.attempt,
      outcome.startedAt,
      outcome.statusCode,
      outcome.latencyMs,
      outcome.excerpt,
      outcome.error,
    ],
  );
  const rows = await db.query(
    `UPDATE webhook_deliveries SET status = $3, next_attempt_at = coalesce($4, next_attempt_at),
         locked_until = NULL, lock_token = NULL, last_status_code = $5, last_error = $6, updated_at = $7
       WHERE id = $1 AND lock_token = $2 RETURNING id`,
    [
      d.id,
      d.lockToken,
      outcome.next.status,
      outcome.next.status === 'pending' ? outcome.next.at : null,
      outcome.statusCode,
      outcome.error,
      outcome.now,
    ],
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Reading and replaying (CLI, development outbox)

export interface DeliveryListRow {
  id: string;
  event_id: string;
  type: string;
  endpoint_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

export async function attemptsOf(db: Queryable, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (!deliveryIds.length) return [];
  return db.query<AttemptRow>(
    `SELECT delivery_id, attempt, started_at, status_code, latency_ms, response_excerpt, error
       FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, id`,
    [deliveryIds],
  );
}

export async function findWebhookEvent(db: Queryable, id: string): Promise<WebhookEventRow | null> {
  const [row] = await db.query<WebhookEventRow>(
    'SELECT id, type, payload, created_at FROM webhook_events WHERE id = $1',
    [id],
  );
  return row ?? null;
}

export async function eventsBetween(
  db: Queryable,
  since: Date,
  until: Date,
  limit: number,
): Promise<{ id: string; type: string }[]> {
  return db.query<{ id: string; type: string }>(
    `SELECT id, type FROM webhook_events WHERE created_at >= $1 AND created_at < $2
       ORDER BY created_at, id LIMIT ${Math.floor(limit)}`,
    [since, until],
  );
}

export async function recentEvents(db: Queryable, limit: number): Promise<WebhookEventRow[]> {
  return db.query<WebhookEventRow>(
    `SELECT id, type, payload, created_at FROM webhook_events ORDER BY created_at DESC, id DESC
       LIMIT ${Math.floor(limit)}`,
  );
}

/** Endpoints an event was ever given to (a replay's default targets, besides today's subscribers). */
export async function endpointsOfEvent(db: Queryable, eventId: string): Promise<string[]> {
  const rows = await db.query<{ endpoint_id: string }>(
    'SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id',
    [eventId],
  );
  return rows.map((r) => r.endpoint_id);
}

/**
 * The webhook work not done yet, for /metrics: events not fanned out to their endpoints, and deliveries
 * still pending (due now or waiting for a retry). Two index-backed counts, read at each scrape.
 */
export async function pendingWebhookWork(db: Queryable): Promise<{ events: number; deliveries: number }> {
  const [row] = await db.query<{ events: string; deliveries: string }>(
    `SELECT (SELECT count(*) FROM webhook_events WHERE fanned_out_at IS NULL) AS events,
            (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS deliveries`,
  );
  return { events: Number(row?.events ?? 0), deliveries: Number(row?.deliveries ?? 0) };
}

// ---------------------------------------------------------------------------------------------------------
// Deliveries filtered and paged (the Backend API's list, the CLI, the development outbox)

export interface DeliveryFilter {
  endpointId?: string;
  eventType?: string;
  eventId?: string;
  status?: string;
}

const FILTERED_DELIVERIES = `FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
   WHERE ($1::text IS NULL OR d.endpoint_id = $1) AND ($2::text IS NULL OR e.type = $2)
     AND ($3::text IS NULL OR d.event_id = $3) AND ($4::text IS NULL OR d.status = $4)`;

const filterParams = (f: DeliveryFilter) => [
  f.endpointId ?? null,
  f.eventType ?? null,
  f.eventId ?? null,
  f.status ?? null,
];

/** Deliveries matching `filter`, newest first, `limit` of them after `offset`. */
export async function recentDeliveries(
  db: Queryable,
  filter: DeliveryFilter & { limit: number; offset?: number },
): Promise<DeliveryListRow[]> {
  return db.query<DeliveryListRow>(
    `SELECT d.id, d.event_id, e.type, d.endpoint_id, d.status, d.attempts, d.last_status_code, d.last_error,
            d.next_attempt_at, d.created_at, d.updated_at
       ${FILTERED_DELIVERIES}
       ORDER BY d.created_at DESC, d.id DESC
       LIMIT ${Math.floor(filter.limit)} OFFSET ${Math.floor(filter.offset ?? 0)}`,
    filterParams(filter),
  );
}

/** How many deliveries match `filter` in all (a page's `total_count`). */
export async function countDeliveries(db: Queryable, filter: DeliveryFilter): Promise<number> {
  const [row] = await db.query<{ n: string }>(
    `SELECT count(*) AS n ${FILTERED_DELIVERIES}`,
    filterParams(filter),
  );
  return Number(row?.n ?? 0);
}

/** One delivery with its event's payload (the body every attempt sent). */
export async function findDelivery(
  db: Queryable,
  id: string,
): Promise<(DeliveryListRow & { payload: Record<string, unknown> }) | null> {
  const [row] = await db.query<DeliveryListRow & { payload: Record<string, unknown> }>(
    `SELECT d.id, d.event_id, e.type, d.endpoint_id, d.status, d.attempts, d.last_status_code, d.last_error,
            d.next_attempt_at, d.created_at, d.updated_at, e.payload
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = $1`,
    [id],
  );
  return row ?? null;
}
