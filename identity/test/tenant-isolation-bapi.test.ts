import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { bapiRoutes } from './support/bapi-routes.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';
import { multipartBody, PNG } from './support/images.ts';
import { addMember, createOrganization, newMember, type Member } from './support/organizations.ts';

/**
 * Tenant isolation in the Backend API, table-driven over every route it registers. The Backend API
 * acts for a whole instance (its secret key stands for the operator), so a tenant there is an
 * instance: a second provider with its own secret key and its own database must never read or change
 * the first one's users, organisations, invitations, memberships or actor tokens, even by their exact
 * ids; and one instance's key is refused by the other. Within one instance, a route that takes an
 * organisation and one of its sub-resources never reaches another organisation's sub-resource.
 * A new Backend API route without a row here fails the first test.
 */

const OTHER_SECRET_KEY = 'sk_live_otherinstancekey000000000000000000000';

interface BapiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** A logo upload (multipart `file`). */
  upload?: boolean;
}

interface Tenant {
  org: Json;
  admin: Member;
  member: Member;
  invitationId: string;
}

interface World {
  /** The instance under attack. */
  first: Harness;
  /** Another instance: its own key, its own database. */
  second: Harness;
  a: Tenant;
  b: Tenant;
  actorTokenId: string;
  kid: string;
}

/** What the second instance answers, with its own key, to a request naming the first one's resources. */
type Foreign =
  /** 404 resource_not_found. */
  | 'not_found'
  /** 200 with none of the first instance's data. */
  | 'no_leak'
  /** 422: a body field names a user the second instance does not have. */
  | 'param_invalid';

interface Case {
  /** `METHOD /v1/...` exactly as registered; `+ …` marks extra cases for the same route. */
  route: string;
  foreign: Foreign;
  request: (w: World) => BapiRequest;
}

