import type { MailLanguage } from './language.ts';
import type { MailMessage } from './mailer.ts';
import { MAIL_WORDS, type CodePurpose, type LinkPurpose } from './words.ts';

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

const BUTTON_STYLE =
  'display:inline-block;padding:10px 18px;background:#111827;color:#fff;border-radius:6px;text-decoration:none';

/** The page around a mail's paragraphs, with the language declared for screen readers and spell-checkers. */
const page = (language: MailLanguage, content: string) =>
  `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif">
${content}
</body></html>`;

/** A button to `url`, then the same link as text for clients that hide buttons. */
const buttonAndLink = (language: MailLanguage, url: string, label: string) =>
  `<p><a href="${escapeHtml(url)}" style="${BUTTON_STYLE}">${escapeHtml(label)}</a></p>
<p style="color:#555">${escapeHtml(MAIL_WORDS[language].orOpen)} <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;

/**
 * An invitation's layout (an organisation's, the waitlist's): the introduction, the action named once
 * above the bare link in the text and as the button in the HTML, then until when the link works.
 */
function linkWithActionMail(
  to: string,
  language: MailLanguage,
  words: { subject: string; intro: string; action: string; url: string; expiry: string },
): MailMessage {
  const { subject, intro, action, url, expiry } = words;
  const text = `${intro}\n\n${action}${MAIL_WORDS[language].colon}\n${url}\n\n${expiry}\n`;
  const html = page(
    language,
    `<p>${escapeHtml(intro)}</p>
${buttonAndLink(language, url, action)}
<p style="color:#555">${escapeHtml(expiry)}</p>`,
  );
  return { to, subject, text, html };
}

export function verificationCodeMail(
  to: string,
  input: { code: string; appName: string; purpose: CodePurpose; ttlSeconds: number; language: MailLanguage },
): MailMessage {
  const words = MAIL_WORDS[input.language].code;
  const intro = words.intro(input.appName, input.purpose);
  const expiry = words.expiry(Math.max(1, Math.round(input.ttlSeconds / 60)));
  const subject = words.subject(input.code, headerSafe(input.appName), input.purpose);
  const text = `${intro}\n\n${input.code}\n\n${expiry}\n`;
  const html = page(
    input.language,
    `<p>${escapeHtml(intro)}</p>
<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(input.code)}</p>
<p style="color:#555">${escapeHtml(expiry)}</p>`,
  );
  return { to, subject, text, html };
}

/** The email-link mail: one button, the link again as text, and how long it works. */
export function emailLinkMail(
  to: string,
  input: {
    url: string;
    appName: string;
    purpose: LinkPurpose;
    ttlSeconds: number;
    /** The instance requires the link to be opened in the browser that asked for it. */
    sameBrowser: boolean;
    language: MailLanguage;
  },
): MailMessage {
  const words = MAIL_WORDS[input.language].link;
  const intro = words.intro(input.appName, input.purpose);
  const expiry = words.expiry(Math.max(1, Math.round(input.ttlSeconds / 60)), input.sameBrowser);
  const subject = words.subject(headerSafe(input.appName), input.purpose);
  const text = `${intro}\n\n${input.url}\n\n${expiry}\n`;
  const html = page(
    input.language,
    `<p>${escapeHtml(intro)}</p>
${buttonAndLink(input.language, input.url, words.button(input.purpose))}
<p style="color:#555">${escapeHtml(expiry)}</p>`,
  );
  return { to, subject, text, html };
}

export function organizationInvitationMail(
  to: string,
  input: {
    organizationName: string;
    inviterName: string | null;
    /** The role's key (`org:admin`) and the name the instance gives it, for a role the words do not name. */
    role: { key: string; name: string };
    url: string;
    expiresAt: Date;
    appName: string;
    /** The organisation's language (mail/recipient-language.ts). */
    language: MailLanguage;
  },
): MailMessage {
  const words = MAIL_WORDS[input.language].invitation;
  // The names are the inviter's to choose: never in the subject (what a spammer would want shown), and
  // in the body quoted and bounded, so they read as a name rather than as our words.
  return linkWithActionMail(to, input.language, {
    subject: words.subject(headerSafe(input.appName)),
    intro: words.intro({
      inviter: input.inviterName ? mailSafeName(input.inviterName) : '',
      organization: mailSafeName(input.organizationName),
      appName: input.appName,
      role: words.roleName(input.role.key, input.role.name),
    }),
    action: words.accept,
    url: input.url,
    expiry: words.expiry(input.expiresAt),
  });
}

/**
 * The invitation to the application an operator sends through the Backend API (Clerk's `invitation`
 * template): its link opens sign-up with the ticket, which the restricted and waitlist modes require.
 */
export function applicationInvitationMail(to: string, input: InvitationLinkInput): MailMessage {
  return invitationLinkMail(to, input, MAIL_WORDS[input.language].applicationInvitation);
}

/** The invitation an operator sends to a waitlist entry (Clerk's `waitlist_invitation` template). */
export function waitlistInvitationMail(to: string, input: InvitationLinkInput): MailMessage {
  return invitationLinkMail(to, input, MAIL_WORDS[input.language].waitlist);
}

type InvitationLinkInput = { url: string; expiresAt: Date; appName: string; language: MailLanguage };

/** A mail whose one action opens sign-up with an invitation's ticket. */
function invitationLinkMail(
  to: string,
  input: InvitationLinkInput,
  words: (typeof MAIL_WORDS)[MailLanguage]['waitlist'],
): MailMessage {
  return linkWithActionMail(to, input.language, {
    subject: words.subject(headerSafe(input.appName)),
    intro: words.intro(input.appName),
    action: words.signUp,
    url: input.url,
    expiry: words.expiry(input.expiresAt),
  });
}
