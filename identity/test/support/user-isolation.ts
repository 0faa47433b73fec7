import assert from 'node:assert/strict';
import { uniqueEmail, type FapiResponse, type Harness } from './harness.ts';
import { PNG, uploadImage } from './images.ts';
import { newMember, type Member } from './organizations.ts';
import { enrolTotp, totpCode, type Enrolled } from './second-factors.ts';
import { addVerifiedPhone, uniquePhone } from './sms.ts';
import { PASSWORD } from './flows.ts';

/**
 * The user-scoped half of the Frontend API tenant-isolation table: a signed-in attacker names another
 * user's resources (a session, an address, a number, a sign-in or sign-up of another browser) by id,
 * or asks to act as another user's session (`_clerk_session_id`, which clerk-js sends on every call).
 */

/** Another user with one of everything a profile can hold, and a sign-in and a sign-up in flight elsewhere. */
export interface Victim extends Member {
  primaryEmailId: string;
  /** An address added from the profile, its code mailed and not yet entered. */
  pendingEmail: { id: string; address: string };
  phone: { id: string; number: string };
  pendingPhone: { id: string; number: string };
  totp: Enrolled;
  /** The victim's sign-in on another browser, waiting for the second factor. */
  signInId: string;
  /** Someone's sign-up on a third browser, its code mailed. */
  signUpId: string;
  signUpEmail: string;
  /** An organisation the victim administers. */
  organizationId: string;
  /** A provider account connected to the victim (written directly: no provider is configured here). */
  externalAccountId: string;
  /** A passkey of the victim's (written directly: the test instance has passkeys off). */
  passkeyId: string;
  /** A web3 wallet of the victim's, being verified (written directly: the test instance has web3 off). */
  web3WalletId: string;
  /** An OAuth application the victim allowed (written directly, with its consent). */
  oauthApplicationId: string;
}

export async function setUpVictim(h: Harness, member: Member, organizationId: string): Promise<Victim> {
  const { browser } = member;
  const me = await browser.get('/me');
  assert.equal(me.status, 200, JSON.stringify(me.body));
  const primaryEmailId: string = me.body.response.primary_email_address_id;

  const address = uniqueEmail('victim-second');
  const added = await browser.post('/me/email_addresses/', { email_address: address });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const pendingEmailId: string = added.body.response.id;
  const mailed = await browser.post(`/me/email_addresses/${pendingEmailId}/prepare_verification`, {
    strategy: 'email_code',
  });
  assert.equal(mailed.status, 200, JSON.stringify(mailed.body));

  const number = uniquePhone();
  const phone = await addVerifiedPhone(h, browser, number);
  const pendingNumber = uniquePhone();
  const pending = await browser.post('/me/phone_numbers/', { phone_number: pendingNumber });
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  const texted = await browser.post(`/me/phone_numbers/${pending.body.response.id}/prepare_verification`, {
    strategy: 'phone_code',
  });
  assert.equal(texted.status, 200, JSON.stringify(texted.body));

  const totp = await enrolTotp(h, browser);
  const image = await uploadImage(h, browser, '/me/profile_image', { file: PNG, type: 'image/png' });
  assert.equal(image.status, 200, JSON.stringify(image.body));

  const elsewhere = h.browser();
  const signIn = await elsewhere.post('/client/sign_ins', { identifier: member.email });
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  const passed = await elsewhere.post(`/client/sign_ins/${signIn.body.response.id}/attempt_first_factor`, {
    strategy: 'password',
    password: PASSWORD,
  });
  assert.equal(passed.body.response?.status, 'needs_second_factor', JSON.stringify(passed.body));

  const stranger = h.browser();
  const signUpEmail = uniqueEmail('stranger');
  const signUp = await stranger.post('/client/sign_ups', { email_address: signUpEmail, password: PASSWORD });
  assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
  const prepared = await stranger.post(`/client/sign_ups/${signUp.body.response.id}/prepare_verification`, {
    strategy: 'email_code',
  });
  assert.equal(prepared.status, 200, JSON.stringify(prepared.body));

  return {
    ...member,
    primaryEmailId,
    pendingEmail: { id: pendingEmailId, address },
    phone: { id: phone.id, number },
    pendingPhone: { id: pending.body.response.id, number: pendingNumber },
    totp,
    signInId: signIn.body.response.id,
    signUpId: signUp.body.response.id,
    signUpEmail,
    organizationId,
    externalAccountId: await connectExternalAccount(h, member.userId),
    passkeyId: await registerPasskeyRow(h, member.userId),
    web3WalletId: await addWeb3WalletRow(h, member.userId),
    oauthApplicationId: await allowOAuthApplication(h, member.userId),
  };
}

