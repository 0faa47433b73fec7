import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import { secondFactorStates } from '../src/second-factors/second-factor-state.ts';
import { membershipsOfUsers, organizationsByIds } from '../src/store/organizations.ts';
import { phoneNumbersOf } from '../src/store/phone-numbers.ts';
import { externalAccountsOf } from '../src/store/external-accounts.ts';
import { enterpriseAccountsOf } from '../src/store/enterprise-sso.ts';
import { web3WalletsOfUser } from '../src/store/web3-wallets.ts';
import { passkeySummariesOf } from '../src/store/passkeys.ts';
import { emailAddressesOf, findUserById } from '../src/store/users.ts';
import { loadUsers, type Owner } from '../src/users/load-users.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

/** What loadUsers folds into fewer queries, read one store function at a time. */
async function ownerPieceByPiece(db: Queryable, id: string): Promise<Owner> {
  const memberships = await membershipsOfUsers(db, [id]);
  return {
    user: (await findUserById(db, id))!,
    emails: (await emailAddressesOf(db, [id])).get(id) ?? [],
    phones: (await phoneNumbersOf(db, [id])).get(id) ?? [],
    memberships,
    organizations: await organizationsByIds(
      db,
      memberships.map((m) => m.organization_id),
    ),
    secondFactors: (await secondFactorStates(db, [id])).get(id)!,
    externalAccounts: await externalAccountsOf(db, [id]),
    enterpriseAccounts: await enterpriseAccountsOf(db, [id]),
    web3Wallets: await web3WalletsOfUser(db, id),
    passkeys: await passkeySummariesOf(db, id),
    // These users never subscribe (billing-claims.test.ts reads plans through loadUsers).
    billingPlans: [],
  };
}

forEachBackend('loadUsers', (backend) => {
  let h: Harness;
  let member: string;
  let loner: string;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);

  before(async () => {
    process.on('warning', onWarning);
    h = await Harness.start(backend);
    const browser = h.browser();
    member = (await signUp(h, browser, uniqueEmail('member'))).userId;
    for (const name of ['First org', 'Second org']) {
      const res = await browser.post('/organizations', { name });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    loner = (await signUp(h, h.browser(), uniqueEmail('loner'))).userId;
    // What the JSON path of the one-statement read must bring back as the tables' own queries do: an
    // address still being verified (its verification object keeps its strings), a second-factor number,
    // timestamps with microseconds.
    await h.db.query(
      `INSERT INTO email_addresses (id, user_id, email_address, verification, created_at, updated_at)
       VALUES ('idn_second', $1, $2, $3::jsonb, now(), now())`,
      [
        member,
        uniqueEmail('second'),
        JSON.stringify({
          status: 'unverified',
          strategy: 'email_code',
          attempts: 0,
          expire_at: 1_900_000_000_000,
        }),
      ],
    );
    await h.db.query(
      `INSERT INTO phone_numbers (id, user_id, phone_number, verified_at, reserved_for_second_factor,
                                  default_second_factor, created_at, updated_at)
       VALUES ('idn_phone', $1, '+15555550100', now(), true, true, now(), now())`,
      [member],
    );
    await h.db.query(
      `INSERT INTO web3_wallets (id, user_id, web3_wallet, strategy, verification, created_at, updated_at)
       VALUES ('idn_web3', $1, '0x52908400098527886E0F7030069857D2E4169EE7', 'web3_metamask_signature',
               $2::jsonb, now(), now())`,
      [member, JSON.stringify({ status: 'unverified', strategy: 'web3_metamask_signature', message: 'n' })],
    );
  });
  after(async () => {
    process.off('warning', onWarning);
    await h.close();
  });

  it('gives what the store functions give one by one: user, addresses, memberships with their organisations, second factors', async () => {
    const owners = await loadUsers(h.db, [member, loner, member, 'user_missing']);
    assert.deepEqual([...owners.keys()].sort(), [member, loner].sort());
    const got = owners.get(member)!;
    assert.equal(got.memberships.length, 2);
    assert.equal(got.organizations.size, 2);
    assert.equal(got.emails.length, 2);
    assert.equal(got.phones.length, 1);
    assert.equal(got.web3Wallets.length, 1);
    assert.ok(got.phones[0]!.created_at instanceof Date);
    assert.equal(got.secondFactors.phones.length, 1);
    assert.deepEqual(got, await ownerPieceByPiece(h.db, member));
    const alone = owners.get(loner)!;
    assert.deepEqual(alone.memberships, []);
    assert.deepEqual(
      { ...alone, organizations: null },
      {
        ...(await ownerPieceByPiece(h.db, loner)),
        organizations: null,
      },
    );
    assert.equal('sf_totp' in got.user, false, 'the second-factor columns are not left on the user row');
  });

  // Every Frontend API answer with a client loads its users inside the request's transaction.
  it('inside a transaction too: its queries, sent together, take turns on the one connection', async () => {
    const owners = await h.db.transaction((tx) => loadUsers(tx, [member, loner]));
    assert.deepEqual(owners.get(member), (await loadUsers(h.db, [member])).get(member));
    assert.deepEqual(
      warnings.filter((w) => /already executing a query/.test(w)),
      [],
      'pg queued them itself (deprecated in pg 8)',
    );
  });
});
