// A client's answer carries a token per signed-in session, minted from the users it already loaded for
// its JSON (sessions/token-subject-of-owner.ts) rather than by token minting's own query. Both must say
// the same: compared here claim by claim, at one instant, in the states that change a token.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodeJwt } from 'jose';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Json } from './support/harness.ts';
import {
  activate,
  addMember,
  createOrganization,
  newMember,
  tokenClaims,
  type Member,
} from './support/organizations.ts';
import { enrolTotp } from './support/second-factors.ts';

forEachBackend("a client's piggy-backed tokens", (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  /** The claims of the member's session token as GET /client carries it, and as token minting mints it. */
  async function bothTokens(member: Member) {
    const client = await member.browser.get('/client');
    assert.equal(client.status, 200, JSON.stringify(client.body));
    const session = (client.body.response.sessions as Json[]).find((s) => s.id === member.sessionId);
    assert.ok(session?.last_active_token, 'the session carries a token');
    return { piggyBacked: decodeJwt(session.last_active_token.jwt), minted: await tokenClaims(member) };
  }

  it('the same claims with no organisation, with one active, with a second factor, and once removed', async () => {
    const admin = await newMember(h, 'subject-admin', { firstName: 'Ada', lastName: 'Lovelace' });
    const member = await newMember(h, 'subject-member', { firstName: 'Grace' });

    let both = await bothTokens(member);
    assert.deepEqual(both.piggyBacked, both.minted);
    assert.equal(both.minted.org_id, undefined);

    const org = await createOrganization(admin, 'Subject Org');
    await addMember(admin, org.id, member, 'org:member');
    await activate(member, org.id);
    both = await bothTokens(member);
    assert.deepEqual(both.piggyBacked, both.minted);
    assert.equal(both.minted.org_id, org.id, 'the organisation is in the token');

    await enrolTotp(h, member.browser);
    both = await bothTokens(member);
    assert.deepEqual(both.piggyBacked, both.minted);

    // Removed while the organisation is still the session's active one: neither token names it.
    const removed = await admin.browser.delete(`/organizations/${org.id}/memberships/${member.userId}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    both = await bothTokens(member);
    assert.deepEqual(both.piggyBacked, both.minted);
    assert.equal(both.minted.org_id, undefined);
  });
});
