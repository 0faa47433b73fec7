import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { apiKeysCall, sessionJwt } from './support/api-keys.ts';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { createOrganization, newMember, type Member } from './support/organizations.ts';
import { enrolTotp } from './support/second-factors.ts';
import { addVerifiedPhone, uniquePhone } from './support/sms.ts';

interface Customer {
  userId: string;
  emailId: string;
  phoneId: string;
  own: Browser;
}

type Call = [method: 'post' | 'patch' | 'delete', path: string, form?: Record<string, string>];

/** Every request that changes how the user proves who they are (issue #11, item 13). */
function credentialCalls(c: Customer): Call[] {
  return [
    ['post', '/me/change_password', { new_password: 'an operator chose this one' }],
    ['post', '/me/remove_password'],
    ['patch', '/me', { username: 'taken_over' }],
    ['patch', '/me', { primary_email_address_id: c.emailId }],
    ['patch', '/me', { primary_phone_number_id: c.phoneId }],
    ['post', '/me/email_addresses', { email_address: uniqueEmail('operator-owned') }],
    ['delete', `/me/email_addresses/${c.emailId}`],
    ['post', `/me/email_addresses/${c.emailId}/prepare_verification`, { strategy: 'email_code' }],
    ['post', `/me/email_addresses/${c.emailId}/attempt_verification`, { code: '123456' }],
    ['post', '/me/phone_numbers', { phone_number: uniquePhone() }],
    ['delete', `/me/phone_numbers/${c.phoneId}`],
    ['patch', `/me/phone_numbers/${c.phoneId}`, { reserved_for_second_factor: 'true' }],
    ['post', `/me/phone_numbers/${c.phoneId}/prepare_verification`, { strategy: 'phone_code' }],
    ['post', `/me/phone_numbers/${c.phoneId}/attempt_verification`, { code: '123456' }],
    ['post', '/me/totp'],
    ['post', '/me/totp/attempt_verification', { code: '123456' }],
    ['delete', '/me/totp'],
    ['post', '/me/backup_codes'],
    // Last: the user's own session runs these for real.
    ['delete', '/me'],
  ];
}

const send = (browser: Browser, [method, path, form]: Call): Promise<FapiResponse> =>
  method === 'delete' ? browser.delete(path) : browser[method](path, form ?? {});

