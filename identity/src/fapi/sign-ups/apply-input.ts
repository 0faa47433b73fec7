import { errors } from '../../errors.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { emailAddressTaken } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';
import { usernameTaken } from '../../store/user-profile.ts';
import { ticketSignUpChanges } from '../tickets/sign-up-ticket.ts';
import type { SignUpChanges } from '../../store/sign-ups.ts';
import type { SignUpInput } from './validate.ts';
import { phoneSignUpChanges } from './phone-verification.ts';
import { hashNewPassword } from '../prepared-passwords.ts';
import { web3SignUpChanges } from '../web3/web3-sign-up.ts';
import { connectionForEmail } from '../../enterprise-sso/connections.ts';
import { assertMaySignUpWith } from '../../identifier-lists/enforce-lists.ts';
import { legalConsentRequired } from '../../sign-up-modes/sign-up-mode.ts';

/** Turns validated input into column changes; a new email address needs a new verification. */
export async function changesFromInput(
  ctx: FapiContext,
  input: SignUpInput,
  existing: SignUpRow | null,
): Promise<SignUpChanges> {
  const changes: SignUpChanges = {};
  // Legal consent is asked of a sign-up when it starts: `legal_accepted` is then missing until given.
  if (!existing && legalConsentRequired(ctx.deps.settings.settings)) changes.legal_consent_required = true;
  if (input.ticket !== undefined) {
    Object.assign(changes, await ticketSignUpChanges(ctx, input.ticket, input.email, existing));
  } else if (input.email !== undefined && input.email !== existing?.email_address) {
    if (await emailAddressTaken(ctx.tx, input.email)) throw errors.identifierExists('email_address');
    changes.email_address = input.email;
    changes.email_verification = null;
  }
  if (input.username !== undefined && input.username !== existing?.username) {
    if (await usernameTaken(ctx.tx, input.username)) throw errors.identifierExists('username');
    changes.username = input.username;
  }
  Object.assign(changes, await phoneSignUpChanges(ctx, existing));
  Object.assign(changes, await web3SignUpChanges(ctx, existing));
  // The allowlist and blocklist refuse a new identifier when it is given, not only once it is verified.
  const named = [changes.email_address, changes.phone_number, changes.web3_wallet];
  if (input.ticket === undefined) await assertMaySignUpWith(ctx.tx, named, { invited: false });
  // An address at an enterprise connection's domain keeps no password (enterprise-sign-up.ts).
  const email = changes.email_address ?? existing?.email_address;
  if (
    input.password !== undefined &&
    !connectionForEmail(ctx.deps.settings.settings.enterpriseConnections, email)
  )
    changes.password_hash = await hashNewPassword(ctx.prepared, input.password);
  if (input.firstName !== undefined) changes.first_name = input.firstName;
  if (input.lastName !== undefined) changes.last_name = input.lastName;
  if (input.unsafeMetadata !== undefined) changes.unsafe_metadata = input.unsafeMetadata;
  if (input.legalAccepted !== undefined) changes.legal_accepted_at = input.legalAccepted ? ctx.now : null;
  return changes;
}
