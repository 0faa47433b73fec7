import type { Database, Queryable } from '../db/database.ts';
import { withBeforeCommit } from '../db/before-commit.ts';
import type { IdentityDeps } from '../deps.ts';
import type { Mailer } from '../mail/mailer.ts';
import { membershipJSONOf } from '../organizations/memberships.ts';
import { invitationJSON, organizationJSON } from '../serializers/organization.ts';
import { ms } from '../serializers/verification.ts';
import type { SmsSender } from '../sms/sms-sender.ts';
import { findOrganization } from '../store/organizations.ts';
import type { MembershipRow, SessionRow } from '../store/rows.ts';
import { findSessionById } from '../store/sessions.ts';
import {
  emailAddressOwner,
  invitationById,
  membershipById,
  phoneNumberOwner,
  takeLeftoverWebhookChanges,
  takeWebhookChanges,
  type WebhookChange,
} from '../store/webhooks.ts';
import { fullUserJSON, loadUsers } from '../users/load-users.ts';
import { newId } from '../ids.ts';
import { recordWebhookEvent, type WebhookEventType } from './record-event.ts';

/**
 * Turning what a transaction changed into Clerk's events, in that transaction (docs/webhooks.md).
 *
 * Triggers (migration 024) mark each change of a user, session, organisation, membership or invitation
 * in `webhook_changes` as it happens, whichever path made it. Right before the transaction commits, the
 * marks are taken and each becomes an event whose `data` is the object as the Backend API serialises it
 * at that moment. So an event exists exactly when its change does, and no route has to remember one.
 */

type Serialisers = Pick<IdentityDeps, 'avatarUrl' | 'fapiBase' | 'config' | 'settings' | 'clock'>;

/** Tables whose writes the triggers mark: a transaction writing none of them has nothing to turn. */
const WATCHED =
  /\b(users|email_addresses|phone_numbers|external_accounts|enterprise_accounts|web3_wallets|passkeys|totp_secrets|sessions|organizations|organization_memberships|organization_invitations|webhook_events)\b/i;

/**
 * `db` whose transactions turn their changes into events before committing. A transaction that wrote no
 * watched table (a token, a read) costs nothing more; one that did, one statement.
 */
export function emittingWebhookEvents(
  db: Database,
  deps: () => Serialisers,
  committed: () => void = () => {},
): Database {
  return withBeforeCommit(db, WATCHED, (tx) => emitMarkedChanges(tx, deps()), committed);
}

/**
 * Takes the marked changes and records their events: this transaction's, before each commit; or, for the
 * delivery worker, those committed without the hook (a statement outside any transaction).
 */
export async function emitMarkedChanges(
  tx: Queryable,
  deps: Serialisers,
  which: 'this transaction' | 'leftovers' = 'this transaction',
): Promise<number> {
  const changes =
    which === 'leftovers' ? await takeLeftoverWebhookChanges(tx, 500) : await takeWebhookChanges(tx);
  if (!changes.length) return 0;
  const now = deps.clock();
  const events = await eventsOf(tx, deps, changes, now);
  for (const event of events) await recordWebhookEvent(tx, event, now);
  return events.length;
}