async function connectExternalAccount(h: Harness, userId: string): Promise<string> {
  const id = `eac_isolation${userId.slice(-12)}`;
  const now = new Date();
  await h.db.query(
    `INSERT INTO external_accounts (id, user_id, provider, provider_user_id, email_address, email_verified,
       created_at, updated_at)
     VALUES ($1, $2, 'oauth_google', $3, NULL, false, $4, $4)`,
    [id, userId, `isolation-${userId}`, now],
  );
  return id;
}

async function registerPasskeyRow(h: Harness, userId: string): Promise<string> {
  const id = `idn_isolation${userId.slice(-12)}`;
  const now = new Date();
  await h.db.query(
    `INSERT INTO passkeys (id, user_id, name, credential_id, public_key, verified_at, created_at, updated_at)
     VALUES ($1, $2, 'Victim laptop', $3, '\\x00'::bytea, $4, $4, $4)`,
    [id, userId, `cred-${userId}`, now],
  );
  return id;
}

async function allowOAuthApplication(h: Harness, userId: string): Promise<string> {
  const id = `oa_isolation${userId.slice(-12)}`;
  const now = new Date();
  await h.db.query(
    `INSERT INTO oauth_applications (id, client_id, name, public, scopes, redirect_uris, secret_hash,
       created_at, updated_at)
     VALUES ($1, $1, 'Victim app', true, 'openid email', '[]', NULL, $2, $2)`,
    [id, now],
  );
  await h.db.query(
    `INSERT INTO oauth_consents (user_id, application_id, scopes, created_at, updated_at)
     VALUES ($1, $2, 'openid email', $3, $3)`,
    [userId, id, now],
  );
  return id;
}

async function addWeb3WalletRow(h: Harness, userId: string): Promise<string> {
  const id = `idn_web3isolation${userId.slice(-12)}`;
  const now = new Date();
  const verification = {
    status: 'unverified',
    strategy: 'web3_metamask_signature',
    attempts: 0,
    expire_at: now.getTime() + 600_000,
    message: 'victim-nonce',
  };
  await h.db.query(
    `INSERT INTO web3_wallets (id, user_id, web3_wallet, strategy, verification, created_at, updated_at)
     VALUES ($1, $2, $3, 'web3_metamask_signature', $4, $5, $5)`,
    [id, userId, `0x${userId.slice(-12).padStart(40, '0')}`, JSON.stringify(verification), now],
  );
  return id;
}