const CASES: Case[] = [
  { route: 'GET /v1/jwks', foreign: 'no_leak', request: () => ({ method: 'GET', path: '/v1/jwks' }) },
  {
    route: 'GET /v1/users',
    foreign: 'no_leak',
    request: ({ a }) => ({
      method: 'GET',
      path: `/v1/users?user_id=${a.admin.userId}&email_address=${encodeURIComponent(a.admin.email)}`,
    }),
  },
  {
    route: 'GET /v1/users + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/users?limit=500' }),
  },
  {
    route: 'GET /v1/users/count',
    foreign: 'no_leak',
    request: ({ a }) => ({ method: 'GET', path: `/v1/users/count?user_id=${a.admin.userId}` }),
  },
  {
    route: 'GET /v1/users/:id',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/users/${a.admin.userId}` }),
  },
  {
    route: 'PATCH /v1/users/:id/metadata',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'PATCH',
      path: `/v1/users/${a.admin.userId}/metadata`,
      body: { public_metadata: { owned: true } },
    }),
  },
  {
    route: 'POST /v1/users/:id/lock',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'POST', path: `/v1/users/${a.admin.userId}/lock` }),
  },
  {
    route: 'POST /v1/users/:id/unlock',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'POST', path: `/v1/users/${a.admin.userId}/unlock` }),
  },
  {
    route: 'POST /v1/users/:id/require_password_reset',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'POST', path: `/v1/users/${a.admin.userId}/require_password_reset` }),
  },
  {
    route: 'DELETE /v1/users/:id/require_password_reset',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'DELETE', path: `/v1/users/${a.admin.userId}/require_password_reset` }),
  },
  {
    route: 'GET /v1/organizations',
    foreign: 'no_leak',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations?organization_id=${a.org.id}` }),
  },
  {
    route: 'GET /v1/organizations + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/organizations?limit=500&include_members_count=true' }),
  },
  {
    route: 'POST /v1/organizations',
    foreign: 'param_invalid',
    request: ({ a }) => ({
      method: 'POST',
      path: '/v1/organizations',
      body: { name: 'Planted', created_by: a.admin.userId },
    }),
  },
  {
    route: 'GET /v1/organizations/:id',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations/${a.org.id}` }),
  },
  {
    route: 'GET /v1/organizations/:id + by slug',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations/${a.org.slug}` }),
  },
  {
    route: 'PATCH /v1/organizations/:id',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'PATCH', path: `/v1/organizations/${a.org.id}`, body: { name: 'Taken' } }),
  },
  {
    route: 'DELETE /v1/organizations/:id',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'DELETE', path: `/v1/organizations/${a.org.id}` }),
  },
  {
    route: 'PATCH /v1/organizations/:id/metadata',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'PATCH',
      path: `/v1/organizations/${a.org.id}/metadata`,
      body: { public_metadata: { owned: true } },
    }),
  },
  {
    route: 'PUT /v1/organizations/:id/logo',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'PUT', path: `/v1/organizations/${a.org.id}/logo`, upload: true }),
  },
  {
    route: 'DELETE /v1/organizations/:id/logo',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'DELETE', path: `/v1/organizations/${a.org.id}/logo` }),
  },
  {
    route: 'GET /v1/organizations/:id/memberships',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations/${a.org.id}/memberships` }),
  },
  {
    route: 'POST /v1/organizations/:id/memberships',
    foreign: 'not_found',
    request: ({ a, b }) => ({
      method: 'POST',
      path: `/v1/organizations/${a.org.id}/memberships`,
      body: { user_id: b.admin.userId, role: 'org:admin' },
    }),
  },
  {
    route: 'PATCH /v1/organizations/:id/memberships/:userId',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'PATCH',
      path: `/v1/organizations/${a.org.id}/memberships/${a.member.userId}`,
      body: { role: 'org:admin' },
    }),
  },
  {
    route: 'PATCH /v1/organizations/:id/memberships/:userId/metadata',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'PATCH',
      path: `/v1/organizations/${a.org.id}/memberships/${a.member.userId}/metadata`,
      body: { public_metadata: { owned: true } },
    }),
  },
  {
    route: 'DELETE /v1/organizations/:id/memberships/:userId',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'DELETE',
      path: `/v1/organizations/${a.org.id}/memberships/${a.admin.userId}`,
    }),
  },
  {
    route: 'GET /v1/organizations/:id/invitations',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations/${a.org.id}/invitations` }),
  },
  {
    route: 'POST /v1/organizations/:id/invitations',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'POST',
      path: `/v1/organizations/${a.org.id}/invitations`,
      body: { email_address: uniqueEmail('planted'), role: 'org:admin' },
    }),
  },
  {
    route: 'POST /v1/organizations/:id/invitations/bulk',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'POST',
      path: `/v1/organizations/${a.org.id}/invitations/bulk`,
      body: [{ email_address: uniqueEmail('planted'), role: 'org:admin' }],
    }),
  },
  {
    route: 'GET /v1/organizations/:id/invitations/:invitationId',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'GET',
      path: `/v1/organizations/${a.org.id}/invitations/${a.invitationId}`,
    }),
  },
  {
    route: 'POST /v1/organizations/:id/invitations/:invitationId/revoke',
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'POST',
      path: `/v1/organizations/${a.org.id}/invitations/${a.invitationId}/revoke`,
    }),
  },
  {
    route: 'POST /v1/actor_tokens',
    foreign: 'not_found',
    request: ({ a, b }) => ({
      method: 'POST',
      path: '/v1/actor_tokens',
      body: { user_id: a.member.userId, actor: { sub: b.admin.userId } },
    }),
  },
  {
    route: 'POST /v1/actor_tokens/:id/revoke',
    foreign: 'not_found',
    request: (w) => ({ method: 'POST', path: `/v1/actor_tokens/${w.actorTokenId}/revoke` }),
  },
];

/**
 * Within one instance: organisation B's path naming A's member or invitation (the secret key may act
 * on any organisation, but a sub-resource only through its own). Every route that takes an
 * organisation and a sub-resource has a row.
 */
