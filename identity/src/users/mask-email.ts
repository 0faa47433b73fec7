/**
 * An address shown to someone who has only typed a username: `ada@example.com` → `a***@example.com`,
 * so that knowing a username does not tell anyone the account's email address.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, Math.min(1, at))}***${email.slice(at)}`;
}