/** Everything stored about the victim (and the sign-up in flight) that an attack could change. */
export async function userSnapshot(h: Harness, v: Victim): Promise<string> {
  const rows = (sql: string, params: unknown[]) => h.db.query(sql, params);
  return JSON.stringify({
    user: await rows('SELECT * FROM users WHERE id = $1', [v.userId]),
    emails: await rows('SELECT * FROM email_addresses WHERE user_id = $1 ORDER BY id', [v.userId]),
    phones: await rows('SELECT * FROM phone_numbers WHERE user_id = $1 ORDER BY id', [v.userId]),
    sessions: await rows('SELECT * FROM sessions WHERE user_id = $1 ORDER BY id', [v.userId]),
    totp: await rows('SELECT * FROM totp_secrets WHERE user_id = $1', [v.userId]),
    backupCodes: await rows('SELECT * FROM backup_codes WHERE user_id = $1 ORDER BY code_hash', [v.userId]),
    image: await rows('SELECT id, type, created_at FROM user_images WHERE user_id = $1', [v.userId]),
    memberships: await rows('SELECT * FROM organization_memberships WHERE user_id = $1 ORDER BY id', [
      v.userId,
    ]),
    signIn: await rows('SELECT * FROM sign_ins WHERE id = $1', [v.signInId]),
    signUp: await rows('SELECT * FROM sign_ups WHERE id = $1', [v.signUpId]),
    codes: await rows(
      `SELECT subject, attempts, consumed_at FROM verification_codes
       WHERE subject LIKE $1 OR subject LIKE $2 OR subject LIKE $3 OR subject LIKE $4 ORDER BY id`,
      [`%${v.signInId}%`, `%${v.signUpId}%`, `%${v.pendingEmail.id}%`, `%${v.pendingPhone.id}%`],
    ),
    reverifications: await rows('SELECT * FROM session_verifications WHERE session_id = $1 ORDER BY id', [
      v.sessionId,
    ]),
    externalAccounts: await rows('SELECT * FROM external_accounts WHERE user_id = $1 ORDER BY id', [
      v.userId,
    ]),
    passkeys: await rows('SELECT * FROM passkeys WHERE user_id = $1 ORDER BY id', [v.userId]),
    web3Wallets: await rows('SELECT * FROM web3_wallets WHERE user_id = $1 ORDER BY id', [v.userId]),
    oauthConsents: await rows('SELECT * FROM oauth_consents WHERE user_id = $1 ORDER BY application_id', [
      v.userId,
    ]),
  });
}

/** What no answer to someone else may contain. */
export function userSecrets(v: Victim): string[] {
  return [
    v.userId,
    v.email,
    v.pendingEmail.address,
    v.phone.number,
    v.pendingPhone.number,
    v.totp.secret,
    ...v.totp.backupCodes,
    v.signUpEmail,
  ];
}

/** `not_found`: 404 resource_not_found. `own`: any answer but a 5xx, about the caller alone. */
export type UserExpectation = 'not_found' | 'own';

export interface UserCase {
  /** `METHOD path` exactly as in `fapiRoutes()`; `+ …` marks extra cases for the same route. */
  route: string;
  expect: UserExpectation;
  /**
   * `query` is `{}` or `{ _clerk_session_id: <the victim's session> }`; `session` cases are only run
   * with the latter (with the caller's own session they would legitimately act on the caller).
   */
  via: 'path' | 'session' | 'both';
  call: (h: Harness, v: Victim, attacker: Member, query: Record<string, string>) => Promise<FapiResponse>;
}

