import { z } from '../zod.ts';

/**
 * GET /api/authorized-user — the user a request acts for: a session's user, or the user who allowed an
 * OAuth application whose access token the request carries (docs/oauth-provider.md), with what it may do.
 */
export const AUTHORIZED_USER_PATH = '/api/authorized-user';

export const authorizedUserSchema = z.object({
  userId: z.string(),
  /** The OAuth application's client id; null for a session. */
  clientId: z.string().nullable(),
  /** The access token's scopes; empty for a session. */
  scopes: z.array(z.string()),
  user: z.object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    primaryEmailAddress: z.string().nullable(),
  }),
});
export type AuthorizedUser = z.infer<typeof authorizedUserSchema>;