async function eventsOf(
  tx: Queryable,
  deps: Serialisers,
  changes: WebhookChange[],
  now: Date,
): Promise<{ type: WebhookEventType; data: Record<string, unknown> }[]> {
  // One event per object and kind, in the order of the first change: ten columns written by one request
  // are one `user.updated`. A user created or deleted in the transaction has no update besides.
  const seen = new Set<string>();
  const unique = changes.filter((c) => {
    const key = `${c.kind}:${c.object_id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const createdOrDeleted = new Set(
    unique
      .filter((c) => /\.(created|deleted)$/.test(c.kind) && !c.kind.startsWith('session'))
      .map((c) => `${c.kind.split('.')[0]}:${c.object_id}`),
  );
  const deletedOrgs = new Set(
    unique.filter((c) => c.kind === 'organization.deleted').map((c) => c.object_id),
  );
  const userIds = unique.filter((c) => c.kind.startsWith('user.') && c.kind !== 'user.deleted');
  const owners = await loadUsers(
    tx,
    userIds.map((c) => c.object_id),
  );
  const out: { type: WebhookEventType; data: Record<string, unknown> }[] = [];
  for (const c of unique) {
    const [family] = c.kind.split('.') as [string];
    if (c.kind.endsWith('.updated') && createdOrDeleted.has(`${family}:${c.object_id}`)) continue;
    const type = c.kind as WebhookEventType;
    switch (family) {
      case 'user': {
        if (type === 'user.deleted') {
          out.push({ type, data: { id: c.object_id, object: 'user', deleted: true } });
          break;
        }
        const owner = owners.get(c.object_id);
        // Gone by the commit (created, then deleted): its deletion is the event that counts.
        if (owner)
          out.push({ type, data: fullUserJSON(deps as IdentityDeps, owner, now, { includePrivate: true }) });
        break;
      }
      case 'session': {
        const session = await findSessionById(tx, c.object_id);
        if (session) out.push({ type, data: sessionJSON(session) });
        break;
      }
      case 'organization': {
        if (type === 'organization.deleted') {
          out.push({
            type,
            data: { object: 'organization', id: c.object_id, slug: c.old?.slug ?? null, deleted: true },
          });
          break;
        }
        const org = await findOrganization(tx, c.object_id);
        if (org)
          out.push({ type, data: organizationJSON(org, { imageBase: deps.fapiBase, includePrivate: true }) });
        break;
      }
      case 'organizationMembership': {
        const row =
          type === 'organizationMembership.deleted'
            ? (membershipOfOld(c.old) ?? null)
            : await membershipById(tx, c.object_id);
        // An organisation's deletion takes its memberships with it: Clerk reports the organisation only.
        if (!row || deletedOrgs.has(row.organization_id)) break;
        const org = await findOrganization(tx, row.organization_id);
        if (!org) break;
        out.push({ type, data: await membershipJSONOf(tx, deps, row, org, { includePrivate: true }) });
        break;
      }
      case 'organizationInvitation': {
        const inv = await invitationById(tx, c.object_id);
        const org = inv ? await findOrganization(tx, inv.organization_id) : null;
        if (inv && org) {
          out.push({
            type,
            data: invitationJSON(inv, org, { imageBase: deps.fapiBase, includePrivate: true }),
          });
        }
        break;
      }
    }
  }
  return out;
}

function membershipOfOld(old: Record<string, unknown> | null): MembershipRow | null {
  if (!old) return null;
  const date = (v: unknown) => new Date(String(v));
  return {
    ...(old as unknown as MembershipRow),
    created_at: date(old.created_at),
    updated_at: date(old.updated_at),
  };
}

/** Clerk's SessionJSON as the Backend API answers it (`@clerk/backend`'s Session resource). */
export function sessionJSON(s: SessionRow) {
  return {
    object: 'session',
    id: s.id,
    client_id: s.client_id,
    user_id: s.user_id,
    status: s.status,
    last_active_organization_id: s.last_active_organization_id,
    actor: s.actor,
    last_active_at: ms(s.last_active_at),
    expire_at: ms(s.expire_at),
    abandon_at: ms(s.abandon_at),
    created_at: ms(s.created_at),
    updated_at: ms(s.updated_at),
  };
}

/**
 * Mail sent records `email.created` in the same transaction (Clerk's EmailJSON). The body goes in, as
 * Clerk's does: the event exists so that an application can send the message itself, which needs the
 * code or link it carries. The payload is therefore as secret as the message: it is never logged (the
 * CLI and the development pages show types and statuses, not bodies), and delivered events are purged
 * (webhooks/webhooks-capability.ts). Endpoints that do not subscribe to `email.created` never receive it.
 */
export function mailerEmittingEvents(mailer: Mailer, clock: () => Date, from: string): Mailer {
  return {
    kind: mailer.kind,
    async send(db, message) {
      await mailer.send(db, message);
      const owner = await emailAddressOwner(db, message.to);
      const now = clock();
      const [fromName = 'noreply'] = from.replace(/^.*</, '').split('@');
      await recordWebhookEvent(
        db,
        {
          type: 'email.created',
          data: {
            object: 'email',
            id: newId('msg'),
            slug: null,
            from_email_name: fromName,
            to_email_address: message.to,
            email_address_id: owner?.id ?? null,
            user_id: owner?.user_id ?? null,
            subject: message.subject,
            body: message.html,
            body_plain: message.text,
            status: mailer.kind === 'outbox' ? 'queued' : 'delivered',
            data: null,
            delivered_by_clerk: true,
          },
        },
        now,
      );
    },
  };
}

/** SMS sent records `sms.created` (Clerk's SMSMessageJSON), with the message as Clerk's has it. */
export function smsEmittingEvents(sms: SmsSender, clock: () => Date): SmsSender {
  return {
    kind: sms.kind,
    async send(db, message) {
      await sms.send(db, message);
      const owner = await phoneNumberOwner(db, message.to);
      const now = clock();
      await recordWebhookEvent(
        db,
        {
          type: 'sms.created',
          data: {
            object: 'sms_message',
            id: newId('msg'),
            from_phone_number: '',
            to_phone_number: message.to,
            phone_number_id: owner?.id ?? null,
            user_id: owner?.user_id ?? null,
            message: message.text,
            status: sms.kind === 'outbox' ? 'queued' : 'delivered',
            slug: null,
            data: null,
            delivered_by_clerk: true,
          },
        },
        now,
      );
    },
  };
}
