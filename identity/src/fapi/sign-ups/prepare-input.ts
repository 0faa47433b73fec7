import { hashPassword } from '../../crypto/passwords.ts';
import { sha256 } from '../../crypto/secrets.ts';
import type { IdentityDeps } from '../../deps.ts';
import { clientSignUpMissesRequirements } from '../../store/sign-ups.ts';
import type { FapiRequestInfo } from '../context.ts';
import type { Prepared } from '../prepared-work.ts';
import { assertRedirectParams, mayRedirectToPopup } from '../redirect-params.ts';
import { connectionForEmail } from '../../enterprise-sso/connections.ts';
import { field } from '../form.ts';
import { parseSignUpInput } from './validate.ts';

/**
 * A sign-up's `beforeTransaction`: the form validated (the handler's first steps, which read nothing, so
 * a refused form gets the same answer) and a password that passed the policy hashed. An update's
 * password is hashed only for a sign-up of this browser's client still missing requirements.
 */
export async function prepareSignUpInput(
  req: FapiRequestInfo,
  deps: IdentityDeps,
  update: { clientToken: string | null } | null,
): Promise<Prepared> {
  await assertRedirectParams(deps.db, req.body, deps, {
    popup: mayRedirectToPopup(field(req.body, 'strategy')),
  });
  const input = parseSignUpInput(req.body, deps.config.passwordPolicy);
  // An address at an enterprise connection's domain keeps no password (its IdP is the factor).
  if (
    input.password === undefined ||
    connectionForEmail(deps.settings.settings.enterpriseConnections, input.email)
  ) {
    return { signUpInput: input };
  }
  if (update) {
    const ownSignUpMissingRequirements = update.clientToken
      ? await clientSignUpMissesRequirements(deps.db, req.params.id, sha256(update.clientToken))
      : false;
    if (!ownSignUpMissingRequirements) return { signUpInput: input };
  }
  return {
    signUpInput: input,
    newPassword: { password: input.password, hash: await hashPassword(input.password) },
  };
}
