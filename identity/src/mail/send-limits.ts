import { positiveInteger } from '../abuse/abuse-settings.ts';
import type { Queryable } from '../db/database.ts';
import { errors } from '../errors.ts';
import { hit, type RateLimitRule } from '../store/rate-limits.ts';

/**
 * How much mail (and SMS) the instance sends on other people's behalf: per recipient, so nobody can
 * flood one address with codes, links or invitations from many IPs, and for invitations per
 * organisation and per inviter, so an organisation cannot serve as a spam relay.
 */
export interface SendLimitSettings {
  /** Messages (codes, links, invitations) to one email address or phone number in 10 minutes. */
  perRecipientPer10Minutes: number;
  /** The same, in 24 hours. */
  perRecipientPerDay: number;
  /** Invitations an organisation sends from the Frontend API in an hour. */
  invitationsPerOrganizationPerHour: number;
  /** Invitations one member sends from the Frontend API in an hour. */
  invitationsPerInviterPerHour: number;
  /** Addresses in one bulk invitation request (Frontend API and Backend API). */
  invitationsPerBulkRequest: number;
}

/** Far above what a person asks for (a code, a resend, a second try) or an admin inviting a team. */
export const DEFAULT_SEND_LIMITS: SendLimitSettings = {
  perRecipientPer10Minutes: 5,
  perRecipientPerDay: 20,
  invitationsPerOrganizationPerHour: 50,
  invitationsPerInviterPerHour: 20,
  invitationsPerBulkRequest: 10,
};

/**
 * `IDENTITY_SEND_LIMIT_PER_RECIPIENT` (per 10 minutes, default 5), `IDENTITY_SEND_LIMIT_PER_RECIPIENT_PER_DAY`
 * (20), `IDENTITY_INVITATIONS_PER_ORGANIZATION_PER_HOUR` (50), `IDENTITY_INVITATIONS_PER_INVITER_PER_HOUR`
 * (20), `IDENTITY_INVITATIONS_PER_BULK_REQUEST` (10).
 */
export function sendLimitsFromEnv(env: NodeJS.ProcessEnv): SendLimitSettings {
  const max = 100_000;
  const d = DEFAULT_SEND_LIMITS;
  return {
    perRecipientPer10Minutes: positiveInteger(
      env,
      'IDENTITY_SEND_LIMIT_PER_RECIPIENT',
      d.perRecipientPer10Minutes,
      max,
    ),
    perRecipientPerDay: positiveInteger(
      env,
      'IDENTITY_SEND_LIMIT_PER_RECIPIENT_PER_DAY',
      d.perRecipientPerDay,
      max,
    ),
    invitationsPerOrganizationPerHour: positiveInteger(
      env,
      'IDENTITY_INVITATIONS_PER_ORGANIZATION_PER_HOUR',
      d.invitationsPerOrganizationPerHour,
      max,
    ),
    invitationsPerInviterPerHour: positiveInteger(
      env,
      'IDENTITY_INVITATIONS_PER_INVITER_PER_HOUR',
      d.invitationsPerInviterPerHour,
      max,
    ),
    invitationsPerBulkRequest: positiveInteger(
      env,
      'IDENTITY_INVITATIONS_PER_BULK_REQUEST',
      d.invitationsPerBulkRequest,
      1000,
    ),
  };
}

/**
 * Counts each rule once and refuses with `429 too_many_requests` (Retry-After: the longest wait) if any is
 * exceeded. Counted in the caller's transaction, before anything is sent: a refused request rolls back
 * its own counts and sends nothing (the counter stays at the limit, so every later try is refused too);
 * an accepted one commits its counts with the message it sends.
 */
export async function chargeSends(db: Queryable, rules: RateLimitRule[], now: Date): Promise<void> {
  let wait = 0;
  for (const rule of rules) wait = Math.max(wait, await hit(db, rule, now));
  if (wait > 0) throw errors.tooManyRequests(wait);
}

/** The per-recipient rules of one message; an address is counted whatever its case. */
export function recipientRules(
  limits: SendLimitSettings,
  channel: 'mail' | 'sms',
  recipient: string,
): RateLimitRule[] {
  const to = recipient.trim().toLowerCase();
  return [
    { key: `${channel}:to:${to}`, limit: limits.perRecipientPer10Minutes, windowSeconds: 600 },
    { key: `${channel}:to_day:${to}`, limit: limits.perRecipientPerDay, windowSeconds: 24 * 3600 },
  ];
}

/** Charges one message (or one per address) to its recipients' limits. */
export async function chargeRecipients(
  db: Queryable,
  limits: SendLimitSettings,
  channel: 'mail' | 'sms',
  recipients: string[],
  now: Date,
): Promise<void> {
  await chargeSends(
    db,
    recipients.flatMap((r) => recipientRules(limits, channel, r)),
    now,
  );
}

/** The Frontend API's invitation limits, one count per address invited. */
export function invitationRules(
  limits: SendLimitSettings,
  input: { organizationId: string; inviterUserId: string },
): RateLimitRule[] {
  return [
    {
      key: `invitations:org:${input.organizationId}`,
      limit: limits.invitationsPerOrganizationPerHour,
      windowSeconds: 3600,
    },
    {
      key: `invitations:inviter:${input.inviterUserId}`,
      limit: limits.invitationsPerInviterPerHour,
      windowSeconds: 3600,
    },
  ];
}
