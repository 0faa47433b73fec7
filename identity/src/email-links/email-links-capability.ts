import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** Email links: sign-in and verification by a link in a mail. */
export const emailLinksCapability: Capability = {
  name: 'email-links',
  retention: [{ table: 'email_links', expired: `expire_at < $1::timestamptz - ${DAY}` }],
};