const CROSS_CASES: { route: string; request: (w: World) => BapiRequest }[] = [
  {
    route: 'PATCH /v1/organizations/:id/memberships/:userId',
    request: ({ a, b }) => ({
      method: 'PATCH',
      path: `/v1/organizations/${b.org.id}/memberships/${a.member.userId}`,
      body: { role: 'org:admin' },
    }),
  },
  {
    route: 'PATCH /v1/organizations/:id/memberships/:userId/metadata',
    request: ({ a, b }) => ({
      method: 'PATCH',
      path: `/v1/organizations/${b.org.id}/memberships/${a.member.userId}/metadata`,
      body: { public_metadata: { owned: true } },
    }),
  },
  {
    route: 'DELETE /v1/organizations/:id/memberships/:userId',
    request: ({ a, b }) => ({
      method: 'DELETE',
      path: `/v1/organizations/${b.org.slug}/memberships/${a.admin.userId}`,
    }),
  },
  {
    route: 'GET /v1/organizations/:id/invitations/:invitationId',
    request: ({ a, b }) => ({
      method: 'GET',
      path: `/v1/organizations/${b.org.id}/invitations/${a.invitationId}`,
    }),
  },
  {
    route: 'POST /v1/organizations/:id/invitations/:invitationId/revoke',
    request: ({ a, b }) => ({
      method: 'POST',
      path: `/v1/organizations/${b.org.slug}/invitations/${a.invitationId}/revoke`,
    }),
  },
];

const routeOf = (c: { route: string }) => c.route.split(' + ')[0]!;

it('every Backend API route has a tenant-isolation case', async () => {
  const routes = await bapiRoutes();
  const covered = new Set(CASES.map(routeOf));
  const missing = routes.filter((r) => !covered.has(r));
  assert.deepEqual(missing, [], `add a case to tenant-isolation-bapi.test.ts for: ${missing.join(', ')}`);
  const stale = [...covered].filter((r) => !routes.includes(r));
  assert.deepEqual(stale, [], 'cases for routes that no longer exist');

  // An organisation and a sub-resource in one path.
  const nested = routes.filter((r) => /\/organizations\/:id\/.*\/:/.test(r));
  const crossed = new Set(CROSS_CASES.map(routeOf));
  assert.deepEqual(
    nested.filter((r) => !crossed.has(r)),
    [],
    'add a CROSS_CASES row for every route naming an organisation and one of its sub-resources',
  );
});

async function call(
  h: Harness,
  key: string | null,
  req: BapiRequest,
): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  let payload: string | Buffer | undefined;
  if (req.upload) {
    const built = multipartBody([{ name: 'file', filename: 'logo.png', type: 'image/png', data: PNG }]);
    headers['content-type'] = built.contentType;
    payload = built.payload;
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(req.body);
  }
  const res = await h.app.inject({ method: req.method, url: `${BAPI}${req.path}`, headers, payload });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

