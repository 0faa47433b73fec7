/**
 * The consent interaction's Frontend API (docs/oauth-provider.md, "Consent: the interaction contract"),
 * called from the page with the browser's Clerk client cookie (same origin as the Frontend API proxy) and
 * the session clerk-js holds; the interaction's own cookie ties it to this browser.
 */
export interface ConsentScope {
  scope: string;
  description: string | null;
  requires_consent: boolean;
}

export interface ConsentRequest {
  oauth_application_name: string;
  oauth_application_logo_url: string | null;
  oauth_application_url: string | null;
  scopes: ConsentScope[];
  redirect_url: string;
  consent_required: boolean;
}

/** Why the consent request could not be shown: gone (404: expired, decided, another browser's) or failed. */
export class ConsentRequestError extends Error {
  constructor(readonly kind: 'not_found' | 'failed') {
    super(kind);
  }
}

function consentUrl(proxyUrl: string, uid: string, sessionId: string, suffix = ''): string {
  const url = new URL(
    `${proxyUrl.replace(/\/$/, '')}/v1/me/oauth_consent/${encodeURIComponent(uid)}${suffix}`,
    window.location.origin,
  );
  url.searchParams.set('_clerk_session_id', sessionId);
  return url.href;
}

async function answerOf<T>(res: Response): Promise<T> {
  if (res.status === 404) throw new ConsentRequestError('not_found');
  if (!res.ok) throw new ConsentRequestError('failed');
  return (await res.json()) as T;
}

export async function fetchConsentRequest(
  proxyUrl: string,
  uid: string,
  sessionId: string,
  language: string,
): Promise<ConsentRequest> {
  const res = await fetch(consentUrl(proxyUrl, uid, sessionId), {
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'accept-language': language },
  });
  return answerOf<ConsentRequest>(res);
}

/** Allow or Deny; answers where the browser goes next (back into the authorization server). */
export async function postConsentDecision(
  proxyUrl: string,
  uid: string,
  sessionId: string,
  allow: boolean,
): Promise<string> {
  const res = await fetch(consentUrl(proxyUrl, uid, sessionId, '/decision'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ allow: String(allow) }).toString(),
  });
  return (await answerOf<{ redirect_url: string }>(res)).redirect_url;
}
