import type { MailMessage } from './mailer.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function verificationCodeMail(
  to: string,
  code: string,
  appName: string,
  purpose: 'sign_up' | 'sign_in',
): MailMessage {
  const action = purpose === 'sign_up' ? 'verify your email address' : 'sign in';
  const subject = `${code} is your ${appName} verification code`;
  const text = `Enter this code to ${action} on ${appName}:\n\n${code}\n\nThe code expires in 10 minutes. If you did not request it, you can ignore this email.\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif">
<p>Enter this code to ${escapeHtml(action)} on ${escapeHtml(appName)}:</p>
<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(code)}</p>
<p style="color:#555">The code expires in 10 minutes. If you did not request it, you can ignore this email.</p>
</body></html>`;
  return { to, subject, text, html };
}
