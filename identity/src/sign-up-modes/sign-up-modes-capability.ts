import type { Capability } from '../capability.ts';
import { waitlistCommand } from '../cli/waitlist-commands.ts';

/** Sign-up modes: public, restricted (invitations), waitlist. */
export const signUpModesCapability: Capability = {
  name: 'sign-up-modes',
  // No retention rule: invitations are never purged (docs/input-limits-and-retention.md), nor the waitlist.
  cli: [waitlistCommand],
};
