import type { IdentityConfig } from '../config.ts';
import { languageFromAcceptLanguage, parseMailLanguage, type MailLanguage } from './language.ts';

/** Whose `uiLanguage` a code or link may follow: the user it is for, or the sign-up being verified. */
export interface LanguageHolder {
  unsafe_metadata: Record<string, unknown>;
  public_metadata?: Record<string, unknown>;
}

/**
 * The language a person chose, as the product records it: `uiLanguage` (`FR`/`EN`) in their unsafe
 * metadata, which clerk-js lets them write (the product writes its interface language there: the sign-up's
 * `unsafeMetadata`, carried onto the user, and each later choice of the toggle), else in their public
 * metadata (an application invitation's, carried onto the user). Null when they chose none.
 */
export function chosenMailLanguage(holder: LanguageHolder | null | undefined): MailLanguage | null {
  if (!holder) return null;
  return (
    parseMailLanguage(holder.unsafe_metadata.uiLanguage) ??
    parseMailLanguage(holder.public_metadata?.uiLanguage)
  );
}

/**
 * Codes and links speak the language of the person they are for: the one they chose (`holder`: the user,
 * or the sign-up at sign-up), else their browser's Accept-Language on the request that asks for them
 * (clerk-js 5.90.0 sends no locale of its own), else the instance default (French).
 */
export function requestMailLanguage(
  config: Pick<IdentityConfig, 'defaultMailLanguage'>,
  acceptLanguage: string | null,
  holder?: LanguageHolder | null,
): MailLanguage {
  return (
    chosenMailLanguage(holder) ?? languageFromAcceptLanguage(acceptLanguage) ?? config.defaultMailLanguage
  );
}

/**
 * An organisation's invitations speak the organisation's language: its public metadata's `uiLanguage`
 * (`FR` or `EN`, spec "Organization public metadata"), else the instance default (French).
 */
export function organizationMailLanguage(
  config: Pick<IdentityConfig, 'defaultMailLanguage'>,
  organization: { public_metadata: Record<string, unknown> },
): MailLanguage {
  return parseMailLanguage(organization.public_metadata.uiLanguage) ?? config.defaultMailLanguage;
}

/**
 * An invitation to the application speaks what the operator put in its public metadata's `uiLanguage`
 * (`FR` or `EN`, the key the product uses; it becomes the user's on sign-up), else the instance default:
 * the Backend API call has no browser of the recipient's to ask.
 */
export function applicationInvitationMailLanguage(
  config: Pick<IdentityConfig, 'defaultMailLanguage'>,
  invitation: { public_metadata: Record<string, unknown> },
): MailLanguage {
  return parseMailLanguage(invitation.public_metadata.uiLanguage) ?? config.defaultMailLanguage;
}
