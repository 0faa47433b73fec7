import { z } from '@app/contract';

/**
 * Who may sign up (Clerk's dashboard → Restrictions → Sign-up mode) and the legal consent asked at sign-up
 * (docs/sign-up-modes.md). Absent: public sign-up, no consent asked.
 */
export const signUpSettings = z
  .object({
    /** public: anyone; restricted: only with an invitation; waitlist: people join a waitlist and are invited. */
    mode: z.enum(['public', 'restricted', 'waitlist']).default('public'),
    legalConsent: z
      .object({
        enabled: z.boolean().default(false),
        termsUrl: z.url({ protocol: /^https?$/ }).optional(),
        privacyPolicyUrl: z.url({ protocol: /^https?$/ }).optional(),
      })
      .strict()
      .default({ enabled: false }),
  })
  .strict();
export type SignUpSettings = z.output<typeof signUpSettings>;
