import { errors } from '../errors.ts';
import type { Queryable } from '../db/database.ts';
import { listRedirectUrls, type RedirectUrlRow } from '../store/identifier-lists.ts';

/** The longest URL a browser reliably keeps; a longer one is refused before anything else is read. */
export const MAX_REDIRECT_URL_LENGTH = 2048;
/** The most URLs an instance allows besides its origins: each redirect check may read them all. */
export const MAX_REDIRECT_URLS = 100;

/** Schemes that run or read something instead of opening a page: never a redirect target. */
const UNSAFE_SCHEMES: ReadonlySet<string> = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/**
 * A URL the operator allows (`redirectUrls.createRedirectUrl`): absolute, without credentials or a
 * fragment, and of a scheme that opens a page (http(s), or a native application's own scheme such as
 * `myapp://callback`, as Clerk allows for mobile applications). Kept as the URL parser writes it.
 */
export function parseRedirectUrl(raw: string): string {
  const value = raw.trim();
  if (value.length > MAX_REDIRECT_URL_LENGTH) throw errors.paramMaxLength('url', MAX_REDIRECT_URL_LENGTH);
  const invalid = () => errors.paramFormatInvalid('url', 'an absolute URL (https://example.com/callback)');
  if (!URL.canParse(value)) throw invalid();
  const url = new URL(value);
  if (UNSAFE_SCHEMES.has(url.protocol) || url.username || url.password || url.hash) throw invalid();
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname) throw invalid();
  return url.href;
}

/**
 * Whether `target` is under an allowed URL: the same scheme and origin (host and port), and a path that is
 * the allowed one or below it (`https://a.example/cb` allows `/cb`, `/cb/`, `/cb/x`, not `/cbx`). The query
 * is the caller's. A native scheme's URL (no origin to compare) is matched on its text the same way.
 */
export function underRedirectUrl(target: string, allowed: string): boolean {
  if (!URL.canParse(target)) return false;
  const t = new URL(target);
  const a = new URL(allowed);
  if (t.protocol !== a.protocol || t.username || t.password) return false;
  if (UNSAFE_SCHEMES.has(t.protocol)) return false;
  const withoutQuery = (u: URL) => `${u.protocol}//${u.host}${u.pathname}`;
  const base = withoutQuery(a);
  const here = withoutQuery(t);
  if (t.host !== a.host) return false;
  if (here === base) return true;
  return here.startsWith(base.endsWith('/') ? base : `${base}/`);
}

/** Whether one of the instance's allowed redirect URLs covers `target` (read when its origins do not). */
export async function isListedRedirect(db: Queryable, target: string): Promise<boolean> {
  const listed = await listRedirectUrls(db);
  return listed.some((row) => underRedirectUrl(target, row.url));
}

/** Clerk's RedirectUrl. */
export function redirectUrlJSON(row: RedirectUrlRow) {
  return {
    object: 'redirect_url',
    id: row.id,
    url: row.url,
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}
