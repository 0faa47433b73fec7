import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { decodeJwt } from 'jose';
import { besideRoutes } from '../src/fapi/beside-routes.ts';
import { fapiRoutes } from '../src/fapi/route-table.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, testConfig, uniqueEmail, type FapiResponse, type Json } from './support/harness.ts';
import {
  addMember,
  createOrganization,
  newMember,
  PNG,
  putLogo,
  type Member,
} from './support/organizations.ts';
import { apiKeysOf } from './support/api-keys.ts';
import { enableBilling, subscribe, subscriptionOf } from './support/billing-world.ts';
import {
  BESIDE_ROUTES,
  setUpVictim,
  UNSCOPED_ROUTES,
  USER_CASES,
  userSecrets,
  userSnapshot,
  type Victim,
} from './support/user-isolation.ts';

/**
 * Tenant isolation, table-driven: a user of organisation A (its admin, with every permission there, or
 * a plain member) calls every organisation-scoped Frontend API route on organisation B, by id and by
 * slug. Each call must answer 404 (or, for the user's own lists, leave B out) and B must be unchanged.
 * A new organisation-scoped route without a row here fails the first test.
 *
 * The same for the user-scoped routes (support/user-isolation.ts): an attacker names another user's
 * session, address, number, sign-in or sign-up by id, or asks to act as their session; every route of
 * the Frontend API has a row in one of the two tables or is listed there as naming nothing of anyone.
 */

interface Tenant {
  org: Json;
  admin: Member;
  member: Member;
}

interface World {
  h: Harness;
  a: Tenant;
  b: Tenant;
  /** A pending invitation of B, to an address nobody in A has. */
  invitationId: string;
  /** B's admin, with a full profile and a sign-in and a sign-up in flight on other browsers. */
  victim: Victim;
  /** B's billing: its paid item, a statement and payment of it, its card, and a checkout in flight. */
  billing: { itemId: string; statementId: string; paymentId: string; sourceId: string; checkoutId: string };
}

type Expectation = 'not_found' | 'forbidden' | 'no_leak';

interface Case {
  /** `METHOD path` exactly as in `fapiRoutes()`; `+ …` marks extra cases for the same route. */
  route: string;
  expect: Expectation;
  /** When A's plain member calls it (they lack A's manage permissions), if different. */
  asMember?: Expectation;
  /** `target` is B's id or slug. */
  call: (w: World, attacker: Member, target: string) => Promise<FapiResponse>;
}