export const USER_CASES: UserCase[] = [
  // Billing as the victim's session (fapi/billing/): refused before any payer is looked at.
  {
    route: 'GET /me/commerce/subscription',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/subscription', q),
  },
  {
    route: 'GET /me/commerce/subscriptions',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/subscriptions', q),
  },
  {
    route: 'DELETE /me/commerce/subscription_items/:id',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.call('DELETE', '/me/commerce/subscription_items/csubi_victims', undefined, q),
  },
  {
    route: 'GET /me/commerce/statements',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/statements', q),
  },
  {
    route: 'GET /me/commerce/statements/:id',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/statements/cstmt_victims', q),
  },
  {
    route: 'GET /me/commerce/payment_attempts',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/payment_attempts', q),
  },
  {
    route: 'GET /me/commerce/payment_attempts/:id',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/payment_attempts/cpa_victims', q),
  },
  {
    route: 'POST /me/commerce/checkouts',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user', plan_period: 'month' }, q),
  },
  {
    route: 'PATCH /me/commerce/checkouts/:id/confirm',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.call('PATCH', '/me/commerce/checkouts/cchk_victims/confirm', { use_test_card: 'true' }, q),
  },
  {
    route: 'POST /me/commerce/payment_sources/initialize',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }, q),
  },
  {
    route: 'POST /me/commerce/payment_sources',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post('/me/commerce/payment_sources', { gateway: 'stripe', payment_token: 'pm_x' }, q),
  },
  {
    route: 'GET /me/commerce/payment_sources',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/commerce/payment_sources', q),
  },
  {
    route: 'DELETE /me/commerce/payment_sources/:id',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.call('DELETE', '/me/commerce/payment_sources/cps_victims', undefined, q),
  },
  {
    route: 'PUT /me/commerce/payers/default_payment_source',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.call('PUT', '/me/commerce/payers/default_payment_source', { payment_source_id: 'cps_x' }, q),
  },
  // Another browser's sign-in, by id (the victim's, one factor away from a session).
  {
    route: 'GET /client/sign_ins/:id',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) => a.browser.get(`/client/sign_ins/${v.signInId}`, q),
  },
  {
    route: 'POST /client/sign_ins/:id/prepare_first_factor',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sign_ins/${v.signInId}/prepare_first_factor`,
        { strategy: 'email_code', email_address_id: v.primaryEmailId },
        q,
      ),
  },
  {
    route: 'POST /client/sign_ins/:id/attempt_first_factor',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sign_ins/${v.signInId}/attempt_first_factor`,
        { strategy: 'password', password: PASSWORD },
        q,
      ),
  },
  {
    route: 'POST /client/sign_ins/:id/reset_password',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(`/client/sign_ins/${v.signInId}/reset_password`, { password: 'taken over entirely' }, q),
  },
  {
    route: 'POST /client/sign_ins/:id/prepare_second_factor',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(`/client/sign_ins/${v.signInId}/prepare_second_factor`, { strategy: 'phone_code' }, q),
  },
  {
    route: 'POST /client/sign_ins/:id/attempt_second_factor',
    expect: 'not_found',
    via: 'path',
    // Even the right authenticator code: the sign-in is not this browser's.
    call: (h, v, a, q) =>
      a.browser.post(
        `/client/sign_ins/${v.signInId}/attempt_second_factor`,
        { strategy: 'totp', code: totpCode(v.totp.secret, h.clock.now) },
        q,
      ),
  },
  // Another browser's sign-up, by id.
  {
    route: 'GET /client/sign_ups/:id',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) => a.browser.get(`/client/sign_ups/${v.signUpId}`, q),
  },
  {
    route: 'PATCH /client/sign_ups/:id',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.call('PATCH', `/client/sign_ups/${v.signUpId}`, { email_address: uniqueEmail('hijack') }, q),
  },
  {
    route: 'POST /client/sign_ups/:id/prepare_verification',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(`/client/sign_ups/${v.signUpId}/prepare_verification`, { strategy: 'email_code' }, q),
  },
  {
    route: 'POST /client/sign_ups/:id/attempt_verification',
    expect: 'not_found',
    via: 'path',
    call: async (h, v, a, q) =>
      a.browser.post(
        `/client/sign_ups/${v.signUpId}/attempt_verification`,
        { strategy: 'email_code', code: await h.latestCode(v.signUpEmail) },
        q,
      ),
  },
  // Another user's session, by id.
  {
    route: 'POST /client/sessions/:id/touch',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.post(`/client/sessions/${v.sessionId}/touch`, {}, q),
  },
  {
    route: 'POST /client/sessions/:id/tokens',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.post(`/client/sessions/${v.sessionId}/tokens`, {}, q),
  },
  {
    route: 'POST /client/sessions/:id/tokens/:template',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.post(`/client/sessions/${v.sessionId}/tokens/default`, {}, q),
  },
  {
    route: 'POST /client/sessions/:id/end',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.post(`/client/sessions/${v.sessionId}/end`, {}, q),
  },
  {
    route: 'POST /client/sessions/:id/remove',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.post(`/client/sessions/${v.sessionId}/remove`, {}, q),
  },
  {
    route: 'POST /client/sessions/:id/verify',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(`/client/sessions/${v.sessionId}/verify`, { level: 'first_factor' }, q),
  },
  {
    route: 'POST /client/sessions/:id/verify/prepare_first_factor',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sessions/${v.sessionId}/verify/prepare_first_factor`,
        { strategy: 'email_code', email_address_id: v.primaryEmailId },
        q,
      ),
  },
  {
    route: 'POST /client/sessions/:id/verify/attempt_first_factor',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sessions/${v.sessionId}/verify/attempt_first_factor`,
        { strategy: 'password', password: PASSWORD },
        q,
      ),
  },
  {
    route: 'POST /client/sessions/:id/verify/prepare_second_factor',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sessions/${v.sessionId}/verify/prepare_second_factor`,
        { strategy: 'phone_code', phone_number_id: v.phone.id },
        q,
      ),
  },
  {
    route: 'POST /client/sessions/:id/verify/attempt_second_factor',
    expect: 'not_found',
    via: 'both',
    call: (h, v, a, q) =>
      a.browser.post(
        `/client/sessions/${v.sessionId}/verify/attempt_second_factor`,
        { strategy: 'totp', code: totpCode(v.totp.secret, h.clock.now) },
        q,
      ),
  },
  {
    route: 'POST /me/sessions/:id/revoke',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.post(`/me/sessions/${v.sessionId}/revoke`, {}, q),
  },
  // Another user's addresses and numbers, by id.
  {
    route: 'GET /me/email_addresses/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.get(`/me/email_addresses/${v.primaryEmailId}`, q),
  },
  {
    route: 'POST /me/email_addresses/:id/prepare_verification',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/me/email_addresses/${v.pendingEmail.id}/prepare_verification`,
        { strategy: 'email_code' },
        q,
      ),
  },
  {
    route: 'POST /me/email_addresses/:id/attempt_verification',
    expect: 'not_found',
    via: 'both',
    call: async (h, v, a, q) =>
      a.browser.post(
        `/me/email_addresses/${v.pendingEmail.id}/attempt_verification`,
        { code: await h.latestCode(v.pendingEmail.address) },
        q,
      ),
  },
  {
    route: 'DELETE /me/email_addresses/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.call('DELETE', `/me/email_addresses/${v.pendingEmail.id}`, undefined, q),
  },
  {
    route: 'GET /me/phone_numbers/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.get(`/me/phone_numbers/${v.phone.id}`, q),
  },
  {
    route: 'POST /me/phone_numbers/:id/prepare_verification',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/me/phone_numbers/${v.pendingPhone.id}/prepare_verification`,
        { strategy: 'phone_code' },
        q,
      ),
  },
  {
    route: 'POST /me/phone_numbers/:id/attempt_verification',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(`/me/phone_numbers/${v.pendingPhone.id}/attempt_verification`, { code: '123456' }, q),
  },
  {
    route: 'PATCH /me/phone_numbers/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.call('PATCH', `/me/phone_numbers/${v.phone.id}`, { reserved_for_second_factor: 'true' }, q),
  },
  {
    route: 'DELETE /me/phone_numbers/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.call('DELETE', `/me/phone_numbers/${v.phone.id}`, undefined, q),
  },
  // The caller's "own" account routes, asked to act as the victim's session.
  {
    route: 'GET /me',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me', q),
  },
  {
    route: 'PATCH /me',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.call('PATCH', '/me', { first_name: 'Mallory' }, q),
  },
  {
    route: 'DELETE /me',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.call('DELETE', '/me', undefined, q),
  },
  {
    route: 'POST /me/change_password',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post(
        '/me/change_password',
        { current_password: PASSWORD, new_password: 'taken over entirely' },
        q,
      ),
  },
  {
    route: 'POST /me/remove_password',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/remove_password', { current_password: PASSWORD }, q),
  },
  {
    route: 'POST /me/profile_image',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/profile_image', {}, q),
  },
  {
    route: 'DELETE /me/profile_image',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.call('DELETE', '/me/profile_image', undefined, q),
  },
  {
    route: 'POST /me/email_addresses',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post('/me/email_addresses', { email_address: uniqueEmail('planted') }, q),
  },
  {
    route: 'GET /me/sessions/active',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/sessions/active', q),
  },
  {
    route: 'PATCH /me/external_accounts/:id/reauthorize',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.call(
        'PATCH',
        `/me/external_accounts/${v.externalAccountId}/reauthorize`,
        { redirect_url: 'http://localhost:3000/user' },
        q,
      ),
  },
  {
    route: 'DELETE /me/external_accounts/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.call('DELETE', `/me/external_accounts/${v.externalAccountId}`, undefined, q),
  },
  {
    route: 'POST /me/external_accounts',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post(
        '/me/external_accounts',
        { strategy: 'oauth_google', redirect_url: 'http://localhost:3000/user' },
        q,
      ),
  },
  {
    route: 'POST /me/phone_numbers',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/phone_numbers', { phone_number: uniquePhone() }, q),
  },
  {
    route: 'POST /me/totp',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/totp', {}, q),
  },
  {
    route: 'POST /me/totp/attempt_verification',
    expect: 'not_found',
    via: 'session',
    call: (h, v, a, q) =>
      a.browser.post('/me/totp/attempt_verification', { code: totpCode(v.totp.secret, h.clock.now) }, q),
  },
  {
    route: 'DELETE /me/totp',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.call('DELETE', '/me/totp', undefined, q),
  },
  // OAuth consents (fapi/me/oauth-consents/): the victim's allowed application, or acting as their session.
  {
    route: 'GET /me/oauth_consents',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/oauth_consents', q),
  },
  {
    route: 'GET /me/oauth_consents/:application_id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.get(`/me/oauth_consents/${v.oauthApplicationId}`, q),
  },
  {
    route: 'DELETE /me/oauth_consents/:application_id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.call('DELETE', `/me/oauth_consents/${v.oauthApplicationId}`, undefined, q),
  },
  // An interaction is tied to the browser that started it (oauth-provider.test.ts); here, the session.
  {
    route: 'GET /me/oauth_consent/:uid',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/oauth_consent/someinteraction', q),
  },
  {
    route: 'POST /me/oauth_consent/:uid/decision',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) =>
      a.browser.post('/me/oauth_consent/someinteraction/decision', { allow: 'true' }, q),
  },
  {
    route: 'POST /me/passkeys',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/passkeys', {}, q),
  },
  {
    route: 'POST /me/passkeys/:id/attempt_verification',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/me/passkeys/${v.passkeyId}/attempt_verification`,
        { strategy: 'passkey', public_key_credential: '{}' },
        q,
      ),
  },
  {
    route: 'PATCH /me/passkeys/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.call('PATCH', `/me/passkeys/${v.passkeyId}`, { name: 'Taken' }, q),
  },
  {
    route: 'DELETE /me/passkeys/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.call('DELETE', `/me/passkeys/${v.passkeyId}`, undefined, q),
  },
  {
    route: 'POST /client/sign_ins/:id/attempt_first_factor + passkey',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sign_ins/${v.signInId}/attempt_first_factor`,
        { strategy: 'passkey', public_key_credential: '{}' },
        q,
      ),
  },
  {
    route: 'POST /me/web3_wallets',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/web3_wallets', { web3_wallet: `0x${'ab'.repeat(20)}` }, q),
  },
  {
    route: 'GET /me/web3_wallets/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.get(`/me/web3_wallets/${v.web3WalletId}`, q),
  },
  {
    route: 'POST /me/web3_wallets/:id/prepare_verification',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/me/web3_wallets/${v.web3WalletId}/prepare_verification`,
        { strategy: 'web3_metamask_signature' },
        q,
      ),
  },
  {
    route: 'POST /me/web3_wallets/:id/attempt_verification',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/me/web3_wallets/${v.web3WalletId}/attempt_verification`,
        { signature: `0x${'11'.repeat(65)}` },
        q,
      ),
  },
  {
    route: 'DELETE /me/web3_wallets/:id',
    expect: 'not_found',
    via: 'both',
    call: (_h, v, a, q) => a.browser.call('DELETE', `/me/web3_wallets/${v.web3WalletId}`, undefined, q),
  },
  {
    route: 'POST /client/sign_ins/:id/attempt_first_factor + web3',
    expect: 'not_found',
    via: 'path',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/client/sign_ins/${v.signInId}/attempt_first_factor`,
        { strategy: 'web3_metamask_signature', signature: `0x${'11'.repeat(65)}` },
        q,
      ),
  },
  {
    route: 'POST /me/backup_codes',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/me/backup_codes', {}, q),
  },
  {
    route: 'POST /organizations',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.post('/organizations', { name: 'Planted on the victim' }, q),
  },
  // The victim is B's admin: their session must not lend the attacker their rights in B.
  {
    route: 'GET /organizations/:id + as the victim',
    expect: 'not_found',
    via: 'session',
    call: (_h, v, a, q) => a.browser.get(`/organizations/${v.organizationId}`, q),
  },
  {
    route: 'PATCH /organizations/:id + as the victim',
    expect: 'not_found',
    via: 'session',
    call: (_h, v, a, q) =>
      a.browser.call('PATCH', `/organizations/${v.organizationId}`, { name: 'Taken over' }, q),
  },
  {
    route: 'POST /organizations/:id/memberships + as the victim',
    expect: 'not_found',
    via: 'session',
    call: (_h, v, a, q) =>
      a.browser.post(
        `/organizations/${v.organizationId}/memberships`,
        { user_id: a.userId, role: 'org:admin' },
        q,
      ),
  },
  {
    route: 'GET /me/organization_memberships + as the victim',
    expect: 'not_found',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/me/organization_memberships', { ...q, paginated: 'true' }),
  },
  // The browser's own client: answered about the caller whatever session is named.
  {
    route: 'GET /client',
    expect: 'own',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.get('/client', q),
  },
  {
    route: 'PUT /client',
    expect: 'own',
    via: 'session',
    call: (_h, _v, a, q) => a.browser.call('PUT', '/client', {}, q),
  },
  {
    route: 'DELETE /client/sessions',
    expect: 'own',
    via: 'session',
    // A throwaway browser of the attacker's: this signs it out.
    call: async (h, _v, _a, q) =>
      (await newMember(h, 'throwaway')).browser.call('DELETE', '/client/sessions', undefined, q),
  },
  {
    route: 'DELETE /client',
    expect: 'own',
    via: 'session',
    call: async (h, _v, _a, q) =>
      (await newMember(h, 'throwaway')).browser.call('DELETE', '/client', undefined, q),
  },
];

