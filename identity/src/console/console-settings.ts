import { z } from '@app/contract';

/** A user id as the instance makes them (`user_` and base62), or an email address. */
const operatorReference = z
  .string()
  .trim()
  .min(1)
  .max(320)
  .refine((value) => /^user_[0-9A-Za-z]{1,64}$/.test(value) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), {
    message: 'must be a user id (user_…) or an email address',
  });

/**
 * The operator console (docs/console.md): who its operators are. Each entry names a user by id, or by an
 * email address that must be one of the user's verified addresses. Empty (the default): no operator, no
 * console.
 */
export const consoleSettings = z
  .object({
    operators: z.array(operatorReference).max(100).default([]),
  })
  .strict();
export type ConsoleSettings = z.output<typeof consoleSettings>;
