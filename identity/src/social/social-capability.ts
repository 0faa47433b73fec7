import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Sign-in with a social provider (OAuth, Google One Tap) and the accounts it connects. */
export const socialCapability: Capability = {
  name: 'social',
  retention: [
    // Redirects to a social provider live 10 minutes; spent or not, they are of no use a day later.
    { table: 'oauth_states', expired: `expire_at < $1::timestamptz - ${DAY}` },
    // Google One Tap tokens used: an expired token is refused by its `exp` anyway.
    { table: 'google_one_tap_tokens', expired: `expire_at < $1::timestamptz` },
    // A connection to a provider never completed (the browser did not come back, or the provider refused):
    // <UserProfile/> shows its error for a day, then it goes.
    {
      table: 'external_accounts',
      expired: `verification_status = 'unverified' AND provider_user_id IS NULL AND verification_expire_at < $1::timestamptz - ${DAY}`,
    },
  ],
};
