import type { Capability } from '../capability.ts';
import { impersonateCommand, revokeActorTokenCommand } from '../cli/impersonation-commands.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Impersonation: actor tokens and the sessions they open. */
export const impersonationCapability: Capability = {
  name: 'impersonation',
  retention: [
    // Actor tokens: kept a day past their expiry; the sessions they opened carry their own copy of the actor.
    { table: 'actor_tokens', expired: `expires_at < $1::timestamptz - ${DAY}` },
  ],
  cli: [impersonateCommand, revokeActorTokenCommand],
};
