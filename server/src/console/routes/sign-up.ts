import { z } from '@app/contract';
import { consoleRoute } from '../console-route.ts';
import {
  allowlistIdentifierIdParam,
  blocklistIdentifierIdParam,
  invitationIdParam,
  oneLine,
  pageQuery,
  searchText,
  waitlistEntryIdParam,
} from './ids.ts';

/**
 * The console's sign-up area (docs/console.md, docs/sign-up-modes.md): the waitlist, the invitations to
 * the application, and the allow and block lists of identifiers. Every change is a Backend API call as the
 * operator's, so the provider records it in the audit log under their name (`waitlist_entry.invite`,
 * `invitation.revoke`, `allowlist_identifier.created`…); rejecting, revoking and removing are re-verified,
 * as the console's other destructive actions.
 */

const WAITLIST_STATUSES = ['pending', 'invited', 'completed', 'rejected'] as const;
const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

/**
 * GET /console/api/sign-up/waitlist?status=&query=&limit=&offset= — `waitlistEntries.list` (`GET
 * /v1/waitlist_entries`), newest first: `{ data, total_count }`; `query` matches the address.
 */
export const listWaitlistRoute = consoleRoute({
  method: 'GET',
  path: '/sign-up/waitlist',
  permission: 'operator',
  input: {
    query: z.object({ status: z.enum(WAITLIST_STATUSES).optional(), query: searchText, ...pageQuery }),
  },
  async handler({ operator, query: { status, query, limit, offset } }, { backend }) {
    return backend.call('GET', '/waitlist_entries', {
      operatorId: operator.userId,
      query: { status, query: query || undefined, limit, offset, order_by: '-created_at' },
    });
  },
});

/**
 * POST /console/api/sign-up/waitlist/:entryId/invite — `POST /v1/waitlist_entries/:id/invite`: the entry
 * gets an invitation to sign up (mailed by the provider), answered as the entry with it.
 */
export const inviteWaitlistEntryRoute = consoleRoute({
  method: 'POST',
  path: '/sign-up/waitlist/:entryId/invite',
  permission: 'operator',
  input: { params: { entryId: waitlistEntryIdParam } },
  async handler({ operator, params: { entryId } }, { backend }) {
    return backend.call('POST', `/waitlist_entries/${entryId}/invite`, { operatorId: operator.userId });
  },
});

/** POST /console/api/sign-up/waitlist/:entryId/reject — `POST /v1/waitlist_entries/:id/reject`. Re-verified. */
export const rejectWaitlistEntryRoute = consoleRoute({
  method: 'POST',
  path: '/sign-up/waitlist/:entryId/reject',
  permission: 'operator_reverified',
  input: { params: { entryId: waitlistEntryIdParam } },
  async handler({ operator, params: { entryId } }, { backend }) {
    return backend.call('POST', `/waitlist_entries/${entryId}/reject`, { operatorId: operator.userId });
  },
});

/**
 * GET /console/api/sign-up/invitations?status=&query=&limit=&offset= — `invitations.getInvitationList`
 * (`GET /v1/invitations?paginated=true`), newest first: `{ data, total_count }`.
 */
export const listInvitationsRoute = consoleRoute({
  method: 'GET',
  path: '/sign-up/invitations',
  permission: 'operator',
  input: {
    query: z.object({ status: z.enum(INVITATION_STATUSES).optional(), query: searchText, ...pageQuery }),
  },
  async handler({ operator, query: { status, query, limit, offset } }, { backend }) {
    return backend.call('GET', '/invitations', {
      operatorId: operator.userId,
      query: { status, query: query || undefined, limit, offset, order_by: '-created_at', paginated: true },
    });
  },
});

/**
 * POST /console/api/sign-up/invitations `{ email_address, redirect_url? }` — `invitations.createInvitation`
 * (`POST /v1/invitations`): the provider mails the invitation; the answer carries its link (`url`), known
 * only now. The redirect URL must be one of the application's (the Backend API refuses others).
 */
export const createInvitationRoute = consoleRoute({
  method: 'POST',
  path: '/sign-up/invitations',
  permission: 'operator',
  input: {
    body: z
      .object({
        email_address: z.string().trim().pipe(z.email().max(254)),
        redirect_url: z
          .string()
          .trim()
          .max(2000)
          .regex(/^$|^https?:\/\/[^\s]+$/, 'an http(s) URL')
          .optional(),
      })
      .strict(),
  },
  async handler({ operator, body: { email_address, redirect_url } }, { backend }) {
    return backend.call('POST', '/invitations', {
      operatorId: operator.userId,
      body: { email_address, ...(redirect_url ? { redirect_url } : {}) },
    });
  },
});

/** POST /console/api/sign-up/invitations/:invitationId/revoke — `invitations.revokeInvitation`. Re-verified. */
export const revokeInvitationRoute = consoleRoute({
  method: 'POST',
  path: '/sign-up/invitations/:invitationId/revoke',
  permission: 'operator_reverified',
  input: { params: { invitationId: invitationIdParam } },
  async handler({ operator, params: { invitationId } }, { backend }) {
    return backend.call('POST', `/invitations/${invitationId}/revoke`, { operatorId: operator.userId });
  },
});

/**
 * The allow list's or the block list's three routes (`allowlistIdentifiers` / `blocklistIdentifiers`):
 * GET /console/api/sign-up/<list>?limit=&offset= (`{ data, total_count }`), POST `{ identifier }` (an
 * address, a `*@domain`, a phone number or a wallet, as the Backend API parses it), DELETE /:identifierId
 * (re-verified).
 */
function identifierListRoutes(list: 'allowlist' | 'blocklist') {
  const backendPath = `/${list}_identifiers`;
  const idParam = list === 'allowlist' ? allowlistIdentifierIdParam : blocklistIdentifierIdParam;
  return [
    consoleRoute({
      method: 'GET',
      path: `/sign-up/${list}`,
      permission: 'operator',
      input: { query: z.object(pageQuery) },
      async handler({ operator, query: { limit, offset } }, { backend }) {
        return backend.call('GET', backendPath, {
          operatorId: operator.userId,
          query: { limit, offset, paginated: true },
        });
      },
    }),
    consoleRoute({
      method: 'POST',
      path: `/sign-up/${list}`,
      permission: 'operator',
      input: { body: z.object({ identifier: oneLine(254) }).strict() },
      async handler({ operator, body: { identifier } }, { backend }) {
        return backend.call('POST', backendPath, { operatorId: operator.userId, body: { identifier } });
      },
    }),
    consoleRoute({
      method: 'DELETE',
      path: `/sign-up/${list}/:identifierId`,
      permission: 'operator_reverified',
      input: { params: { identifierId: idParam } },
      async handler({ operator, params: { identifierId } }, { backend }) {
        return backend.call('DELETE', `${backendPath}/${identifierId}`, { operatorId: operator.userId });
      },
    }),
  ];
}

export const signUpConsoleRoutes = [
  listWaitlistRoute,
  inviteWaitlistEntryRoute,
  rejectWaitlistEntryRoute,
  listInvitationsRoute,
  createInvitationRoute,
  revokeInvitationRoute,
  ...identifierListRoutes('allowlist'),
  ...identifierListRoutes('blocklist'),
];