forEachBackend('an impersonation session cannot change credentials', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let operatorId: string;
  before(async () => {
    h = await Harness.start(backend, { config: { deleteSelfEnabled: true } });
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      apiKeys: { enabled: true, userKeys: true, organizationKeys: true },
    });
    clerk = await backendApiClient(h);
    operatorId = (await signUp(h, h.browser(), uniqueEmail('operator'))).userId;
  });
  after(() => h.close());
  // @clerk/backend checks token times against the real clock; a fresh rate-limit window each time.
  beforeEach(() => h.clock.set(new Date()));

  /** A user with an authenticator app and a verified phone number, signed in on their own browser. */
  async function customer(): Promise<Customer> {
    const own = h.browser();
    const { userId, client } = await signUp(h, own, uniqueEmail('customer'));
    const phone = await addVerifiedPhone(h, own, uniquePhone());
    await enrolTotp(h, own);
    return { userId, emailId: client.sessions[0].user.email_addresses[0].id, phoneId: phone.id, own };
  }

  async function impersonate(c: Customer): Promise<{ browser: Browser; res: FapiResponse }> {
    const token = await clerk.actorTokens.create({ userId: c.userId, actor: { sub: operatorId } });
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', { strategy: 'ticket', ticket: token.token! });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { browser, res };
  }

  /** What a credential change would touch: the user and their identifiers and factors. */
  async function credentials(userId: string): Promise<string> {
    const rows = await Promise.all(
      [
        'users WHERE id = $1',
        ...['email_addresses', 'phone_numbers', 'totp_secrets', 'backup_codes'].map(
          (t) => `${t} WHERE user_id = $1`,
        ),
      ].map((from) => h.db.query(`SELECT * FROM ${from} ORDER BY 1`, [userId])),
    );
    return JSON.stringify(rows);
  }

  it('the actor token needs no second factor of the user, and the session says none was proven (fva -1)', async () => {
    const c = await customer();
    const { res } = await impersonate(c);
    assert.equal(res.body.response.status, 'complete');
    const session = res.body.client.sessions.find(
      (s: { id: string }) => s.id === res.body.response.created_session_id,
    );
    assert.deepEqual(session.actor, { sub: operatorId });
    assert.deepEqual(session.factor_verification_age, [0, -1]);
  });

  it('every credential route answers 403 not_allowed_access to the actor and changes nothing', async () => {
    const c = await customer();
    const { browser } = await impersonate(c);
    const before = await credentials(c.userId);
    for (const call of credentialCalls(c)) {
      const res = await send(browser, call);
      assert.equal(res.status, 403, `${call[0]} ${call[1]}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].code, 'not_allowed_access', `${call[0]} ${call[1]}`);
      assert.match(res.body.errors[0].long_message, /impersonation/);
    }
    assert.equal(await credentials(c.userId), before);
  });

  it('the actor may still read the account and change what is not a credential', async () => {
    const c = await customer();
    const { browser } = await impersonate(c);
    assert.equal((await browser.get('/me')).status, 200);
    const named = await browser.patch('/me', { first_name: 'Helped' });
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.equal(named.body.response.first_name, 'Helped');
  });

  /** The user as an operator acts for them: a signed-in Member on the impersonation's browser. */
  async function actingFor(user: Member): Promise<Member> {
    const token = await clerk.actorTokens.create({ userId: user.userId, actor: { sub: operatorId } });
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', { strategy: 'ticket', ticket: token.token! });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ...user, browser, sessionId: res.body.response.created_session_id };
  }

  it('API keys: the actor may list them, but creating, revealing or revoking one is 403 not_allowed_access', async () => {
    const user = await newMember(h, 'key-owner');
    const org = await createOrganization(user, 'Keys of a customer');
    const own = await sessionJwt(user);
    const made = await Promise.all(
      [user.userId, org.id].map((subject) =>
        apiKeysCall(h, own, 'POST', '/api_keys', { type: 'api_key', name: 'ci', subject }),
      ),
    );
    const keyIds = made.map((res) => {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.response.id as string;
    });
    const rows = () => h.db.query('SELECT * FROM api_keys WHERE id = ANY($1) ORDER BY id', [keyIds]);
    const before = JSON.stringify(await rows());

    const actor = await actingFor(user);
    const token = await sessionJwt(actor);
    for (const [i, subject] of [user.userId, org.id].entries()) {
      const listed = await apiKeysCall(h, token, 'GET', '/api_keys', undefined, { subject, limit: '100' });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.api_keys.map((k: { id: string }) => k.id),
        [keyIds[i]],
      );
      const refused = [
        await apiKeysCall(h, token, 'POST', '/api_keys', { type: 'api_key', name: 'backdoor', subject }),
        await apiKeysCall(h, token, 'GET', `/api_keys/${keyIds[i]}/secret`),
        await apiKeysCall(h, token, 'POST', `/api_keys/${keyIds[i]}/revoke`, {}),
      ];
      for (const res of refused) {
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].code, 'not_allowed_access');
        assert.match(res.body.errors[0].long_message, /impersonation/);
        assert.equal(JSON.stringify(res.body).includes('ak_'), false, 'no secret, no key in the refusal');
      }
    }
    assert.equal(
      JSON.stringify(await rows()),
      before,
      'no key created, revealed keys unchanged, none revoked',
    );
    assert.equal(await h.count('api_keys', 'user_id = $1 OR organization_id = $2', [user.userId, org.id]), 2);

    // The user's own session still manages them.
    const revealed = await apiKeysCall(h, own, 'GET', `/api_keys/${keyIds[0]}/secret`);
    assert.equal(revealed.status, 200, JSON.stringify(revealed.body));
  });

  it('what the actor makes names the actor: an organisation’s creator, an invitation’s inviter', async () => {
    const user = await newMember(h, 'helped');
    const actor = await actingFor(user);
    const created = await actor.browser.post('/organizations', { name: 'Made by support' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const org = created.body.response;
    assert.equal(org.created_by, operatorId);
    // The user owns it all the same: its admin, as if they had made it.
    const [membership] = await h.db.query<{ user_id: string; role: string }>(
      'SELECT user_id, role FROM organization_memberships WHERE organization_id = $1',
      [org.id],
    );
    assert.deepEqual(membership, { user_id: user.userId, role: 'org:admin' });

    const invited = await actor.browser.post(`/organizations/${org.id}/invitations`, {
      email_address: uniqueEmail('invited-by-support'),
      role: 'org:member',
    });
    assert.equal(invited.status, 200, JSON.stringify(invited.body));
    const bulk = await actor.browser.post(`/organizations/${org.id}/invitations/bulk`, {
      email_address: uniqueEmail('bulk-by-support'),
      role: 'org:member',
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    const inviters = await h.db.query<{ inviter_user_id: string }>(
      'SELECT inviter_user_id FROM organization_invitations WHERE organization_id = $1',
      [org.id],
    );
    assert.deepEqual(
      inviters.map((r) => r.inviter_user_id),
      [operatorId, operatorId],
    );

    // Made by the user in their own session, they name the user.
    const mine = await user.browser.post('/organizations', { name: 'Made by the user' });
    assert.equal(mine.body.response.created_by, user.userId);
  });

  it('the user’s own session is not refused by the guard, even while an impersonation is open', async () => {
    const c = await customer();
    await impersonate(c);
    const renamed = await c.own.patch('/me', { username: 'still_mine' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    for (const call of credentialCalls(c)) {
      const res = await send(c.own, call);
      assert.notEqual(res.body.errors?.[0]?.code, 'not_allowed_access', `${call[0]} ${call[1]}`);
    }
    assert.equal(await h.count('users', 'id = $1', [c.userId]), 0, 'the user deleted their own account');
  });
});