const CASES: Case[] = [
  {
    route: 'GET /organizations/:id',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}`),
  },
  {
    route: 'PATCH /organizations/:id',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.patch(`/organizations/${t}`, { name: 'Taken over', slug: 'taken-over' }),
  },
  {
    route: 'DELETE /organizations/:id',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.delete(`/organizations/${t}`),
  },
  {
    route: 'PUT /organizations/:id/logo',
    expect: 'not_found',
    call: (w, u, t) => putLogo(w.h, u, t, { file: PNG, type: 'image/png' }),
  },
  {
    route: 'DELETE /organizations/:id/logo',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.delete(`/organizations/${t}/logo`),
  },
  {
    route: 'GET /organizations/:id/roles',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/roles`),
  },
  {
    route: 'GET /organizations/:id/memberships',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/memberships`, { paginated: 'true' }),
  },
  {
    route: 'POST /organizations/:id/memberships',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/organizations/${t}/memberships`, { user_id: u.userId, role: 'org:admin' }),
  },
  {
    route: 'PATCH /organizations/:id/memberships/:userId',
    expect: 'not_found',
    call: (w, u, t) =>
      u.browser.patch(`/organizations/${t}/memberships/${w.b.member.userId}`, { role: 'org:admin' }),
  },
  {
    route: 'DELETE /organizations/:id/memberships/:userId',
    expect: 'not_found',
    call: (w, u, t) => u.browser.delete(`/organizations/${t}/memberships/${w.b.admin.userId}`),
  },
  {
    route: 'GET /organizations/:id/invitations',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/invitations`, { status: 'pending' }),
  },
  {
    route: 'POST /organizations/:id/invitations',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/organizations/${t}/invitations`, { email_address: u.email, role: 'org:admin' }),
  },
  {
    route: 'POST /organizations/:id/invitations/bulk',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/organizations/${t}/invitations/bulk`, { email_address: u.email, role: 'org:admin' }),
  },
  {
    route: 'POST /organizations/:id/invitations/:invitationId/revoke',
    expect: 'not_found',
    call: (w, u, t) => u.browser.post(`/organizations/${t}/invitations/${w.invitationId}/revoke`),
  },
  {
    route: 'DELETE /me/organization_memberships/:id',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.delete(`/me/organization_memberships/${t}`),
  },
  {
    route: 'GET /me/organization_memberships',
    expect: 'no_leak',
    call: (_w, u) => u.browser.get('/me/organization_memberships', { paginated: 'true', limit: '500' }),
  },
  {
    route: 'GET /me/organization_suggestions',
    expect: 'no_leak',
    call: (_w, u) => u.browser.get('/me/organization_suggestions', { status: 'pending,accepted' }),
  },
  {
    route: 'GET /me/organization_invitations',
    expect: 'no_leak',
    call: (_w, u) => u.browser.get('/me/organization_invitations', { status: 'pending', limit: '500' }),
  },
  {
    route: 'POST /me/organization_invitations/:id/accept',
    expect: 'not_found',
    call: (w, u) => u.browser.post(`/me/organization_invitations/${w.invitationId}/accept`),
  },
  // B's members and invitations named through A's own path.
  {
    route: 'PATCH /organizations/:id/memberships/:userId + B member through A',
    expect: 'not_found',
    asMember: 'forbidden',
    call: (w, u) =>
      u.browser.patch(`/organizations/${w.a.org.id}/memberships/${w.b.admin.userId}`, { role: 'org:member' }),
  },
  {
    route: 'DELETE /organizations/:id/memberships/:userId + B member through A',
    expect: 'not_found',
    asMember: 'forbidden',
    call: (w, u) => u.browser.delete(`/organizations/${w.a.org.id}/memberships/${w.b.member.userId}`),
  },
  {
    route: 'POST /organizations/:id/invitations/:invitationId/revoke + B invitation through A',
    expect: 'not_found',
    asMember: 'forbidden',
    call: (w, u) => u.browser.post(`/organizations/${w.a.org.id}/invitations/${w.invitationId}/revoke`),
  },
  // Routes that name an organisation in the body.
  // Billing (fapi/billing/): B's subscription, statements, payments, checkout and card, by B's ids.
  {
    route: 'GET /organizations/:organizationId/commerce/subscription',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/commerce/subscription`),
  },
  {
    route: 'GET /organizations/:organizationId/commerce/subscriptions',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/commerce/subscriptions`),
  },
  {
    route: 'DELETE /organizations/:organizationId/commerce/subscription_items/:id',
    expect: 'not_found',
    call: (w, u, t) =>
      u.browser.delete(`/organizations/${t}/commerce/subscription_items/${w.billing.itemId}`),
  },
  {
    route: 'GET /organizations/:organizationId/commerce/statements',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/commerce/statements`),
  },
  {
    route: 'GET /organizations/:organizationId/commerce/statements/:id',
    expect: 'not_found',
    call: (w, u, t) => u.browser.get(`/organizations/${t}/commerce/statements/${w.billing.statementId}`),
  },
  {
    route: 'GET /organizations/:organizationId/commerce/payment_attempts',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/commerce/payment_attempts`),
  },
  {
    route: 'GET /organizations/:organizationId/commerce/payment_attempts/:id',
    expect: 'not_found',
    call: (w, u, t) => u.browser.get(`/organizations/${t}/commerce/payment_attempts/${w.billing.paymentId}`),
  },
  {
    route: 'POST /organizations/:organizationId/commerce/checkouts',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/organizations/${t}/commerce/checkouts`, {
        plan_id: 'cplan_team',
        plan_period: 'month',
      }),
  },
  {
    route: 'PATCH /organizations/:organizationId/commerce/checkouts/:id/confirm',
    expect: 'not_found',
    call: (w, u, t) =>
      u.browser.patch(`/organizations/${t}/commerce/checkouts/${w.billing.checkoutId}/confirm`, {
        payment_source_id: w.billing.sourceId,
      }),
  },
  {
    route: 'POST /organizations/:organizationId/commerce/payment_sources/initialize',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/organizations/${t}/commerce/payment_sources/initialize`, { gateway: 'stripe' }),
  },
  {
    route: 'POST /organizations/:organizationId/commerce/payment_sources',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/organizations/${t}/commerce/payment_sources`, {
        gateway: 'stripe',
        payment_token: 'pm_x',
      }),
  },
  {
    route: 'GET /organizations/:organizationId/commerce/payment_sources',
    expect: 'not_found',
    call: (_w, u, t) => u.browser.get(`/organizations/${t}/commerce/payment_sources`),
  },
  {
    route: 'DELETE /organizations/:organizationId/commerce/payment_sources/:id',
    expect: 'not_found',
    call: (w, u, t) => u.browser.delete(`/organizations/${t}/commerce/payment_sources/${w.billing.sourceId}`),
  },
  {
    route: 'PUT /organizations/:organizationId/commerce/payers/default_payment_source',
    expect: 'not_found',
    call: (w, u, t) =>
      u.browser.call('PUT', `/organizations/${t}/commerce/payers/default_payment_source`, {
        payment_source_id: w.billing.sourceId,
      }),
  },
  {
    route: 'POST /client/sessions/:id/touch + active_organization_id',
    expect: 'not_found',
    call: (_w, u, t) =>
      u.browser.post(`/client/sessions/${u.sessionId}/touch`, { active_organization_id: t }),
  },
  {
    route: 'POST /client/sessions/:id/tokens + organization_id',
    expect: 'no_leak',
    call: (_w, u, t) => u.browser.post(`/client/sessions/${u.sessionId}/tokens`, { organization_id: t }),
  },
];

