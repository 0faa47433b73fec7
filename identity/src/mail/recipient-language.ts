import type { IdentityConfig } from '../config.ts';
import { languageFromAcceptLanguage, parseMailLanguage, type MailLanguage } from './language.ts';

/**
 * Codes and links go to the person at the browser that asked for them. The product keeps no language
 * of its own per user (the interface language lives in the browser, and per organisation), and clerk-js
 * 5.90.0 sends no locale with its requests: the browser's Accept-Language is what the provider knows,
 * and without one of ours the instance default (French) applies.
 */
export function requestMailLanguage(
  config: Pick<IdentityConfig, 'defaultMailLanguage'>,
  acceptLanguage: string | null,
): MailLanguage {
  return languageFromAcceptLanguage(acceptLanguage) ?? config.defaultMailLanguage;
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
