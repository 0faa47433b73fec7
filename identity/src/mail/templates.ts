import type { MailMessage } from './mailer.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Control characters, line and paragraph separators, and the bidirectional overrides and isolates. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;
const MAX_NAME_LENGTH = 64;

/**
 * Text someone else chose (an organisation's or a member's name) as it may appear in a mail: on one line,
 * without characters that hide or reorder what follows, and at most 64 characters, so a name cannot
 * smuggle in headers, lines of its own or a long message.
 */
export function mailSafeName(value: string): string {
  const flat = [...value.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim()];
  if (flat.length <= MAX_NAME_LENGTH) return flat.join('');
  return `${flat
    .slice(0, MAX_NAME_LENGTH - 1)
    .join('')
    .trimEnd()}…`;
}

/** A header value: the operator's application name is trusted, but still never breaks a line. */
const headerSafe = (value: string) => value.replace(UNSAFE_CHARACTERS, ' ').trim();

export function verificationCodeMail(
  to: string,
  code: string,
  appName: string,
  purpose: 'sign_up' | 'sign_in' | 'reset_password',
): MailMessage {
  const action =
    purpose === 'sign_up'
      ? 'verify your email address'
      : purpose === 'reset_password'
        ? 'reset your password'
        : 'sign in';
  const subject =
    purpose === 'reset_password'
      ? `${code} is your ${headerSafe(appName)} password reset code`
      : `${code} is your ${headerSafe(appName)} verification code`;
  const text = `Enter this code to ${action} on ${appName}:\n\n${code}\n\nThe code expires in 10 minutes. If you did not request it, you can ignore this email.\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>Enter this code to ${escapeHtml(action)} on ${escapeHtml(appName)}:</p>
<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(code)}</p>
<p style="color:#555">The code expires in 10 minutes. If you did not request it, you can ignore this email.</p>
</body></html>`;
  return { to, subject, text, html };
}

/** The email-link mail: one button, the link again as text, and how long it works. */
export function emailLinkMail(
  to: string,
  input: {
    url: string;
    appName: string;
    purpose: 'sign_in' | 'sign_up';
    ttlSeconds: number;
    /** The instance requires the link to be opened in the browser that asked for it. */
    sameBrowser: boolean;
  },
): MailMessage {
  const action = input.purpose === 'sign_up' ? 'verify your email address' : 'sign in';
  const button = input.purpose === 'sign_up' ? 'Verify email address' : 'Sign in';
  const minutes = Math.max(1, Math.round(input.ttlSeconds / 60));
  const where = input.sameBrowser ? ', in the browser where you asked for it,' : '';
  const expiry = `The link works once${where} and expires in ${minutes} minute${minutes === 1 ? '' : 's'}. If you did not request it, you can ignore this email.`;
  const subject =
    input.purpose === 'sign_up'
      ? `Verify your email address for ${headerSafe(input.appName)}`
      : `Sign in to ${headerSafe(input.appName)}`;
  const text = `Open this link to ${action} on ${input.appName}:\n\n${input.url}\n\n${expiry}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>Open this link to ${escapeHtml(action)} on ${escapeHtml(input.appName)}:</p>
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:10px 18px;background:#111827;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="color:#555">Or open this link: <a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>
<p style="color:#555">${escapeHtml(expiry)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export function organizationInvitationMail(
  to: string,
  input: {
    organizationName: string;
    inviterName: string | null;
    roleName: string;
    url: string;
    expiresAt: Date;
    appName: string;
  },
): MailMessage {
  // The names are the inviter's to choose: never in the subject (what a spammer would want shown), and
  // in the body quoted and bounded, so they read as a name rather than as our words.
  const inviter = input.inviterName ? mailSafeName(input.inviterName) : '';
  const who = inviter ? `“${inviter}” has invited you` : 'You have been invited';
  const intro = `${who} to join the organization “${mailSafeName(input.organizationName)}” on ${input.appName} as ${input.roleName}.`;
  const expires = input.expiresAt.toISOString().slice(0, 10);
  const subject = `You have been invited to an organization on ${headerSafe(input.appName)}`;
  const text = `${intro}\n\nAccept the invitation:\n${input.url}\n\nThe link works once and expires on ${expires}. If you did not expect this invitation, you can ignore this email.\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:10px 18px;background:#111827;color:#fff;border-radius:6px;text-decoration:none">Accept the invitation</a></p>
<p style="color:#555">Or open this link: <a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>
<p style="color:#555">The link works once and expires on ${escapeHtml(expires)}. If you did not expect this invitation, you can ignore this email.</p>
</body></html>`;
  return { to, subject, text, html };
}

/**
 * The invitation an operator sends to a waitlist entry (Clerk's `waitlist_invitation` template): its
 * link opens sign-up with the ticket, which the restricted and waitlist modes require.
 */
export function waitlistInvitationMail(
  to: string,
  input: { url: string; expiresAt: Date; appName: string },
): MailMessage {
  const intro = `Your spot on the ${input.appName} waitlist is ready: you can now create your account.`;
  const expires = input.expiresAt.toISOString().slice(0, 10);
  const subject = `You're invited to join ${headerSafe(input.appName)}`;
  const text = `${intro}\n\nSign up:\n${input.url}\n\nThe link works once and expires on ${expires}. If you did not join this waitlist, you can ignore this email.\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:10px 18px;background:#111827;color:#fff;border-radius:6px;text-decoration:none">Sign up</a></p>
<p style="color:#555">Or open this link: <a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>
<p style="color:#555">The link works once and expires on ${escapeHtml(expires)}. If you did not join this waitlist, you can ignore this email.</p>
</body></html>`;
  return { to, subject, text, html };
}
