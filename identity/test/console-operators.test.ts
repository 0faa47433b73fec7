// The console's Backend API extension (docs/console.md): who is an operator (`console.operators` by id or
// verified address, nobody by default), and the operator header that makes the audit log record a change
// as the operator's, refused when malformed.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { secretKeyFingerprint } from '../src/audit/audit-context.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { enrolTotp } from './support/second-factors.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';

forEachBackend('console operators', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const bapi = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    headers: Record<string, string> = {},
    payload?: unknown,
  ) =>
    h.app.inject({
      method,
      url: `${BAPI}${path}`,
      headers: {
        authorization: `Bearer ${h.identity.secretKey}`,
        'content-type': 'application/json',
        ...headers,
      },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const setOperators = (operators: string[]) =>
    h.identity.settings.set({ ...h.identity.settings.settings, console: { operators } });

  it('answers 404 for everyone while no operator is declared, then for the declared ones only', async () => {
    const browser = h.browser();
    const email = uniqueEmail('operator');
    const { userId } = await signUp(h, browser, email);
    const other = await signUp(h, h.browser(), uniqueEmail('someone'));
    const check = (id: string) => bapi('GET', `/v1/console/operators/${id}`);

    assert.equal((await check(userId)).statusCode, 404);
    await setOperators([email.toUpperCase()]);
    let res = await check(userId);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { object: 'console_operator', user_id: userId, two_factor_enabled: false });
    const refused = await check(other.userId);
    assert.equal(refused.statusCode, 404);
    assert.equal(refused.json().errors[0].code, 'resource_not_found');
    assert.equal((await check('user_doesnotexist')).statusCode, 404);
    assert.equal((await check('../users')).statusCode, 404);

    await enrolTotp(h, browser);
    res = await check(userId);
    assert.equal(res.json().two_factor_enabled, true);

    await setOperators([other.userId]);
    assert.equal((await check(userId)).statusCode, 404);
    assert.equal((await check(other.userId)).statusCode, 200);
    // Without the secret key, nothing.
    const anonymous = await h.app.inject({
      method: 'GET',
      url: `${BAPI}/v1/console/operators/${other.userId}`,
    });
    assert.equal(anonymous.statusCode, 401);
    await setOperators([]);
  });

  it('refuses a settings document whose operators are neither user ids nor addresses', async () => {
    await assert.rejects(setOperators(['not an operator']));
  });

  it('records a change made for an operator as the operator’s, with the key’s fingerprint and the reason', async () => {
    const { userId } = await signUp(h, h.browser(), uniqueEmail('subject'));
    const operator = 'user_operator0000000000000000001';
    const reason = 'Ticket n°42: the user cannot sign in';
    const res = await bapi('POST', `/v1/users/${userId}/lock`, {
      'x-console-operator': operator,
      'x-console-reason': encodeURIComponent(reason),
    });
    assert.equal(res.statusCode, 200, res.body);
    const list = await bapi('GET', `/v1/audit_events?action=user.lock&object_id=${userId}`);
    const [event] = list.json().data as Json[];
    assert.deepEqual(event!.actor, { type: 'operator', id: operator });
    assert.equal(event!.summary.reason, reason);
    assert.equal(event!.summary.secret_key_fingerprint, secretKeyFingerprint(h.identity.secretKey));
    // The security events of the same transaction (the lockout) name the operator too.
    const byOperator = await bapi(
      'GET',
      `/v1/audit_events?actor_type=operator&actor_id=${operator}&limit=50`,
    );
    const actions = (byOperator.json().data as Json[]).map((e) => e.action);
    assert.ok(actions.includes('user.lock') && actions.includes('user.locked_out'), actions.join());
  });

  it('refuses a malformed operator header or reason, and changes nothing', async () => {
    const { userId } = await signUp(h, h.browser(), uniqueEmail('untouched'));
    const malformed: Record<string, string>[] = [
      { 'x-console-operator': 'admin' },
      { 'x-console-operator': `user_${'a'.repeat(80)}` },
      { 'x-console-reason': 'no operator' },
      { 'x-console-operator': 'user_abc', 'x-console-reason': '%E0%A4%A' },
      { 'x-console-operator': 'user_abc', 'x-console-reason': encodeURIComponent('x'.repeat(501)) },
      { 'x-console-operator': 'user_abc', 'x-console-reason': encodeURIComponent('a\nb') },
    ];
    for (const headers of malformed) {
      const res = await bapi('POST', `/v1/users/${userId}/lock`, headers);
      assert.equal(res.statusCode, 422, `${JSON.stringify(headers)}: ${res.body}`);
      assert.ok(res.json().errors[0].code.startsWith('form_param'), res.body);
    }
    const user = await bapi('GET', `/v1/users/${userId}`);
    assert.equal(user.json().locked, false);
    const events = await bapi('GET', `/v1/audit_events?object_id=${userId}&action=user.lock`);
    assert.equal(events.json().total_count, 0);
  });
});
