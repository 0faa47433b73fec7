import { errors } from '../../errors.ts';
import { issueEmailLink, type EmailLinkPurpose } from '../../store/email-links.ts';
import { isAllowedRedirect } from '../../http/redirects.ts';
import { chargeRecipients } from '../../mail/send-limits.ts';
import { emailLinkMail } from '../../mail/templates.ts';
import { requestMailLanguage, type LanguageHolder } from '../../mail/recipient-language.ts';
import type { VerificationState } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';

/**
 * Mails a one-time link to `/v1/verify` that verifies `attemptId` (a sign-in's first factor or a sign-up's
 * email address) and then sends the browser to `redirectUrl`. Returns the attempt's new verification,
 * which the waiting tab polls until it turns `verified` or `expired`.
 */
export async function sendEmailLink(
  ctx: FapiContext,
  input: {
    purpose: EmailLinkPurpose;
    attemptId: string;
    email: string;
    redirectUrl: string | undefined;
    /** Whose chosen language the message speaks: the user it is for, or the sign-up (mail/recipient-language.ts). */
    recipient?: LanguageHolder | null;
  },
): Promise<VerificationState> {
  const { config, keys, mailer, fapiBase } = ctx.deps;
  if (!input.redirectUrl) throw errors.paramMissing('redirect_url');
  // Checked before it is resolved: a value no URL parser accepts (`https://localhost:3000.evil.test`) is
  // refused like any other off-origin target, not a failure of ours.
  if (!isAllowedRedirect(input.redirectUrl, config)) {
    throw errors.paramValueInvalid(
      'redirect_url',
      'redirect_url must point to an allowed origin of this application.',
    );
  }
  // Absolute, on an allowed origin: /v1/verify navigates there with the outcome.
  const redirectUrl = new URL(input.redirectUrl, config.publicUrl).toString();
  await chargeRecipients(ctx.tx, config.sendLimits, 'mail', [input.email], ctx.now);
  const client = await ctx.ensureClient();
  const { token, expireAt } = await issueEmailLink(ctx.tx, {
    purpose: input.purpose,
    attemptId: input.attemptId,
    clientId: client.id,
    email: input.email,
    redirectUrl,
    pepper: keys.codePepper,
    ttlSeconds: config.emailLinks.ttlSeconds,
    now: ctx.now,
  });
  const url = new URL(`${fapiBase}/v1/verify`);
  url.searchParams.set('token', token);
  await mailer.send(
    ctx.tx,
    emailLinkMail(input.email, {
      url: url.toString(),
      appName: config.applicationName,
      purpose: input.purpose,
      ttlSeconds: config.emailLinks.ttlSeconds,
      sameBrowser: config.emailLinks.requireSameClient,
      language: requestMailLanguage(config, ctx.acceptLanguage, input.recipient),
    }),
  );
  return {
    status: 'unverified',
    strategy: 'email_link',
    attempts: null,
    expire_at: expireAt.getTime(),
    verified_at_client: null,
  };
}

/** A link verification whose time ran out while the tab waited: reported as `expired`, which stops its polling. */
export function staleEmailLink(v: VerificationState | null, now: Date): v is VerificationState {
  return (
    v?.strategy === 'email_link' &&
    v.status === 'unverified' &&
    v.expire_at !== null &&
    v.expire_at <= now.getTime()
  );
}
