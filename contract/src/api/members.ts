import { z } from '../zod.ts';
import { orgRoleSchema } from '../roles.ts';

/**
 * POST /api/organizations/current/members — an admin (or vCISO) adds someone to the active organisation
 * by email address: the account whose verified address it is becomes a member at once; anyone else is
 * sent an invitation to it.
 */
export const MEMBERS_PATH = '/api/organizations/current/members';

/** RFC 5321's limit on a forward path, as the identity provider applies it. */
export const MAX_EMAIL_ADDRESS_LENGTH = 254;
// One `@`, a dot in the domain, no spaces, controls or characters that need quoting: what an address
// typed into a form is, and what the identity provider accepts.
const EMAIL_ADDRESS_PATTERN =
  /^[^\s\p{C}@<>()[\]\\,;:"]+@[^\s\p{C}@<>()[\]\\,;:"_]+\.[^\s\p{C}@<>()[\]\\,;:"_]{2,}$/u;

/** An address as people type it: trimmed and lowercased, then checked. */
export const emailAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_ADDRESS_LENGTH)
  .regex(EMAIL_ADDRESS_PATTERN, 'Not a valid email address.');

export const isEmailAddress = (value: string): boolean => emailAddressSchema.safeParse(value).success;

/**
 * The body: strict (the organisation is only ever the token's, so a body naming one is refused). The
 * address is only a string here: a malformed one gets its own error (`email_address_invalid`), so the
 * screen can say so.
 */
export const newMemberRequestSchema = z.strictObject({
  emailAddress: z.string().max(1024),
  role: orgRoleSchema,
});
export type NewMemberRequest = z.infer<typeof newMemberRequestSchema>;

/**
 * `201`: the account was added (`added`; it then shows among the members), or the address was sent an
 * invitation (`invited`). No account id: the address is what the caller knows.
 */
export const newMemberAnswerSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('added'), emailAddress: z.string(), role: orgRoleSchema }),
  z.object({
    outcome: z.literal('invited'),
    emailAddress: z.string(),
    role: orgRoleSchema,
    invitationId: z.string(),
  }),
]);
export type NewMemberAnswer = z.infer<typeof newMemberAnswerSchema>;
