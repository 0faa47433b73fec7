import { z } from '../zod.ts';

/** Who really acts in an impersonation session (the token's `act` claim), as the product shows it. */
export const impersonationActorSchema = z.object({
  userId: z.string(),
  /** Null when the actor is no user of this instance (Clerk lets anyone act). */
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type ImpersonationActor = z.infer<typeof impersonationActorSchema>;

/** GET /api/me — who the verified session token says the caller is, and in which organisation. */
export const ME_PATH = '/api/me';

export const meSchema = z.object({
  userId: z.string(),
  sessionId: z.string(),
  /** The session's active organisation, from the verified token; null without one. */
  orgId: z.string().nullable(),
  orgSlug: z.string().nullable(),
  orgRole: z.string().nullable(),
  orgPermissions: z.array(z.string()),
  user: z.object({
    id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    primaryEmailAddress: z.string().nullable(),
  }),
  /** Who is impersonating the user, or null. */
  actor: impersonationActorSchema.nullable(),
});
export type Me = z.infer<typeof meSchema>;
