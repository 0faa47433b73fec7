import assert from 'node:assert/strict';
import type { Browser, FapiResponse, Harness, Json } from './harness.ts';
import { BAPI } from './harness.ts';
import { signUp } from './flows.ts';

/**
 * The browser at a provider's (or an IdP's) authorization URL; the stand-in approves at once and sends it
 * back: the URL it redirects to.
 */
export async function redirectBackFrom(authorize: string | URL): Promise<string> {
  const res = await fetch(authorize, { redirect: 'manual' });
  const back = res.headers.get('location');
  assert.ok(back, `the provider answered ${res.status}`);
  return back;
}

/** A provider's redirect back to the Frontend API, opened by `browser` (its path and query, on our origin). */
export function openCallback(browser: Browser, url: string): Promise<FapiResponse> {
  const { pathname, search } = new URL(url);
  return browser.raw('GET', `${pathname}${search}`);
}

/** The browser's client as `GET /client` answers it. */
export const clientOf = async (browser: Browser): Promise<Json> =>
  (await browser.get('/client')).body.response;

/** Google as the instance's only social provider, played by a stand-in at `issuer`. */
export async function useGoogle(
  h: Harness,
  google: { clientId: string; secretEnv: string; issuer: string; signUpAllowed?: boolean; oneTap?: boolean },
): Promise<void> {
  await h.identity.settings.set({
    ...h.identity.settings.settings,
    social: {
      oauth_google: {
        clientId: google.clientId,
        clientSecret: { env: google.secretEnv },
        issuer: google.issuer,
        signUpAllowed: google.signUpAllowed ?? true,
        ...(google.oneTap === undefined ? {} : { oneTap: google.oneTap }),
      },
    },
  });
}

/** An organisation made through the Backend API (a unique slug from `name`): its id. */
export async function backendOrganization(h: Harness, name: string): Promise<string> {
  const org = await h.app.inject({
    method: 'POST',
    url: `${BAPI}/v1/organizations`,
    headers: { authorization: `Bearer ${h.identity.secretKey}` },
    payload: { name, slug: `${name.toLowerCase()}-${Date.now().toString(36)}` },
  });
  assert.equal(org.statusCode, 200, org.body);
  return org.json().id;
}

/**
 * A user who signed up with a password before the instance had enterprise connections: the address's
 * domain was nobody's then (today <SignUp/> sends such an address to its IdP). Tests in a file run one
 * after the other, so lifting the connections for the sign-up touches no other test.
 */
export async function signUpBeforeConnections(h: Harness, browser: Browser, email: string) {
  const settings = h.identity.settings.settings;
  await h.identity.settings.set({ ...settings, enterpriseConnections: {} });
  try {
    return await signUp(h, browser, email);
  } finally {
    await h.identity.settings.set(settings);
  }
}