/**
 * Routes that name nothing of anyone else: instance settings, starting a sign-in or sign-up (anyone
 * may), and links whose secret token is the whole authorisation (covered by their own tests).
 */
export const UNSCOPED_ROUTES: Record<string, string> = {
  'GET /commerce/plans': "the instance's plans, public (<PricingTable/> signed out; billing-fapi.test.ts)",
  'GET /commerce/plans/:id': "one of the instance's plans, public (billing-fapi.test.ts)",
  'GET /environment': 'the instance settings, public',
  'PATCH /environment': 'the instance settings, public',
  'POST /dev_browser': 'hands out a new, empty client',
  'GET /client/handshake':
    "the cookie directives of the caller's own client (its credential is the authorisation), sent only to the instance's own origins (handshake.test.ts)",
  'GET /client/sync':
    "reads the caller's own client (its credential is the authorisation) and sends a link only to a satellite domain of this instance (satellites.test.ts)",
  'GET /client/link':
    'a link token of this instance, single-use, for the satellite it was issued to; another instance finds none (satellites.test.ts)',
  'POST /client/sign_ins': 'starts a sign-in; rate limits and lockout in brute-force.test.ts',
  'POST /client/sign_ups': 'starts a sign-up',
  'POST /waitlist':
    'joins the waitlist: no id of anyone is named, and the answer is the same whoever joined before (waitlist.test.ts)',
  'POST /commerce/offline_gateway/setup_intents/confirm':
    "the offline gateway's card form: the setup intent's client secret is the authorisation, and the method it makes attaches only to that intent's payer (billing-offline-gateway.test.ts, billing-domain.test.ts)",
  'POST /client/verify':
    "the captcha modal's answer: a pass for the caller's own client only (captcha.test.ts)",
  'GET /captcha/challenge': 'a signed proof-of-work challenge, the same for anyone (captcha.test.ts)',
  'GET /verify': 'the email link: its token is the authorisation (email-link.test.ts)',
  'GET /tickets/accept': 'the invitation link: its ticket is the authorisation (tickets.test.ts)',
  'GET /oauth_callback':
    "the provider's redirect: its state, bound to the browser's client, is the authorisation (social-oauth.test.ts)",
  'POST /oauth_callback':
    'a form_post provider: only redirected to the GET callback, nothing read or written (social-oauth-form-post.test.ts)',
  'POST /saml/acs/:connectionId':
    "the SAML ACS: the response must answer an AuthnRequest of ours, signed by the connection's IdP; no cookie is read (enterprise-sso-saml.test.ts)",
  'GET /saml/acs/:connectionId':
    "the ACS's handoff: single use, bound to the browser's client and sign-in (enterprise-sso-saml.test.ts)",
};

