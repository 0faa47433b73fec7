import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Re-verification of a signed-in session before a sensitive change. */
export const reverificationCapability: Capability = {
  name: 'reverification',
  retention: [{ table: 'session_verifications', expired: `expire_at < $1::timestamptz - ${DAY}` }],
};
