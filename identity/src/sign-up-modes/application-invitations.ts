import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { isAllowedRedirect } from '../http/redirects.ts';
import { assertNotBlocklisted } from '../identifier-lists/enforce-lists.ts';
import { newId } from '../ids.ts';
import { isTestEmail } from '../instance/test-mode.ts';
import { applicationInvitationMailLanguage } from '../mail/recipient-language.ts';
import { chargeRecipients } from '../mail/send-limits.ts';
import { applicationInvitationMail, waitlistInvitationMail } from '../mail/templates.ts';
import { INVITATION_TTL_DAYS, MAX_INVITATION_TTL_DAYS } from '../organizations/invitations.ts';
import { emailAddressTaken } from '../store/users.ts';
import {
  hasOpenInstanceInvitation,
  insertInstanceInvitation,
  lockInstanceInvitation,
  lockInstanceInvitationAddress,
  revokeOpenInstanceInvitations,
  setInstanceInvitationStatus,
  type InstanceInvitationRow,
} from '../store/waitlist.ts';
import { ticketUrl } from '../tickets/ticket-url.ts';
import { invitedEmail } from '../users/email-format.ts';
import { instanceInvitationJSON } from './waitlist.ts';

/**
 * Invitations to the application (`@clerk/backend`'s `invitations`): the operator invites an address,
 * which is mailed a one-time ticket link (only its SHA-256 is kept). The ticket opens sign-up in
 * restricted and waitlist modes (fapi/tickets/sign-up-ticket.ts); the invitation's public metadata
 * becomes the new user's. The waitlist's `invite` makes the same invitations (sign-up-modes/waitlist.ts).
 */

const DAY_MS = 24 * 3600 * 1000;
export const TEMPLATE_SLUGS = ['invitation', 'waitlist_invitation'] as const;
type TemplateSlug = (typeof TEMPLATE_SLUGS)[number];

export interface ApplicationInvitationRequest {
  emailAddress: string | undefined;
  publicMetadata?: Record<string, unknown>;
  redirectUrl?: string;
  notify?: boolean;
  ignoreExisting?: boolean;
  expiresInDays?: number;
  templateSlug?: string;
}

interface ValidRequest {
  email: string;
  publicMetadata: Record<string, unknown>;
  redirectUrl?: string;
  notify: boolean;
  ignoreExisting: boolean;
  expiresInDays: number;
  templateSlug: TemplateSlug;
}

function validate(r: ApplicationInvitationRequest, deps: IdentityDeps): ValidRequest {
  const email = invitedEmail(r.emailAddress);
  const expiresInDays = r.expiresInDays ?? INVITATION_TTL_DAYS;
  if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > MAX_INVITATION_TTL_DAYS) {
    throw errors.paramValueInvalid(
      'expires_in_days',
      `expires_in_days must be a whole number from 1 to ${MAX_INVITATION_TTL_DAYS}.`,
    );
  }
  if (r.redirectUrl !== undefined && !isAllowedRedirect(r.redirectUrl, deps.config)) {
    throw errors.paramValueInvalid(
      'redirect_url',
      'redirect_url must point to an allowed origin of this application.',
    );
  }
  const templateSlug = r.templateSlug ?? 'invitation';
  if (!(TEMPLATE_SLUGS as readonly string[]).includes(templateSlug)) {
    throw errors.paramValueInvalid(
      'template_slug',
      `template_slug must be one of ${TEMPLATE_SLUGS.join(', ')}.`,
    );
  }
  return {
    email,
    publicMetadata: r.publicMetadata ?? {},
    redirectUrl: r.redirectUrl,
    notify: r.notify ?? true,
    ignoreExisting: r.ignoreExisting ?? false,
    expiresInDays,
    templateSlug: templateSlug as TemplateSlug,
  };
}

/**
 * Invites every address, all or nothing: each request is validated, then each address checked (not
 * blocklisted; without `ignore_existing`, no account and no open invitation: `duplicate_record`) and
 * every mailed address charged against its sending limit before anything is written. With
 * `ignore_existing` an open invitation to the address is revoked by the new one (one live link per
 * address). At most `invitationsPerBulkRequest` a request; an address named twice is refused.
 */
export async function createApplicationInvitations(
  tx: Queryable,
  deps: IdentityDeps,
  requests: ApplicationInvitationRequest[],
  now: Date,
) {
  if (!requests.length) throw errors.paramMissing('email_address');
  const maxPerRequest = deps.config.sendLimits.invitationsPerBulkRequest;
  if (requests.length > maxPerRequest) {
    throw errors.paramValueInvalid(
      'email_address',
      `At most ${maxPerRequest} invitations can be sent in one request.`,
    );
  }
  const valid = requests.map((r) => validate(r, deps));
  const seen = new Set<string>();
  for (const v of valid) {
    const key = v.email.toLowerCase();
    if (seen.has(key)) {
      throw errors.paramValueInvalid('email_address', `${v.email} is named more than once.`);
    }
    seen.add(key);
  }
  // Locks in a fixed order, so two bulk requests naming the same addresses cannot deadlock.
  for (const key of [...seen].sort()) await lockInstanceInvitationAddress(tx, key);
  for (const v of valid) {
    await assertNotBlocklisted(tx, v.email);
    if (v.ignoreExisting) continue;
    if (await hasOpenInstanceInvitation(tx, v.email, now))
      throw errors.invitationDuplicate(v.email, 'invitation');
    if (await emailAddressTaken(tx, v.email)) throw errors.invitationDuplicate(v.email, 'account');
  }
  const mailedTo = (v: ValidRequest) =>
    v.notify && !(deps.config.mode === 'development' && isTestEmail(v.email));
  await chargeRecipients(
    tx,
    deps.config.sendLimits,
    'mail',
    valid.filter(mailedTo).map((v) => v.email),
    now,
  );

  const issued: { invitation: InstanceInvitationRow; url: string }[] = [];
  for (const v of valid) {
    await revokeOpenInstanceInvitations(tx, v.email, now);
    const ticket = randomToken(32);
    const invitation = await insertInstanceInvitation(tx, {
      id: newId('inv'),
      email: v.email,
      ticketHash: sha256(ticket),
      publicMetadata: v.publicMetadata,
      expiresAt: new Date(now.getTime() + v.expiresInDays * DAY_MS),
      now,
    });
    const url = ticketUrl(deps, ticket, v.redirectUrl);
    if (mailedTo(v)) {
      const mail =
        v.templateSlug === 'waitlist_invitation' ? waitlistInvitationMail : applicationInvitationMail;
      await deps.mailer.send(
        tx,
        mail(invitation.email_address, {
          url,
          expiresAt: invitation.expires_at,
          appName: deps.config.applicationName,
          language: applicationInvitationMailLanguage(deps.config, invitation),
        }),
      );
    }
    issued.push({ invitation, url });
  }
  return issued.map((i) => instanceInvitationJSON(i.invitation, now, i.url));
}

/** Revokes a pending invitation: its ticket stops opening sign-up. Any other state is refused (400). */
export async function revokeApplicationInvitation(tx: Queryable, id: string, now: Date) {
  const invitation = await lockInstanceInvitation(tx, id);
  if (!invitation) throw errors.notFound('invitation');
  const status = instanceInvitationJSON(invitation, now).status;
  if (status !== 'pending') throw errors.invitationNotPending(status);
  return instanceInvitationJSON(await setInstanceInvitationStatus(tx, id, 'revoked', now), now);
}
