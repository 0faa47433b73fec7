import type { BackgroundJob, Capability } from './capability.ts';
import type { IdentityDeps } from './deps.ts';
import { abuseCapability } from './abuse/abuse-capability.ts';
import { auditCapability } from './audit/audit-capability.ts';
import { billingCapability } from './billing/billing-capability.ts';
import { captchaCapability } from './captcha/captcha-capability.ts';
import { devOutboxCapability } from './dev/dev-outbox-capability.ts';
import { emailLinksCapability } from './email-links/email-links-capability.ts';
import { enterpriseSsoCapability } from './enterprise-sso/enterprise-sso-capability.ts';
import { impersonationCapability } from './impersonation/impersonation-capability.ts';
import { machinesCapability } from './machines/machines-capability.ts';
import { oauthProviderCapability } from './oauth-provider/oauth-provider-capability.ts';
import { passkeysCapability } from './passkeys/passkeys-capability.ts';
import { reverificationCapability } from './reverification/reverification-capability.ts';
import { signUpModesCapability } from './sign-up-modes/sign-up-modes-capability.ts';
import { sessionsCapability } from './sessions/sessions-capability.ts';
import { socialCapability } from './social/social-capability.ts';
import { webhooksCapability } from './webhooks/webhooks-capability.ts';

/**
 * Every capability the provider assembles, each listed before the capabilities it relies on. That order is
 * the purge's (rows that hold on to others go first: everything that hangs off a client, a sign-in or a
 * session comes before `sessions`, whose sessions go before the clients they keep alive), and the reverse
 * of the order background jobs start in (billing's schedule records webhook events: the webhooks start
 * first and stop last).
 */
export const CAPABILITIES = [
  emailLinksCapability,
  reverificationCapability,
  socialCapability,
  captchaCapability,
  passkeysCapability,
  enterpriseSsoCapability,
  impersonationCapability,
  machinesCapability,
  oauthProviderCapability,
  signUpModesCapability,
  abuseCapability,
  sessionsCapability,
  billingCapability,
  devOutboxCapability,
  webhooksCapability,
  auditCapability,
] as const;

/** The capabilities, as the provider reads them. */
export const ALL_CAPABILITIES: readonly Capability[] = CAPABILITIES;

type WithJob = Extract<(typeof CAPABILITIES)[number], { start(deps: IdentityDeps): BackgroundJob }>;

/** The running background jobs, by capability name (`webhooks`, `billing`), each with its own type. */
export type CapabilityJobs = { [C in WithJob as C['name']]: ReturnType<C['start']> };

/** Starts every capability's background job, what others rely on first. */
export function startCapabilityJobs(deps: IdentityDeps): CapabilityJobs {
  const jobs: Record<string, BackgroundJob> = {};
  for (const capability of [...ALL_CAPABILITIES].reverse()) {
    if (capability.start) jobs[capability.name] = capability.start(deps);
  }
  return jobs as CapabilityJobs;
}

/** Stops the jobs `startCapabilityJobs` started, in the reverse order, each after the one before has stopped. */
export async function stopCapabilityJobs(jobs: CapabilityJobs): Promise<void> {
  const running: Record<string, BackgroundJob | undefined> = jobs;
  for (const capability of ALL_CAPABILITIES) await running[capability.name]?.stop();
}