/** Why the RFC 7592 configuration endpoint names nothing of anyone else (client-management.ts). */
const REGISTRATION_MANAGEMENT =
  "RFC 7592: names a registered application, answered only to its own registration access token; another client's token, an unknown client or an operator's application is the same 401 (oauth-provider-client-management.test.ts)";

/**
 * The routes beside the Frontend API plugin (src/fapi/beside-routes.ts), each with why it cannot name
 * anything of another user or organisation. tenant-isolation.test.ts checks every declared one is here,
 * and calls each with B's ids in its path and body as A.
 */
export const BESIDE_ROUTES: Record<string, string> = {
  'GET /v1/social_logos/:file': 'a fixed set of logos in memory, public; reads no cookie and no database',
  'GET /v1/saml/metadata/:file':
    "an enabled SAML connection's SP metadata, public as hosted Clerk's (enterprise-sso-saml.test.ts); names no user",
  'POST /v1/commerce/stripe/webhook':
    "Stripe's deliveries: the signature with the instance's webhook secret is the only credential (billing-stripe.test.ts)",
  'GET /oauth/authorize':
    "an OAuth client's authorization request: acts only for the signed-in user of the caller's own client, after their consent (oauth-provider.test.ts)",
  'POST /oauth/authorize': 'the same, form_post',
  'GET /oauth/authorize/:uid':
    "the resume after the consent page: the interaction is bound to the browser that started it (oidc-provider's cookie)",
  'POST /oauth/token':
    "the client's own credential, and a code or refresh token issued to that client (oauth-provider.test.ts)",
  'GET /oauth/userinfo': 'the bearer access token is the authorisation: answers its own user only',
  'POST /oauth/userinfo': 'the same, form body',
  'POST /oauth/token_info':
    "introspection: the client's own credential; a token of another client is answered inactive (oauth-provider.test.ts)",
  'POST /oauth/token/revoke': "revocation: the client's own credential, and only its own tokens",
  'GET /oauth/jwks': "the instance's public keys, public",
  'GET /.well-known/openid-configuration': 'the discovery document, public',
  'GET /.well-known/oauth-authorization-server': 'the discovery document (RFC 8414 name), public',
  'POST /oauth/register':
    'dynamic client registration: makes a new application, names none (oauth-provider-registration.test.ts)',
  'GET /oauth/register/:clientId': REGISTRATION_MANAGEMENT,
  'PUT /oauth/register/:clientId': REGISTRATION_MANAGEMENT,
  'DELETE /oauth/register/:clientId': REGISTRATION_MANAGEMENT,
};
