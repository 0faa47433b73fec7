/** What clerk-js 5.90.0 appends to every Frontend API call. */
export const CLERK_QUERY = '__clerk_api_version=2025-04-10&_clerk_js_version=5.90.0';
export const FAPI = '/__clerk/v1';
export const BENCH_PASSWORD = 'bench-password-123!';

type Json = Record<string, unknown> & { response?: Json; client?: Json; errors?: Json[] };

/** A browser running clerk-js against the product's same-origin Frontend API: cookie jar, Origin, form bodies. */
export class FapiBrowser {
  readonly jar = new Map<string, string>();

  constructor(
    /** Where to connect. */
    readonly origin: string,
    /** The page's origin, sent as Origin. */
    readonly publicUrl: string,
  ) {}

  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** The headers this browser sends on a Frontend API call (with a form body for POST). */
  headers(post: boolean): Record<string, string> {
    return {
      origin: this.publicUrl,
      ...(this.jar.size ? { cookie: this.cookie } : {}),
      ...(post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    };
  }

  async call(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<Json> {
    const res = await fetch(`${this.origin}${FAPI}${path}?${CLERK_QUERY}`, {
      method,
      headers: this.headers(method === 'POST'),
      ...(method === 'POST' ? { body: new URLSearchParams(form ?? {}).toString() } : {}),
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (value === '' || expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const body = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(body.errors)}`);
    return body;
  }
}

export interface SignedInClient {
  browser: FapiBrowser;
  email: string;
  userId: string;
  sessionId: string;
  organizationId: string;
}

/**
 * Signs a new user up through the Frontend API as clerk-js does (email + password, then the emailed code:
 * `+clerk_test` addresses take 424242 in development mode), and, with `organization`, creates an
 * organisation and makes it the session's active one (`createOrganization` then `setActive`).
 */
export async function signUpClient(
  origin: string,
  publicUrl: string,
  label: string,
  opts: { organization: boolean },
): Promise<SignedInClient> {
  const browser = new FapiBrowser(origin, publicUrl);
  await browser.call('GET', '/environment');
  await browser.call('GET', '/client');
  const email = `bench-${label}-${Date.now()}+clerk_test@example.com`;
  const created = await browser.call('POST', '/client/sign_ups', {
    email_address: email,
    password: BENCH_PASSWORD,
  });
  const signUpId = created.response!.id as string;
  await browser.call('POST', `/client/sign_ups/${signUpId}/prepare_verification`, { strategy: 'email_code' });
  const done = await browser.call('POST', `/client/sign_ups/${signUpId}/attempt_verification`, {
    strategy: 'email_code',
    code: '424242',
  });
  const sessionId = done.response!.created_session_id as string;
  const userId = done.response!.created_user_id as string;
  let organizationId = '';
  if (opts.organization) {
    const org = await browser.call('POST', '/organizations', { name: `Bench ${label}` });
    organizationId = org.response!.id as string;
    await browser.call('POST', `/client/sessions/${sessionId}/touch`, {
      active_organization_id: organizationId,
    });
  }
  return { browser, email, userId, sessionId, organizationId };
}

/**
 * `signIn.create()` with identifier and password in one request, from a fresh browser (no cookie): each
 * request creates a client, a sign-in and a session.
 */
export function passwordSignInRequest(c: Pick<SignedInClient, 'browser' | 'email'>) {
  return {
    method: 'POST' as const,
    path: `${FAPI}/client/sign_ins?${CLERK_QUERY}`,
    headers: { origin: c.browser.publicUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      strategy: 'password',
      identifier: c.email,
      password: BENCH_PASSWORD,
    }).toString(),
  };
}

/** `session.getToken()`: POST /client/sessions/{id}/tokens with the active organisation, as clerk-js sends it. */
export function tokenRequest(c: SignedInClient) {
  return {
    method: 'POST' as const,
    path: `${FAPI}/client/sessions/${c.sessionId}/tokens?${CLERK_QUERY}`,
    headers: c.browser.headers(true),
    body: new URLSearchParams({ organization_id: c.organizationId }).toString(),
  };
}

/** A GET of the Frontend API as this browser sends it (its cookie, its Origin): `/client`, `/environment`. */
export function fapiGetRequest(c: Pick<SignedInClient, 'browser'>, path: string) {
  return { method: 'GET' as const, path: `${FAPI}${path}?${CLERK_QUERY}`, headers: c.browser.headers(false) };
}

/** `GET /api/me` with a session token, as the web app calls the product API. */
export function meRequest(token: string) {
  return { method: 'GET' as const, path: '/api/me', headers: { authorization: `Bearer ${token}` } };
}

export async function mintToken(c: SignedInClient): Promise<string> {
  const res = await fetch(`${c.browser.origin}${tokenRequest(c).path}`, {
    method: 'POST',
    headers: c.browser.headers(true),
    body: tokenRequest(c).body,
  });
  const body = (await res.json()) as { jwt?: string };
  if (!res.ok || !body.jwt) throw new Error(`token minting answered ${res.status}`);
  return body.jwt;
}
