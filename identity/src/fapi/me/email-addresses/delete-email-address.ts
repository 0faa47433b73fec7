import { errors } from '../../../errors.ts';
import type { EmailAddressRow } from '../../../store/rows.ts';
import type { FapiRoute } from '../../context.ts';
import { ownEmailAddress } from './own-email-address.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';

/**
 * DELETE /me/email_addresses/:id — Email addresses → Remove. The instance requires an email address,
 * and every way to sign in needs one, so the last verified address stays
 * (`identification_deletion_failed`). Removing the primary one makes the oldest other verified
 * address primary.
 */
export const deleteEmailAddressRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/email_addresses/:id',
  async handler(ctx) {
    const { session, email } = await ownEmailAddress(ctx);
    await requireReverification(ctx, session);
    const others = await ctx.tx.query<EmailAddressRow>(
      `SELECT * FROM email_addresses WHERE user_id = $1 AND id <> $2 AND verified_at IS NOT NULL
       ORDER BY created_at, id`,
      [session.user_id, email.id],
    );
    if (email.verified_at && others.length === 0) throw errors.identificationDeletionFailed();
    const [user] = await ctx.tx.query<{ primary_email_address_id: string | null }>(
      'SELECT primary_email_address_id FROM users WHERE id = $1 FOR UPDATE',
      [session.user_id],
    );
    if (user?.primary_email_address_id === email.id) {
      await ctx.tx.query('UPDATE users SET primary_email_address_id = $2, updated_at = $3 WHERE id = $1', [
        session.user_id,
        others[0]!.id,
        ctx.now,
      ]);
    }
    await ctx.tx.query('DELETE FROM email_addresses WHERE id = $1', [email.id]);
    await ctx.tx.query('DELETE FROM verification_codes WHERE subject LIKE $1', [
      `email_address:${email.id}:%`,
    ]);
    return { response: { object: 'email_address', id: email.id, deleted: true } };
  },
});
