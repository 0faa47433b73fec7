import type { ClientRow, SignInRow, UserRow } from '../../store/rows.ts';
import { createSignIn } from '../../store/sign-ins.ts';
import { emailAddressesOf } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';

/**
 * The sign-in a ticket (an actor token, a sign-in token) opens for its user on this client, named by the
 * user's primary address as if they had typed it, and made the client's current sign-in. The caller then
 * verifies the first factor (or completes it) by the ticket's own rules.
 */
export async function openTicketSignIn(
  ctx: FapiContext,
  client: ClientRow,
  user: UserRow,
): Promise<SignInRow> {
  const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
  const primary = emails.find((e) => e.id === user.primary_email_address_id) ?? emails[0];
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_first_factor',
    identifier: primary?.email_address.toLowerCase() ?? null,
    userId: user.id,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id });
  return signIn;
}
