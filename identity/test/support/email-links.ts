import assert from 'node:assert/strict';
import type { Browser, FapiResponse, Harness } from './harness.ts';

/** The `/v1/verify` link of the newest mail to `to`, as a path the harness can open. */
export async function latestLink(h: Harness, to: string): Promise<string> {
  const [mail] = await h.mail(to);
  const link = mail?.text.match(/https?:\/\/\S+\/v1\/verify\?token=\S+/)?.[0];
  if (!link) throw new Error(`no email link mailed to ${to}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export interface Landing {
  res: FapiResponse;
  /** Where the browser is sent. */
  location: URL;
  status: string | null;
  createdSession: string | null;
}

/** Opens an email link in `browser` (a navigation: cookies, no Origin) and follows nothing. */
export async function openLink(browser: Browser, path: string): Promise<Landing> {
  const res = await browser.raw('GET', path);
  assert.equal(
    res.status,
    303,
    `the link answers a redirect, got ${res.status}: ${JSON.stringify(res.body)}`,
  );
  const location = new URL(String(res.headers.location));
  return {
    res,
    location,
    status: location.searchParams.get('__clerk_status'),
    createdSession: location.searchParams.get('__clerk_created_session'),
  };
}
