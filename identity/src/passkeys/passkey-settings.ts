import { z } from '@app/contract';

/**
 * Passkeys (Clerk's dashboard → User & authentication → Passkeys). Absent: passkeys are off and the Clerk
 * UI offers none. The relying party (its id and allowed origins) comes from the instance's public URL and
 * allowed origins, not from here.
 */
export const passkeySettings = z
  .object({
    enabled: z.boolean().default(true),
    /** Offer saved passkeys in the identifier field's autofill (conditional mediation). */
    allowAutofill: z.boolean().default(true),
    /** Show "Use passkey" on <SignIn/>. */
    showSignInButton: z.boolean().default(true),
  })
  .strict();
export type PasskeySettings = z.output<typeof passkeySettings>;

/** Whether the instance offers passkeys (settings present and on). */
export function passkeysEnabled(settings: PasskeySettings | undefined): settings is PasskeySettings {
  return settings?.enabled === true;
}