/** Routes that concern an organisation: its path names one, or it is one of the user's organisation lists. */
function organizationScoped(path: string): boolean {
  return /\/organizations\/:|\/me\/organization_/.test(path);
}

it('every organisation-scoped Frontend API route has a tenant-isolation case', () => {
  const routes = fapiRoutes(testConfig())
    .filter((r) => organizationScoped(r.path))
    .map((r) => `${r.method} ${r.path}`);
  const covered = new Set(CASES.map((c) => c.route.split(' + ')[0]!));
  const missing = routes.filter((r) => !covered.has(r));
  assert.deepEqual(missing, [], `add a case to tenant-isolation.test.ts for: ${missing.join(', ')}`);
  const all = new Set(fapiRoutes(testConfig()).map((r) => `${r.method} ${r.path}`));
  const stale = [...covered].filter((r) => !all.has(r));
  assert.deepEqual(stale, [], 'cases for routes that no longer exist');
});

it('every Frontend API route has a tenant-isolation case or is listed as naming nothing of anyone', () => {
  // Development instance keys add /dev_browser.
  const all = new Set(
    [...fapiRoutes(testConfig()), ...fapiRoutes(testConfig({ instanceKeys: 'development' }))].map(
      (r) => `${r.method} ${r.path}`,
    ),
  );
  const covered = new Set([
    ...CASES.map((c) => c.route.split(' + ')[0]!),
    ...USER_CASES.map((c) => c.route.split(' + ')[0]!),
    ...Object.keys(UNSCOPED_ROUTES),
  ]);
  const missing = [...all].filter((r) => !covered.has(r));
  assert.deepEqual(missing, [], `add a case to support/user-isolation.ts for: ${missing.join(', ')}`);
  const stale = [...covered].filter((r) => !all.has(r));
  assert.deepEqual(stale, [], 'cases for routes that no longer exist');
});

it('every route beside the Frontend API plugin is listed with why it names nothing of anyone', () => {
  const all = besideRoutes.map((r) => `${r.method} ${r.path}`);
  const missing = all.filter((k) => !(k in BESIDE_ROUTES));
  assert.deepEqual(missing, [], `add a reason to BESIDE_ROUTES in support/user-isolation.ts for: ${missing}`);
  const stale = Object.keys(BESIDE_ROUTES).filter((k) => !all.includes(k));
  assert.deepEqual(stale, [], 'reasons for routes that no longer exist');
});

