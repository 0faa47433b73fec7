import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Passkeys (WebAuthn): registration and sign-in. */
export const passkeysCapability: Capability = {
  name: 'passkeys',
  retention: [
    // Passkey challenges live 5 minutes; a registration never finished leaves its passkey unverified.
    { table: 'passkey_challenges', expired: `expire_at < $1::timestamptz - ${DAY}` },
    { table: 'passkeys', expired: `verified_at IS NULL AND created_at < $1::timestamptz - ${DAY}` },
  ],
};
