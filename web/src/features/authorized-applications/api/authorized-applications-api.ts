import type { ConsentScope } from '../../oauth-consent/api/oauth-consent-api.ts';

/**
 * The signed-in user's remembered OAuth consents (Frontend API `GET/DELETE /v1/me/oauth_consents…`,
 * docs/oauth-provider.md), called with the browser's Clerk client cookie (same origin as the Frontend API
 * proxy) and the session clerk-js holds. Scope descriptions come in `language`.
 */
export interface AuthorizedApplication {
  application_id: string;
  client_id: string;
  oauth_application_name: string;
  scopes: ConsentScope[];
  created_at: number;
  updated_at: number;
}

/** A call that did not succeed; `status` is the HTTP status (0 when the request never got an answer). */
export class AuthorizedApplicationsError extends Error {
  constructor(readonly status: number) {
    super(`oauth_consents ${status}`);
  }
}

function consentsUrl(proxyUrl: string, sessionId: string, applicationId?: string): string {
  const suffix = applicationId ? `/${encodeURIComponent(applicationId)}` : '';
  const url = new URL(`${proxyUrl.replace(/\/$/, '')}/v1/me/oauth_consents${suffix}`, window.location.origin);
  url.searchParams.set('_clerk_session_id', sessionId);
  return url.href;
}

export async function fetchAuthorizedApplications(
  proxyUrl: string,
  sessionId: string,
  language: string,
): Promise<AuthorizedApplication[]> {
  const res = await fetch(consentsUrl(proxyUrl, sessionId), {
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'accept-language': language },
  });
  if (!res.ok) throw new AuthorizedApplicationsError(res.status);
  return ((await res.json()) as { data: AuthorizedApplication[] }).data;
}

/** Withdraws the consent; the server revokes the application's codes and tokens for this user at once. */
export async function withdrawAuthorizedApplication(
  proxyUrl: string,
  sessionId: string,
  applicationId: string,
): Promise<void> {
  const res = await fetch(consentsUrl(proxyUrl, sessionId, applicationId), {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  // Already withdrawn (another tab): the list read next shows the truth.
  if (!res.ok && res.status !== 404) throw new AuthorizedApplicationsError(res.status);
}
