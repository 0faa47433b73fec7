import { BILLING_DEFAULT_LANGUAGE } from '../../billing/localized-text.ts';
import { languageFromAcceptLanguage, type MailLanguage } from '../../mail/language.ts';
import type { BapiRequest } from '../route.ts';

/**
 * The language of billing's names in a Backend API answer: the request's Accept-Language when it names
 * French or English (the operator console forwards its operator's interface language), else French.
 * @clerk/backend 2.10.1 sends none of its own (api/request.ts sets Clerk-API-Version, User-Agent,
 * Authorization and Content-Type only; Node's fetch adds `Accept-Language: *`, which names none), so the
 * SDK's callers keep the French names. Webhooks and the audit log have no reader and stay French.
 */
export function bapiAnswerLanguage(req: Pick<BapiRequest, 'acceptLanguage'>): MailLanguage {
  return languageFromAcceptLanguage(req.acceptLanguage) ?? BILLING_DEFAULT_LANGUAGE;
}
