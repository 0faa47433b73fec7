import { z } from '@app/contract';

/**
 * Bot protection (Clerk's dashboard → Attack protection → Bot sign-up protection). Absent: the mode's
 * default (docs/captcha.md).
 */
export const captchaSettings = z
  .object({
    enabled: z.boolean().default(true),
  })
  .strict();
export type CaptchaSettings = z.output<typeof captchaSettings>;
