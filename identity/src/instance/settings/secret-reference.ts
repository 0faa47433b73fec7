import { z } from '@app/contract';

/**
 * How a setting names a secret: never the secret itself, the environment variable that holds it, so the
 * file and the database can be shown and copied freely (a social provider's client secret).
 */
export const secretReference = z
  .object({
    env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must name an environment variable (upper case, digits and _).'),
  })
  .strict();
export type SecretReference = z.infer<typeof secretReference>;

/** The secret a reference names; a missing variable stops whoever needs it with the variable's name. */
export function secretFromEnv(ref: SecretReference, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[ref.env];
  if (!value)
    throw new Error(`The environment variable ${ref.env} named by the instance settings is not set.`);
  return value;
}
