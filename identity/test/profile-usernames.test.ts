import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { assertError } from './support/organizations.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Json } from './support/harness.ts';

forEachBackend('usernames: sign-up, sign-in and the profile', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  let counter = 0;
  const uniqueUsername = (prefix = 'user') => `${prefix}_${Date.now().toString(36)}${++counter}`;

  it('the environment offers the username: optional at sign-up, a sign-in identifier, 4 to 64 characters', async () => {
    const env = (await h.browser().get('/environment')).body;
    const username = env.user_settings.attributes.username;
    assert.equal(username.enabled, true);
    assert.equal(username.required, false);
    assert.equal(username.used_for_first_factor, true);
    assert.deepEqual(env.user_settings.username_settings, { min_length: 4, max_length: 64 });
  });

  it('a sign-up keeps the username, lowercased, and the user has it', async () => {
    const name = uniqueUsername('Ada.Lovelace');
    const created = await h.browser().post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
      username: name,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.response.username, name.toLowerCase());
    assert.ok(created.body.response.optional_fields.includes('username'));

    const { client } = await signUp(h, h.browser(), uniqueEmail(), { username: `${name}x` });
    assert.equal(client.sessions[0].user.username, `${name}x`.toLowerCase());
  });

  it('a username of the wrong length or with other characters is refused with Clerk’s codes', async () => {
    const create = (username: string) =>
      h.browser().post('/client/sign_ups', { email_address: uniqueEmail(), password: PASSWORD, username });
    assertError(await create('abc'), 422, 'form_username_invalid_length', 'username');
    assertError(await create('a'.repeat(65)), 422, 'form_username_invalid_length', 'username');
    assertError(await create('ada lovelace'), 422, 'form_username_invalid_character', 'username');
    assertError(await create('ada@home'), 422, 'form_username_invalid_character', 'username');
    assertError(await create('adélaïde'), 422, 'form_username_invalid_character', 'username');
    assert.equal((await create('a'.repeat(64))).status, 200);
  });

  it('a username is unique whatever its case: form_identifier_exists (param username)', async () => {
    const name = uniqueUsername('taken');
    await signUp(h, h.browser(), uniqueEmail(), { username: name });
    assertError(
      await h.browser().post('/client/sign_ups', {
        email_address: uniqueEmail(),
        password: PASSWORD,
        username: name.toUpperCase(),
      }),
      422,
      'form_identifier_exists',
      'username',
    );
  });

  it('two sign-ups waiting on one username: the one that completes second is refused', async () => {
    const name = uniqueUsername('race');
    const first = h.browser();
    const second = h.browser();
    const emailA = uniqueEmail();
    const emailB = uniqueEmail();
    const a = await first.post('/client/sign_ups', {
      email_address: emailA,
      password: PASSWORD,
      username: name,
    });
    const b = await second.post('/client/sign_ups', {
      email_address: emailB,
      password: PASSWORD,
      username: name,
    });
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    for (const [browser, res, email] of [
      [first, a, emailA],
      [second, b, emailB],
    ] as const) {
      await browser.post(`/client/sign_ups/${res.body.response.id}/prepare_verification`, {
        strategy: 'email_code',
      });
      const attempted = await browser.post(`/client/sign_ups/${res.body.response.id}/attempt_verification`, {
        strategy: 'email_code',
        code: await h.latestCode(email),
      });
      if (browser === first) assert.equal(attempted.status, 200, JSON.stringify(attempted.body));
      else assertError(attempted, 422, 'form_identifier_exists', 'username');
    }
  });

  it('signs in with the username and the password', async () => {
    const name = uniqueUsername('pw');
    const { userId } = await signUp(h, h.browser(), uniqueEmail(), { username: name });
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: name.toUpperCase() });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.response.supported_identifiers, [
      'email_address',
      'phone_number',
      'username',
    ]);
    const done = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.client.sessions[0].user.id, userId);
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: uniqueUsername('nobody') }),
      422,
      'form_identifier_not_found',
      'identifier',
    );
  });

  it('signs in with the username and a code sent to the primary address, which is shown masked', async () => {
    const name = uniqueUsername('code');
    const email = uniqueEmail('coded');
    const { client } = await signUp(h, h.browser(), email, { username: name });
    const primaryId = client.sessions[0].user.primary_email_address_id;
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: name });
    const codeFactors = created.body.response.supported_first_factors.filter(
      (f: Json) => f.strategy === 'email_code',
    );
    assert.equal(codeFactors.length, 1);
    assert.equal(codeFactors[0].email_address_id, primaryId);
    assert.equal(codeFactors[0].safe_identifier, `${email[0]}***@example.com`);
    const id = created.body.response.id;
    const prepared = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'email_code',
      email_address_id: primaryId,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const done = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
  });

  it('PATCH /me sets, changes and removes the username; a taken or invalid one changes nothing', async () => {
    const browser = h.browser();
    const { userId } = await signUp(h, browser, uniqueEmail());
    const mine = uniqueUsername('Mine');
    const set = await browser.patch('/me', { username: mine });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.response.username, mine.toLowerCase());
    assert.equal(set.body.client.sessions[0].user.username, mine.toLowerCase(), 'the client follows');

    const theirs = uniqueUsername('theirs');
    await signUp(h, h.browser(), uniqueEmail(), { username: theirs });
    assertError(
      await browser.patch('/me', { username: theirs.toUpperCase() }),
      422,
      'form_identifier_exists',
      'username',
    );
    assertError(
      await browser.patch('/me', { username: 'no' }),
      422,
      'form_username_invalid_length',
      'username',
    );
    assertError(
      await browser.patch('/me', { username: 'no way' }),
      422,
      'form_username_invalid_character',
      'username',
    );
    const [row] = await h.db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [
      userId,
    ]);
    assert.equal(row!.username, mine.toLowerCase());

    // Setting one's own username again (any case) is no conflict.
    assert.equal((await browser.patch('/me', { username: mine.toUpperCase() })).status, 200);
    const cleared = await browser.patch('/me', { username: '' });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.response.username, null);
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: mine }),
      422,
      'form_identifier_not_found',
    );
  });
});
