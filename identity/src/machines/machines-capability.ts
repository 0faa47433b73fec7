import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Machines and their machine-to-machine tokens (Backend API `machines` and `m2m`, docs/backend-api.md). */
export const machinesCapability: Capability = {
  name: 'machines',
  retention: [
    // A token is of no use a day after it expired or was revoked: verifying it then finds nothing, which
    // refuses it as its expiry or revocation did. Tokens made without an expiry stay until revoked.
    {
      table: 'm2m_tokens',
      expired: `expires_at < $1::timestamptz - ${DAY} OR revoked_at < $1::timestamptz - ${DAY}`,
    },
  ],
};