forEachBackend('Backend API tenant isolation', (backend) => {
  let w: World;
  let firstSnapshot: string;
  let secondSnapshot: string;

  before(async () => {
    const first = await Harness.start(backend);
    // Its own key and a fresh store (another PGlite, another PostgreSQL schema).
    const second = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    const tenant = async (label: string): Promise<Tenant> => {
      const admin = await newMember(first, `${label}-admin`);
      const member = await newMember(first, `${label}-member`);
      const org = await createOrganization(admin, `${label} ${randomBytes(4).toString('hex')}`);
      await addMember(admin, org.id, member, 'org:member');
      const invited = await admin.browser.post(`/organizations/${org.id}/invitations`, {
        email_address: uniqueEmail(`${label}-invitee`),
        role: 'org:member',
      });
      assert.equal(invited.status, 200, JSON.stringify(invited.body));
      return { org, admin, member, invitationId: invited.body.response.id };
    };
    const a = await tenant('alpha');
    const b = await tenant('bravo');
    const token = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/actor_tokens',
      body: { user_id: a.member.userId, actor: { sub: a.admin.userId } },
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const jwks = await call(first, first.identity.secretKey, { method: 'GET', path: '/v1/jwks' });
    w = { first, second, a, b, actorTokenId: token.body.id, kid: jwks.body.keys[0].kid };
    firstSnapshot = await snapshot(first);
    secondSnapshot = await snapshot(second);
  });
  after(async () => {
    await w?.second.close();
    await w?.first.close();
  });

  /** Everything an instance stores that a Backend API call could change. */
  async function snapshot(h: Harness): Promise<string> {
    const tables = [
      'users',
      'email_addresses',
      'sessions',
      'organizations',
      'organization_memberships',
      'organization_invitations',
      'actor_tokens',
    ];
    const all: Record<string, unknown> = {};
    for (const table of tables) all[table] = await h.db.query(`SELECT * FROM ${table} ORDER BY id`);
    return JSON.stringify(all);
  }

  /** The first instance's identifiers, which no answer of the second may contain. */
  function secrets({ a, b, actorTokenId, kid }: World): string[] {
    return [
      ...[a, b].flatMap((t) => [
        t.org.id,
        t.org.slug,
        t.org.name,
        t.invitationId,
        t.admin.userId,
        t.admin.email,
        t.member.userId,
        t.member.email,
      ]),
      actorTokenId,
      kid,
    ];
  }

  it("the instances' keys and signing keys differ", () => {
    assert.notEqual(w.first.identity.secretKey, w.second.identity.secretKey);
    assert.notEqual(w.first.identity.deps.signingKey.kid, w.second.identity.deps.signingKey.kid);
  });

  it("another instance, with its own key, neither sees nor changes this instance's data on any route", async () => {
    for (const c of CASES) {
      const req = c.request(w);
      const res = await call(w.second, w.second.identity.secretKey, req);
      const label = `${c.route} on the other instance`;
      const brief = `${label}: ${res.status} ${JSON.stringify(res.body?.errors)}`;
      if (c.foreign === 'not_found') {
        assert.equal(res.status, 404, brief);
        assert.equal(res.body.errors[0].code, 'resource_not_found', brief);
      } else if (c.foreign === 'param_invalid') {
        assert.equal(res.status, 422, brief);
        assert.equal(res.body.errors[0].code, 'form_param_value_invalid', brief);
      } else {
        assert.equal(res.status, 200, brief);
      }
      // Only what the request itself carried may come back (an error naming the id it could not find).
      const asked = JSON.stringify(req);
      const text = JSON.stringify(res.body);
      for (const secret of secrets(w).filter((s) => !asked.includes(s)))
        assert.equal(text.includes(secret), false, `${label} leaks ${secret}`);
    }
    assert.equal(await snapshot(w.first), firstSnapshot, 'the first instance is unchanged');
    assert.equal(await snapshot(w.second), secondSnapshot, 'the second instance is unchanged');
  });

  it("one instance's secret key is refused by the other on every route, both ways", async () => {
    for (const c of CASES) {
      const req = c.request(w);
      for (const [h, key, label] of [
        [w.first, w.second.identity.secretKey, "the second instance's key on the first"],
        [w.second, w.first.identity.secretKey, "the first instance's key on the second"],
      ] as const) {
        const res = await call(h, key, req);
        assert.equal(res.status, 401, `${c.route} with ${label}: ${res.status}`);
        assert.equal(res.body.errors[0].code, 'clerk_key_invalid');
        for (const secret of secrets(w))
          assert.equal(JSON.stringify(res.body).includes(secret), false, `${c.route} leaks ${secret}`);
      }
    }
    assert.equal(await snapshot(w.first), firstSnapshot, 'the first instance is unchanged');
    assert.equal(await snapshot(w.second), secondSnapshot, 'the second instance is unchanged');
  });

  it("within an instance, B's path never reaches A's members or invitations", async () => {
    for (const c of CROSS_CASES) {
      const res = await call(w.first, w.first.identity.secretKey, c.request(w));
      const brief = `${c.route} through B: ${res.status} ${JSON.stringify(res.body?.errors)}`;
      assert.equal(res.status, 404, brief);
      assert.equal(res.body.errors[0].code, 'resource_not_found', brief);
    }
    // B's lists name nobody of A.
    const members = await call(w.first, w.first.identity.secretKey, {
      method: 'GET',
      path: `/v1/organizations/${w.b.org.id}/memberships?user_id=${w.a.member.userId}`,
    });
    assert.equal(members.status, 200);
    assert.deepEqual(members.body.data, []);
    assert.equal(await snapshot(w.first), firstSnapshot, 'nothing changed');
  });
});
