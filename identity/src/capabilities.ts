import type { Capability } from './capability.ts';
import { abuseCapability } from './abuse/abuse-capability.ts';
import { billingCapability } from './billing/billing-capability.ts';
import { captchaCapability } from './captcha/captcha-capability.ts';
import { devOutboxCapability } from './dev/dev-outbox-capability.ts';
import { emailLinksCapability } from './email-links/email-links-capability.ts';
import { enterpriseSsoCapability } from './enterprise-sso/enterprise-sso-capability.ts';
import { impersonationCapability } from './impersonation/impersonation-capability.ts';
import { passkeysCapability } from './passkeys/passkeys-capability.ts';
import { reverificationCapability } from './reverification/reverification-capability.ts';
import { sessionsCapability } from './sessions/sessions-capability.ts';
import { socialCapability } from './social/social-capability.ts';
import { webhooksCapability } from './webhooks/webhooks-capability.ts';

/**
 * Every capability the provider assembles. Order matters: it is the order of the purge, and rows that
 * hold on to others are purged first — everything that hangs off a client, a sign-in or a session comes
 * before `sessions` (whose sessions go before the clients they keep alive).
 */
export const CAPABILITIES: readonly Capability[] = [
  emailLinksCapability,
  reverificationCapability,
  socialCapability,
  captchaCapability,
  passkeysCapability,
  enterpriseSsoCapability,
  impersonationCapability,
  abuseCapability,
  sessionsCapability,
  billingCapability,
  devOutboxCapability,
  webhooksCapability,
];
