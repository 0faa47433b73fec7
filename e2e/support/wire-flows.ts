import assert from 'node:assert/strict';
import { TEST_MODE_CODE, type FapiClient, type Json, type WireResponse } from './fapi-client.ts';

export const WIRE_PASSWORD = 'correct-horse-battery-staple';

export interface WireSession {
  userId: string;
  sessionId: string;
  /** The session token piggy-backed on the answer that opened the session. */
  jwt: string;
}

/** Asserts a 2xx answer, showing the body otherwise. */
export function assertOk(res: WireResponse, what: string) {
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The expected Clerk error: status and first error code. */
export function assertClerkError(res: WireResponse, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body?.errors?.[0]?.code, code, JSON.stringify(res.body));
}

/** `POST /client/sign_ups` with an address and password; the sign-up's id. */
export async function createSignUp(browser: FapiClient, email: string, password = WIRE_PASSWORD) {
  const res = await browser.post('/client/sign_ups', { email_address: email, password });
  assertOk(res, 'create sign-up');
  return { id: res.body.response.id as string, res };
}

export async function prepareEmailCode(browser: FapiClient, signUpId: string) {
  const res = await browser.post(`/client/sign_ups/${signUpId}/prepare_verification`, {
    strategy: 'email_code',
  });
  assertOk(res, 'prepare the email code');
  return res;
}

/** `attempt_verification` with the code; asserts the sign-up completed and returns the new session. */
export async function attemptEmailCode(browser: FapiClient, signUpId: string, code: string) {
  const res = await browser.post(`/client/sign_ups/${signUpId}/attempt_verification`, {
    strategy: 'email_code',
    code,
  });
  assertOk(res, 'attempt the email code');
  assert.equal(res.body.response.status, 'complete');
  return { session: sessionOf(res.body.client, res.body.response.created_session_id), res };
}

/** The whole sign-up of a `+clerk_test` address (code 424242, nothing mailed). */
export async function testModeSignUp(browser: FapiClient, email: string, password = WIRE_PASSWORD) {
  const { id } = await createSignUp(browser, email, password);
  await prepareEmailCode(browser, id);
  return (await attemptEmailCode(browser, id, TEST_MODE_CODE)).session;
}

/** Identifier, then password; asserts the sign-in completed. */
export async function signInWithPassword(browser: FapiClient, email: string, password = WIRE_PASSWORD) {
  const created = await browser.post('/client/sign_ins', { identifier: email });
  assertOk(created, 'create sign-in');
  const attempted = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
    strategy: 'password',
    password,
  });
  assertOk(attempted, 'attempt the password');
  assert.equal(attempted.body.response.status, 'complete');
  return {
    session: sessionOf(attempted.body.client, attempted.body.response.created_session_id),
    created,
    attempted,
  };
}

/** A fresh session token, as clerk-js refreshes it every ~50 s. */
export async function mintToken(browser: FapiClient, sessionId: string) {
  const res = await browser.post(`/client/sessions/${sessionId}/tokens`);
  assertOk(res, 'mint a session token');
  assert.equal(typeof res.body.jwt, 'string');
  return { jwt: res.body.jwt as string, res };
}

function sessionOf(client: Json, sessionId: string): WireSession {
  const session = client?.sessions?.find((s: Json) => s.id === sessionId);
  assert.ok(session, `session ${sessionId} is in the piggy-backed client`);
  return { userId: session.user.id, sessionId, jwt: session.last_active_token.jwt };
}
