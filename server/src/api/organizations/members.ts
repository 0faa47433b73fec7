import { isClerkAPIResponseError } from '@clerk/shared/error';
import {
  emailAddressSchema,
  mayManageRole,
  newMemberAnswerSchema,
  newMemberRequestSchema,
  type NewMemberAnswer,
} from '@app/contract';
import { answerWith } from '../contract-io.ts';
import type { BackendApi } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { authOf } from '../require-auth.ts';
import { productRoute } from '../route.ts';

/** Pending invitations read to find one to the same address: far beyond any organisation's. */
const INVITATION_PAGE = 100;
const MAX_INVITATION_PAGES = 20;

/**
 * POST /api/organizations/current/members `{ emailAddress, role }` — adds someone to the token's active
 * organisation by address, through the Backend API (so it works against hosted Clerk too): the account
 * whose **verified** address it is becomes a member at once (an address someone merely typed into their
 * profile proves nothing); anyone else is sent Clerk's invitation. `201` with the outcome.
 *
 * The same checks as Clerk's own membership calls: the caller's role carries `org:sys_memberships:manage`
 * and every permission of the role given (a member adds no one; no one gives more than they hold); the
 * organisation is only ever the token's. Refusals: `422 invalid_request` / `email_address_invalid`,
 * `403 forbidden`, `409 already_member` / `already_invited` / `membership_quota_exceeded`.
 */
export const addMemberRoute = productRoute({
  method: 'POST',
  path: '/organizations/current/members',
  auth: 'session_token',
  permission: { orgPermission: 'org:sys_memberships:manage' },
  input: { body: newMemberRequestSchema },
  async handler({ req, reply, body: input }, deps) {
    const { userId: callerId, orgId, orgRole } = authOf(req);
    if (!mayManageRole(orgRole!, input.role)) {
      throw new ApiError('forbidden', 'Your role cannot give this role.');
    }
    const address = emailAddressSchema.safeParse(input.emailAddress);
    if (!address.success) throw new ApiError('email_address_invalid');
    const emailAddress = address.data;
    const organizationId = orgId!;
    try {
      const userId = await accountVerifiedFor(deps.clerk, emailAddress);
      let answer: NewMemberAnswer;
      if (userId) {
        await deps.clerk.organizations.createOrganizationMembership({
          organizationId,
          userId,
          role: input.role,
        });
        answer = { outcome: 'added', emailAddress, role: input.role };
      } else {
        if (await hasPendingInvitation(deps.clerk, organizationId, emailAddress)) {
          throw new ApiError('already_invited');
        }
        const invitation = await deps.clerk.organizations.createOrganizationInvitation({
          organizationId,
          emailAddress,
          role: input.role,
          inviterUserId: callerId,
        });
        answer = { outcome: 'invited', emailAddress, role: input.role, invitationId: invitation.id };
      }
      return reply.code(201).send(answerWith(newMemberAnswerSchema, answer));
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  },
});

/** The account one of whose verified addresses is `emailAddress`, if any. */
async function accountVerifiedFor(clerk: BackendApi, emailAddress: string): Promise<string | null> {
  const { data } = await clerk.users.getUserList({ emailAddress: [emailAddress], limit: 10 });
  const owner = data.find((user) =>
    user.emailAddresses.some(
      (a) => a.emailAddress.toLowerCase() === emailAddress && a.verification?.status === 'verified',
    ),
  );
  return owner?.id ?? null;
}

/** Clerk refreshes a pending invitation when the address is invited again; the product says so instead. */
async function hasPendingInvitation(
  clerk: BackendApi,
  organizationId: string,
  emailAddress: string,
): Promise<boolean> {
  for (let page = 0; page < MAX_INVITATION_PAGES; page++) {
    const { data, totalCount } = await clerk.organizations.getOrganizationInvitationList({
      organizationId,
      status: ['pending'],
      limit: INVITATION_PAGE,
      offset: page * INVITATION_PAGE,
    });
    if (data.some((invitation) => invitation.emailAddress.toLowerCase() === emailAddress)) return true;
    if (data.length < INVITATION_PAGE || (page + 1) * INVITATION_PAGE >= totalCount) return false;
  }
  return false;
}

/** The Backend API's refusals of the change, as the product's; null for anything else. */
function refusalOf(error: unknown): ApiError | null {
  if (error instanceof ApiError || !isClerkAPIResponseError(error)) return null;
  switch (error.errors[0]?.code) {
    case 'already_a_member_in_organization':
      return new ApiError('already_member');
    case 'organization_membership_quota_exceeded':
      return new ApiError('membership_quota_exceeded');
    case 'form_param_format_invalid':
      return new ApiError('email_address_invalid');
    default:
      // Deleted while the (up to 60 s) session token still names it.
      return error.status === 404 ? new ApiError('organization_not_found') : null;
  }
}
