import assert from 'node:assert/strict';
import type { Browser, Harness, Json } from './harness.ts';

export const PASSWORD = 'correct horse battery';

export interface SignedIn {
  userId: string;
  sessionId: string;
  /** The piggy-backed `last_active_token` of the new session. */
  jwt: string;
  client: Json;
}

/** The whole email + password + emailed-code sign-up, asserting each step succeeds. */
export async function signUp(
  h: Harness,
  browser: Browser,
  email: string,
  opts: { password?: string; firstName?: string; lastName?: string; username?: string } = {},
): Promise<SignedIn> {
  const form: Record<string, string> = { email_address: email, password: opts.password ?? PASSWORD };
  if (opts.firstName !== undefined) form.first_name = opts.firstName;
  if (opts.lastName !== undefined) form.last_name = opts.lastName;
  if (opts.username !== undefined) form.username = opts.username;
  const created = await browser.post('/client/sign_ups', form);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id: string = created.body.response.id;
  const prepared = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
    strategy: 'email_code',
  });
  assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
  const code = await h.latestCode(email);
  const attempted = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
    strategy: 'email_code',
    code,
  });
  assert.equal(attempted.status, 200, JSON.stringify(attempted.body));
  assert.equal(attempted.body.response.status, 'complete');
  return sessionOf(attempted.body.client, attempted.body.response.created_session_id);
}

/** Identifier first, then the password (the two-step flow of the sign-in card). */
export async function signInWithPassword(
  browser: Browser,
  email: string,
  password = PASSWORD,
): Promise<SignedIn> {
  const created = await browser.post('/client/sign_ins', { identifier: email });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const attempted = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
    strategy: 'password',
    password,
  });
  assert.equal(attempted.status, 200, JSON.stringify(attempted.body));
  assert.equal(attempted.body.response.status, 'complete');
  return sessionOf(attempted.body.client, attempted.body.response.created_session_id);
}

function sessionOf(client: Json, sessionId: string): SignedIn {
  const session = client.sessions.find((s: Json) => s.id === sessionId);
  assert.ok(session, `session ${sessionId} is in the piggy-backed client`);
  return { userId: session.user.id, sessionId, jwt: session.last_active_token.jwt, client };
}