forEachBackend('tenant isolation', (backend) => {
  let w: World;
  let bSnapshot: string;
  let victimSnapshot: string;
  before(async () => {
    const h = await Harness.start(backend);
    await enableBilling(h);
    const tenant = async (label: string): Promise<Tenant> => {
      const admin = await newMember(h, `${label}-admin`);
      const member = await newMember(h, `${label}-member`);
      const org = await createOrganization(admin, `${label} ${randomBytes(4).toString('hex')}`);
      await addMember(admin, org.id, member, 'org:member');
      return { org, admin, member };
    };
    const a = await tenant('alpha');
    const b = await tenant('bravo');
    const invited = await b.admin.browser.post(`/organizations/${b.org.id}/invitations`, {
      email_address: uniqueEmail('bravo-invitee'),
      role: 'org:member',
    });
    assert.equal(invited.status, 200, JSON.stringify(invited.body));
    const victim = await setUpVictim(h, b.admin, b.org.id);
    w = { h, a, b, invitationId: invited.body.response.id, victim, billing: await billingOf(b) };
    bSnapshot = await snapshot(w);
    victimSnapshot = await userSnapshot(h, victim);
  });
  after(() => w.h.close());

  /** B subscribes with a card; a second checkout stays unconfirmed. */
  async function billingOf(b: Tenant): Promise<World['billing']> {
    await subscribe(b.admin, 'cplan_business', { orgId: b.org.id });
    const scope = `/organizations/${b.org.id}/commerce`;
    const sub = await subscriptionOf(b.admin, b.org.id);
    const item = sub.subscription_items.find((i: Json) => i.plan.slug === 'business');
    const statement = (await b.admin.browser.get(`${scope}/statements`)).body.response.data[0];
    const payment = (await b.admin.browser.get(`${scope}/payment_attempts`)).body.data[0];
    const source = (await b.admin.browser.get(`${scope}/payment_sources`)).body.response.data[0];
    const checkout = (
      await b.admin.browser.post(`${scope}/checkouts`, { plan_id: 'cplan_team', plan_period: 'annual' })
    ).body.response;
    assert.ok(item && statement && payment && source && checkout, 'B has billing');
    return {
      itemId: item.id,
      statementId: statement.id,
      paymentId: payment.id,
      sourceId: source.id,
      checkoutId: checkout.id,
    };
  }

  /** Everything stored about B that an attack could change. */
  async function snapshot({ h, b }: World): Promise<string> {
    const org = await h.db.query(
      'SELECT id, name, slug, image_type, public_metadata, updated_at FROM organizations WHERE id = $1',
      [b.org.id],
    );
    const members = await h.db.query(
      'SELECT user_id, role, updated_at FROM organization_memberships WHERE organization_id = $1 ORDER BY user_id',
      [b.org.id],
    );
    const invitations = await h.db.query(
      'SELECT id, email_address, role, status, updated_at FROM organization_invitations WHERE organization_id = $1 ORDER BY id',
      [b.org.id],
    );
    const billing = await h.db.query(
      `SELECT i.id, i.status, i.canceled_at, i.plan_slug, p.default_payment_source_id,
              (SELECT count(*) FROM billing_payment_attempts a WHERE a.payer_id = p.id) AS attempts,
              (SELECT count(*) FROM billing_payment_sources s WHERE s.payer_id = p.id AND s.removed_at IS NULL) AS sources,
              (SELECT string_agg(c.status, ',' ORDER BY c.id) FROM billing_checkouts c WHERE c.payer_id = p.id) AS checkouts
       FROM billing_payers p JOIN billing_subscription_items i ON i.payer_id = p.id
       WHERE p.organization_id = $1 ORDER BY i.id`,
      [b.org.id],
    );
    return JSON.stringify({ org, members, invitations, billing });
  }

  /** B's identifiers that must never appear in an answer to someone outside B. */
  function secrets({ b }: World): string[] {
    return [b.org.id, b.org.slug, b.org.name, b.admin.userId, b.admin.email, b.member.email];
  }

  it("A's admin, with their cookies, gets nothing of B from any route beside the plugin, and B is unchanged", async () => {
    const attacker = w.a.admin;
    const fapiPath = w.h.config.fapiPath;
    for (const route of besideRoutes) {
      const key = `${route.method} ${route.path}`;
      for (const target of [w.b.org.id, w.b.admin.userId, w.victim.signInId]) {
        const path = route.path.replace(/:\w+/g, (name) =>
          name === ':file' ? `${target}${route.path.includes('saml') ? '.xml' : '.svg'}` : target,
        );
        // B's ids as every parameter an OAuth client could name (an account, a client, a token).
        const form = {
          client_id: target,
          sub: target,
          token: target,
          user_id: target,
          organization_id: target,
        };
        const res =
          route.method === 'GET'
            ? await attacker.browser.raw('GET', `${fapiPath}${path}?${new URLSearchParams(form)}`)
            : await attacker.browser.raw('POST', `${fapiPath}${path}`, form);
        const label = `${key} with ${target}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        assert.ok(res.status < 500, label);
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? null);
        for (const secret of secrets(w).filter((s) => s !== target)) {
          assert.ok(!text.includes(secret), `${label}: answers ${secret}`);
        }
      }
    }
    assert.equal(await snapshot(w), bSnapshot, 'B changed');
    assert.equal(await userSnapshot(w.h, w.victim), victimSnapshot, "B's admin changed");
  });

  for (const role of ['admin', 'member'] as const) {
    it(`A's ${role} gets 404 from every organisation-scoped route on B, and B is unchanged`, async () => {
      const attacker = w.a[role];
      for (const c of CASES) {
        for (const target of [w.b.org.id, w.b.org.slug]) {
          const res = await c.call(w, attacker, target);
          const label = `${c.route} on ${target} as A's ${role}`;
          const expect = (role === 'member' && c.asMember) || c.expect;
          if (expect === 'not_found') {
            assert.equal(res.status, 404, `${label}: ${JSON.stringify(res.body)}`);
            assert.equal(res.body.errors[0].code, 'resource_not_found', label);
          } else if (expect === 'forbidden') {
            // Refused by their role in A before B's member or invitation is even looked up.
            assert.equal(res.status, 403, `${label}: ${JSON.stringify(res.body)}`);
            assert.equal(res.body.errors[0].code, 'not_allowed_access', label);
          } else {
            assert.equal(res.status, 200, `${label}: ${JSON.stringify(res.body)}`);
          }
          // The piggy-backed client is the caller's own; nothing in the answer may name B.
          const text = JSON.stringify(res.body);
          for (const secret of secrets(w))
            assert.equal(text.includes(secret), false, `${label} leaks ${secret}`);
          if (typeof res.body?.jwt === 'string') {
            const claims = decodeJwt(res.body.jwt);
            assert.equal(claims.org_id, undefined, `${label}: token names B`);
          }
        }
      }
      assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
      // And A's attacker is still exactly where they were.
      const mine = await w.h.db.query<{ organization_id: string }>(
        'SELECT organization_id FROM organization_memberships WHERE user_id = $1',
        [attacker.userId],
      );
      assert.deepEqual(
        mine.map((m) => m.organization_id),
        [w.a.org.id],
      );
    });
  }

  for (const role of ['admin', 'member'] as const) {
    it(`A's ${role} cannot see or change another user's sessions, profile, sign-ins or sign-ups`, async () => {
      const { h, victim } = w;
      const attacker = w.a[role];
      const asVictim = { _clerk_session_id: victim.sessionId };
      for (const c of USER_CASES) {
        const queries = c.via === 'path' ? [{}] : c.via === 'session' ? [asVictim] : [{}, asVictim];
        for (const query of queries) {
          const res = await c.call(h, victim, attacker, query);
          const label = `${c.route} as A's ${role}${query === asVictim ? " naming the victim's session" : ''}`;
          // The errors only, should it fail: a wrongly successful answer carries the victim's tokens.
          const brief = `${label}: ${res.status} ${JSON.stringify(res.body?.errors ?? res.body?.response?.object)}`;
          if (c.expect === 'not_found') {
            assert.equal(res.status, 404, brief);
            assert.equal(res.body.errors[0].code, 'resource_not_found', brief);
          } else {
            assert.ok(res.status < 500, brief);
          }
          const text = JSON.stringify(res.body);
          for (const secret of [...userSecrets(victim), ...secrets(w)])
            assert.equal(text.includes(secret), false, `${label} leaks ${secret}`);
        }
      }
      assert.equal(await userSnapshot(h, victim), victimSnapshot, 'the victim is unchanged');
      assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
      // The attacker's own session still works and is still theirs.
      const me = await attacker.browser.get('/me');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.response.id, attacker.userId);
    });
  }

  // API keys (fapi/api-keys/): not in fapiRoutes() (no /v1, session-token auth), so their rows are here.
  for (const role of ['admin', 'member'] as const) {
    it(`A's ${role} cannot list, reveal, revoke or create B's or another user's API keys`, async () => {
      const { h, a, b } = w;
      const asB = apiKeysOf(h, b.admin);
      const orgKey = (await asB.create({ name: `B org key ${role}`, subject: b.org.id })).body.response;
      const userKey = (await asB.create({ name: `B own key ${role}`, subject: b.admin.userId })).body
        .response;
      assert.ok(orgKey?.id && userKey?.id, 'B holds keys');
      const keysBefore = JSON.stringify(await h.db.query('SELECT * FROM api_keys ORDER BY id'));
      const attacker = apiKeysOf(h, a[role]);
      for (const subject of [b.org.id, b.admin.userId]) {
        const listed = await attacker.list(subject);
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        assert.deepEqual(listed.body.api_keys, [], `${subject} listed to A's ${role}`);
        const created = await attacker.create({ name: 'planted', subject });
        assert.equal(created.status, 404, JSON.stringify(created.body));
        assert.equal(created.body.errors[0].code, 'resource_not_found');
      }
      for (const key of [orgKey, userKey]) {
        for (const res of [await attacker.secret(key.id), await attacker.revoke(key.id)]) {
          assert.equal(res.status, 404, JSON.stringify(res.body));
          assert.equal(res.body.errors[0].code, 'resource_not_found');
          assert.equal(JSON.stringify(res.body).includes(key.name), false);
        }
      }
      assert.equal(JSON.stringify(await h.db.query('SELECT * FROM api_keys ORDER BY id')), keysBefore);
      assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
    });
  }

  it("the Backend API refuses a user's session token (or none) on every organisation route", async () => {
    const { h, a, b } = w;
    const jwt = (
      await a.admin.browser.post(`/client/sessions/${a.admin.sessionId}/tokens`, {
        organization_id: a.org.id,
      })
    ).body.jwt as string;
    const routes: [string, string][] = [
      ['GET', '/v1/organizations'],
      ['GET', `/v1/organizations/${b.org.id}`],
      ['GET', `/v1/organizations/${b.org.slug}`],
      ['PATCH', `/v1/organizations/${b.org.id}`],
      ['DELETE', `/v1/organizations/${b.org.id}`],
      ['PATCH', `/v1/organizations/${b.org.id}/metadata`],
      ['PUT', `/v1/organizations/${b.org.id}/logo`],
      ['DELETE', `/v1/organizations/${b.org.id}/logo`],
      ['GET', `/v1/organizations/${b.org.id}/memberships`],
      ['POST', `/v1/organizations/${b.org.id}/memberships`],
      ['PATCH', `/v1/organizations/${b.org.id}/memberships/${b.member.userId}`],
      ['PATCH', `/v1/organizations/${b.org.id}/memberships/${b.member.userId}/metadata`],
      ['DELETE', `/v1/organizations/${b.org.id}/memberships/${b.admin.userId}`],
      ['GET', `/v1/organizations/${b.org.id}/invitations`],
      ['POST', `/v1/organizations/${b.org.id}/invitations`],
      ['GET', `/v1/organizations/${b.org.id}/invitations/${w.invitationId}`],
      ['POST', `/v1/organizations/${b.org.id}/invitations/${w.invitationId}/revoke`],
    ];
    for (const [method, path] of routes) {
      for (const authorization of [`Bearer ${jwt}`, `Bearer ${h.identity.publishableKey}`, undefined]) {
        const res = await h.app.inject({
          method: method as 'GET',
          url: `${BAPI}${path}`,
          headers: {
            'content-type': 'application/json',
            ...(authorization ? { authorization } : {}),
          },
          payload:
            method === 'GET' ? undefined : JSON.stringify({ user_id: a.admin.userId, role: 'org:admin' }),
        });
        assert.equal(res.statusCode, 401, `${method} ${path}`);
        assert.equal(res.json().errors[0].code, 'clerk_key_invalid');
        for (const secret of secrets(w)) assert.equal(res.body.includes(secret), false, `${method} ${path}`);
      }
    }
    assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
  });
});
