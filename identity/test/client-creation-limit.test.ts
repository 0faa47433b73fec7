import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

/**
 * New clients are limited per IP address, whichever route creates them (issue #11, item 11: 3,292
 * clients from one address in 8 s through `PUT /client`).
 */
forEachBackend('the client-creation limit', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { clientCreationsPerIp: 5 } });
  });
  after(() => h.close());

  it('a flood of PUT /client from one IP stops at the limit, while other addresses still get clients', async () => {
    const ip = '10.77.0.1';
    const before = await h.count('clients');
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < 8; i++) {
      const res = await h.browser({ ip }).call('PUT', '/client');
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    assert.equal(refused!.body.errors[0].code, 'too_many_requests');
    assert.ok(Number(refused!.headers['retry-after']) > 0);
    assert.equal(await h.count('clients'), before + 5);

    // A browser that already has its client goes on using it.
    const known = h.browser({ ip: '10.77.0.2' });
    assert.equal((await known.call('PUT', '/client')).status, 200);
    // Another address is not affected; a sign-in that would start a client counts too.
    const fromAfar = await h
      .browser({ ip: '10.77.0.3' })
      .post('/client/sign_ins', { identifier: uniqueEmail() });
    assert.notEqual(fromAfar.status, 429);
    const signIn = await h.browser({ ip }).post('/client/sign_ins', { identifier: uniqueEmail() });
    assert.equal(signIn.status, 429);

    // The window passes.
    h.clock.advance(601);
    assert.equal((await h.browser({ ip }).call('PUT', '/client')).status, 200);
  });
});
