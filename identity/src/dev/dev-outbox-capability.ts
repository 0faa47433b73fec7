import type { Capability } from '../capability.ts';

/** The development outbox: mail and SMS kept instead of sent. */
export const devOutboxCapability: Capability = {
  name: 'dev-outbox',
  retention: [
    // The development outbox keeps a week of mail and SMS.
    { table: 'outbox', expired: `created_at < $1::timestamptz - interval '7 days'` },
  ],
};
