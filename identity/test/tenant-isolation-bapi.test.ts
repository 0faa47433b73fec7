import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { bodyKinds } from '../src/bapi/json-input.ts';
import type { BapiRoute } from '../src/bapi/route.ts';
import { bapiRoutes } from '../src/bapi/route-table.ts';
import { cloudOnlyRoutes } from '../src/bapi/cloud-only/cloud-only-routes.ts';
import { servedBapiRoutes } from './support/bapi-routes.ts';
import { forEachBackend } from './support/backends.ts';
import { enableBilling, subscribe, subscriptionOf } from './support/billing-world.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';
import { multipartBody, PNG } from './support/images.ts';
import { WebhookReceiver } from './support/webhook-receiver.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
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
  signInTokenId: string;
  /** An invitation to the first instance (the application). */
  applicationInvitationId: string;
  /** A sign-up of the first instance (the one that made A's admin). */
  signUpId: string;
  /** An OAuth application of the first instance, and its client id. */
  oauthApp: { id: string; clientId: string };
  /** A JWT template of the first instance, named `hasura` (the name the token routes are sent). */
  jwtTemplateId: string;
  /** A satellite domain of the first instance. */
  domainId: string;
  /** A webhook delivery of the first instance (to its endpoint `ep_first`). */
  deliveryId: string;
  kid: string;
  /** A's paid subscription item on the first instance. */
  itemId: string;
  /** A's admin's email address, and a phone number the operator gave them. */
  emailAddressId: string;
  phoneNumberId: string;
  /** A handshake nonce the first instance issued to A's admin's browser, not yet redeemed. */
  handshakeNonce: string;
  /** Two machines of the first instance, the first scoped to the second, and a token of the first. */
  machineId: string;
  otherMachineId: string;
  m2mTokenId: string;
  m2mToken: string;
}

/** What the second instance answers, with its own key, to a request naming the first one's resources. */
type Foreign =
  /** 404 resource_not_found: the path names the first instance's resource. */
  | 'not_found'
  /** 200 with none of the first instance's data. */
  | 'no_leak'
  /** Refused: 404 for a user it does not have, or 422 for a body field naming one. */
  | 'refused'
  /** Refused for a field the body lacks (422 form_param_nil): the body names nothing of the first instance. */
  | 'incomplete'
  /** What only Clerk's hosted service does (bapi/cloud-only): 422 not_supported_by_this_provider everywhere. */
  | 'cloud_only'
  /** Needs a machine's secret key, not the instance's (an M2M token's creation): 403 not_allowed_access. */
  | 'machine_key_required';

interface Case {
  /** `METHOD /v1/...` as declared; `+ …` marks extra cases for the same route. */
  route: string;
  foreign: Foreign;
  request: (w: World) => BapiRequest;
}

const keyOf = (route: BapiRoute) => `${route.method} ${route.path}`;

/** A path of the route naming the first instance's resources, or organisation `org`'s sub-resources. */
function pathOf(route: BapiRoute, w: World, org: string = w.a.org.id): string {
  const { a, actorTokenId, signInTokenId, oauthApp, jwtTemplateId } = w;
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (name === 'userId') return a.member.userId;
    if (name === 'invitationId') return a.invitationId;
    if (name === 'template') return 'hasura';
    if (name === 'other') return w.otherMachineId;
    if (route.path.startsWith('/v1/sessions/')) return a.admin.sessionId;
    if (route.path.startsWith('/v1/clients/')) return a.admin.client.id;
    if (route.path.startsWith('/v1/email_addresses/')) return w.emailAddressId;
    if (route.path.startsWith('/v1/phone_numbers/')) return w.phoneNumberId;
    if (route.path.startsWith('/v1/users/')) return a.admin.userId;
    if (route.path.startsWith('/v1/actor_tokens/')) return actorTokenId;
    if (route.path.startsWith('/v1/sign_in_tokens/')) return signInTokenId;
    if (route.path.startsWith('/v1/invitations/')) return w.applicationInvitationId;
    if (route.path.startsWith('/v1/sign_ups/')) return w.signUpId;
    if (route.path.startsWith('/v1/oauth_applications/')) return oauthApp.id;
    if (route.path.startsWith('/v1/jwt_templates/')) return jwtTemplateId;
    if (route.path.startsWith('/v1/domains/')) return w.domainId;
    if (route.path.startsWith('/v1/webhook_deliveries/')) return w.deliveryId;
    if (route.path.startsWith('/v1/machines/')) return w.machineId;
    if (route.path.startsWith('/m2m_tokens/')) return w.m2mTokenId;
    return org;
  });
}

/** A value of each declared kind that names the first instance's data (free text and numbers name nothing). */
function bodyOf(route: BapiRoute, { a }: World): Record<string, unknown> | undefined {
  const fields = Object.entries(bodyKinds(route.input.body));
  if (!fields.length) return undefined;
  const body: Record<string, unknown> = {};
  for (const [name, kind] of fields) {
    if (kind === 'id') body[name] = a.member.userId;
    else if (kind === 'role') body[name] = 'org:admin';
    else if (kind === 'email') body[name] = uniqueEmail('planted');
    else if (kind === 'object') body[name] = name === 'actor' ? { sub: a.admin.userId } : { owned: true };
  }
  return body;
}

/** The declared query filters, naming the first instance's data. */
function queryOf(route: BapiRoute, { a }: World): string {
  const values: Record<string, string> = {
    user_id: a.admin.userId,
    email_address: a.admin.email,
    organization_id: a.org.id,
    subject: a.admin.userId,
    query: a.admin.email,
    limit: '500',
    include_members_count: 'true',
  };
  const pairs = Object.keys(route.input.query?.shape ?? {})
    .filter((name) => values[name] !== undefined)
    .map((name) => `${name}=${encodeURIComponent(values[name]!)}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function requestOf(route: BapiRoute, w: World, org?: string): BapiRequest {
  const body = bodyOf(route, w);
  return {
    method: route.method,
    path: pathOf(route, w, org) + queryOf(route, w),
    body: route.input.array ? [body ?? {}] : body,
    upload: route.input.upload,
  };
}

/** A path naming a resource finds nothing; a body naming a user may be refused for it first. */
function foreignAnswer(route: BapiRoute): Foreign {
  // Adding an address to a waitlist adds it to the calling instance's own (nothing of the other is named).
  if (keyOf(route) === 'POST /v1/waitlist_entries') return 'no_leak';
  if (cloudOnlyRoutes.some((r) => keyOf(r) === keyOf(route))) return 'cloud_only';
  // Inviting an address to the application invites it to the calling instance (nothing of the other).
  if (['POST /v1/invitations', 'POST /v1/invitations/bulk'].includes(keyOf(route))) return 'no_leak';
  // The instance's own settings, asked to stay as they are: nothing of the other instance is named.
  if (/^PATCH \/v1\/instance(\/|$)/.test(keyOf(route))) return 'no_leak';
  // A testing token is the calling instance's own (it waives nothing on another: bapi-sign-in-tokens.test.ts).
  if (keyOf(route) === 'POST /v1/testing_tokens') return 'no_leak';
  // Registering an OAuth application names nothing of another instance; the suite's body has no name.
  if (keyOf(route) === 'POST /v1/oauth_applications') return 'incomplete';
  // Creating a user names nothing of another instance either; the suite's body has no identifier.
  if (keyOf(route) === 'POST /v1/users') return 'incomplete';
  // Listing an identifier or allowing a redirect URL adds to the calling instance's own lists; the
  // suite's body leaves the free text out.
  if (
    [
      'POST /v1/allowlist_identifiers',
      'POST /v1/blocklist_identifiers',
      'POST /v1/redirect_urls',
      'POST /v1/jwt_templates',
      // A satellite domain's name is free text, left out too.
      'POST /v1/domains',
      // So are a machine's name and the M2M token to verify (the extra case below sends A's).
      'POST /v1/machines',
      'POST /m2m_tokens/verify',
    ].includes(keyOf(route))
  )
    return 'incomplete';
  // A token is made with its machine's key; the instance's key (either instance's) makes none.
  if (keyOf(route) === 'POST /m2m_tokens') return 'machine_key_required';
  // The credential is free text, which the suite's body leaves out: the extra case below sends A's.
  if (keyOf(route) === 'POST /v1/clients/verify') return 'incomplete';
  // So is a handshake nonce: the extra case below sends one of the first instance.
  if (keyOf(route) === 'GET /v1/clients/handshake_payload') return 'incomplete';
  const namesUser = Object.values(bodyKinds(route.input.body)).includes('id');
  if (route.path.includes(':') && !namesUser) return 'not_found';
  return route.method === 'GET' ? 'no_leak' : 'refused';
}

/** One case per route of the table (src/bapi/route-table.ts): a new route is covered by being declared. */
const CASES: Case[] = [
  ...bapiRoutes.map((route): Case => ({
    route: keyOf(route),
    foreign: foreignAnswer(route),
    request: (w) => requestOf(route, w),
  })),
  {
    route: 'GET /v1/users + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/users?limit=500' }),
  },
  {
    route: 'GET /v1/sessions + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/sessions?paginated=true&limit=500' }),
  },
  {
    route: 'GET /v1/clients + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/clients?paginated=true&limit=500' }),
  },
  {
    route: "POST /v1/clients/verify + A's client credential",
    foreign: 'not_found',
    request: ({ a }) => ({
      method: 'POST',
      path: '/v1/clients/verify',
      body: { token: a.admin.browser.jar.get('__client') },
    }),
  },
  {
    route: "GET /v1/clients/handshake_payload + A's handshake nonce",
    foreign: 'not_found',
    request: ({ handshakeNonce }) => ({
      method: 'GET',
      path: `/v1/clients/handshake_payload?nonce=${encodeURIComponent(handshakeNonce)}`,
    }),
  },
  {
    route: "POST /m2m_tokens/verify + the first instance's M2M token",
    foreign: 'not_found',
    request: ({ m2mToken }) => ({ method: 'POST', path: '/m2m_tokens/verify', body: { token: m2mToken } }),
  },
  {
    route: "GET /m2m_tokens + the first instance's machine",
    foreign: 'no_leak',
    request: ({ machineId }) => ({
      method: 'GET',
      path: `/m2m_tokens?subject=${machineId}&revoked=true&expired=true&limit=500`,
    }),
  },
  {
    route: 'GET /v1/machines + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/machines?limit=500' }),
  },
  {
    route: 'GET /v1/organizations + everyone',
    foreign: 'no_leak',
    request: () => ({ method: 'GET', path: '/v1/organizations?limit=500&include_members_count=true' }),
  },
  {
    route: "DELETE /v1/commerce/subscription_items/:id + A's item",
    foreign: 'not_found',
    request: ({ itemId }) => ({
      method: 'DELETE',
      path: `/v1/commerce/subscription_items/${itemId}?end_now=true`,
    }),
  },
  {
    route: 'GET /v1/organizations/:id/billing/subscription + by slug',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations/${a.org.slug}/billing/subscription` }),
  },
  {
    route: 'GET /v1/organizations/:id + by slug',
    foreign: 'not_found',
    request: ({ a }) => ({ method: 'GET', path: `/v1/organizations/${a.org.slug}` }),
  },
];

/**
 * Within one instance: organisation B's path naming A's member or invitation (the secret key may act
 * on any organisation, but a sub-resource only through its own), for every route of the table that
 * takes an organisation and a sub-resource.
 */
const CROSS_CASES: { route: string; request: (w: World) => BapiRequest }[] = bapiRoutes
  .filter((route) => /\/organizations\/:id\/.*\/:/.test(route.path))
  .map((route) => ({ route: keyOf(route), request: (w) => requestOf(route, w, w.b.org.id) }));

it('the Backend API serves exactly the routes of its table, so every route served has cases', async () => {
  const served = await servedBapiRoutes();
  const declared = bapiRoutes.map(keyOf).sort();
  assert.deepEqual(served, declared);
  assert.ok(CROSS_CASES.length >= 5, `routes with an organisation and a sub-resource: ${CROSS_CASES.length}`);
  assert.ok(
    bapiRoutes.every(
      (route) =>
        route.permission === 'instance_secret_key' ||
        (route.permission === 'machine_or_instance_secret_key' && route.path.startsWith('/m2m_tokens')),
    ),
    'every route needs the secret key (the M2M token routes: a machine’s or the instance’s)',
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
  let receiver: WebhookReceiver;
  let secondSnapshot: string;

  before(async () => {
    const first = await Harness.start(backend);
    // Its own key and a fresh store (another PGlite, another PostgreSQL schema).
    const second = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    // Both bill, with the same catalogue: the plan list answers on both, the rest names nothing across.
    await enableBilling(first);
    await enableBilling(second);
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
    await subscribe(a.admin, 'cplan_business', { orgId: a.org.id });
    const items = (await subscriptionOf(a.admin, a.org.id)).subscription_items as Json[];
    const token = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/actor_tokens',
      body: { user_id: a.member.userId, actor: { sub: a.admin.userId } },
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const signInToken = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/sign_in_tokens',
      body: { user_id: a.member.userId },
    });
    assert.equal(signInToken.status, 200, JSON.stringify(signInToken.body));
    const oauthApp = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/oauth_applications',
      body: { name: 'Alpha partner', redirect_uris: ['https://alpha.example.com/cb'] },
    });
    assert.equal(oauthApp.status, 200, JSON.stringify(oauthApp.body));
    const jwtTemplate = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/jwt_templates',
      body: { name: 'hasura', claims: { user: '{{user.id}}', org: '{{org.id}}' } },
    });
    assert.equal(jwtTemplate.status, 200, JSON.stringify(jwtTemplate.body));
    const domain = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/domains',
      body: { name: 'satellite.first.test', is_satellite: true },
    });
    assert.equal(domain.status, 200, JSON.stringify(domain.body));
    // A webhook endpoint of the first instance, and a delivery to it (delivered: its row settles).
    receiver = await WebhookReceiver.start(newWebhookSecret());
    process.env.TENANT_ISOLATION_WEBHOOK_SECRET = receiver.secret;
    await first.identity.settings.set({
      ...first.identity.settings.settings,
      webhooks: {
        endpoints: {
          ep_first: {
            url: receiver.url,
            events: ['organization.updated'],
            secret: { env: 'TENANT_ISOLATION_WEBHOOK_SECRET' },
          },
        },
      },
    });
    const renamed = await call(first, first.identity.secretKey, {
      method: 'PATCH',
      path: `/v1/organizations/${a.org.id}`,
      body: { name: `${a.org.name} renamed` },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    a.org = renamed.body;
    await receiver.waitFor(() => receiver.delivered.length > 0);
    let delivery: { id: string } | undefined;
    for (let i = 0; i < 200 && !delivery; i++) {
      [delivery] = await first.db.query<{ id: string }>(
        `SELECT id FROM webhook_deliveries WHERE endpoint_id = 'ep_first' AND status = 'delivered'`,
      );
      if (!delivery) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(delivery, 'the first instance delivered its event');
    const phone = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/phone_numbers',
      body: { user_id: a.admin.userId, phone_number: '+12015550199', verified: true },
    });
    assert.equal(phone.status, 200, JSON.stringify(phone.body));
    const admin = await call(first, first.identity.secretKey, {
      method: 'GET',
      path: `/v1/users/${a.admin.userId}`,
    });
    const jwks = await call(first, first.identity.secretKey, { method: 'GET', path: '/v1/jwks' });
    const handshake = await a.admin.browser.get('/client/handshake', {
      redirect_url: `${first.config.publicUrl}/`,
      format: 'nonce',
    });
    assert.equal(handshake.status, 307, JSON.stringify(handshake.body));
    const appInvitation = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/invitations',
      body: { email_address: uniqueEmail('app-invitee') },
    });
    assert.equal(appInvitation.status, 200, JSON.stringify(appInvitation.body));
    const receivingMachine = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/machines',
      body: { name: 'alpha receiver' },
    });
    const machine = await call(first, first.identity.secretKey, {
      method: 'POST',
      path: '/v1/machines',
      body: { name: 'alpha sender', scoped_machines: [receivingMachine.body.id] },
    });
    assert.equal(machine.status, 200, JSON.stringify(machine.body));
    const m2m = await call(first, machine.body.secret_key, { method: 'POST', path: '/m2m_tokens', body: {} });
    assert.equal(m2m.status, 200, JSON.stringify(m2m.body));
    w = {
      first,
      second,
      a,
      b,
      actorTokenId: token.body.id,
      signInTokenId: signInToken.body.id,
      applicationInvitationId: appInvitation.body.id,
      signUpId: (
        await first.db.query<{ id: string }>('SELECT id FROM sign_ups WHERE created_user_id = $1', [
          a.admin.userId,
        ])
      )[0]!.id,
      oauthApp: { id: oauthApp.body.id, clientId: oauthApp.body.client_id },
      jwtTemplateId: jwtTemplate.body.id,
      domainId: domain.body.id,
      deliveryId: delivery.id,
      kid: jwks.body.keys[0].kid,
      itemId: items.find((i) => i.plan.slug === 'business')!.id,
      emailAddressId: admin.body.email_addresses[0].id,
      phoneNumberId: phone.body.id,
      handshakeNonce: new URL(handshake.headers.location as string).searchParams.get(
        '__clerk_handshake_nonce',
      )!,
      machineId: machine.body.id,
      otherMachineId: receivingMachine.body.id,
      m2mTokenId: m2m.body.id,
      m2mToken: m2m.body.token,
    };
    firstSnapshot = await snapshot(first);
    secondSnapshot = await snapshot(second);
  });
  after(async () => {
    await w?.second.close();
    await w?.first.close();
    await receiver?.close();
  });

  /** Everything an instance stores that a Backend API call could change. */
  async function snapshot(h: Harness): Promise<string> {
    const tables = [
      'users',
      'email_addresses',
      'phone_numbers',
      'clients',
      'sessions',
      'organizations',
      'organization_memberships',
      'organization_invitations',
      'actor_tokens',
      'sign_in_tokens',
      'handshake_nonces',
      'api_keys',
      'oauth_applications',
      'jwt_templates',
      'machines',
      'machine_scopes',
      'm2m_tokens',
      'billing_payers',
      'billing_subscription_items',
      'billing_payment_attempts',
    ];
    // Satellite domains and webhook endpoints are instance settings: the whole document, and its version.
    const all: Record<string, unknown> = {
      settings: h.identity.deps.settings.settings,
      settingsVersion: (await h.db.query('SELECT version FROM instance_settings_document'))[0],
    };
    for (const table of tables) {
      const key =
        table === 'handshake_nonces'
          ? 'nonce_hash'
          : table === 'machine_scopes'
            ? 'from_machine_id, to_machine_id'
            : 'id';
      all[table] = await h.db.query(`SELECT * FROM ${table} ORDER BY ${key}`);
    }
    // Deliveries by id (a replay adds one); their attempts' times move with the worker, not with a call.
    all.webhook_deliveries = await h.db.query(
      'SELECT id, event_id, endpoint_id FROM webhook_deliveries ORDER BY id',
    );
    return JSON.stringify(all);
  }

  /** The first instance's identifiers, which no answer of the second may contain. */
  function secrets(w: World): string[] {
    const { a, b, actorTokenId, signInTokenId, kid, itemId, oauthApp } = w;
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
        t.admin.sessionId,
        t.admin.client.id,
        t.member.sessionId,
      ]),
      w.emailAddressId,
      w.phoneNumberId,
      actorTokenId,
      signInTokenId,
      w.applicationInvitationId,
      w.signUpId,
      oauthApp.id,
      oauthApp.clientId,
      w.jwtTemplateId,
      w.domainId,
      'satellite.first.test',
      w.deliveryId,
      'ep_first',
      kid,
      itemId,
      w.handshakeNonce,
      w.machineId,
      w.otherMachineId,
      w.m2mTokenId,
      w.m2mToken,
      'alpha sender',
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
      } else if (c.foreign === 'incomplete') {
        assert.equal(res.status, 422, brief);
        assert.equal(res.body.errors[0].code, 'form_param_nil', brief);
      } else if (c.foreign === 'machine_key_required') {
        assert.equal(res.status, 403, brief);
        assert.equal(res.body.errors[0].code, 'not_allowed_access', brief);
      } else if (c.foreign === 'cloud_only') {
        assert.equal(res.status, 422, brief);
        assert.equal(res.body.errors[0].code, 'not_supported_by_this_provider', brief);
      } else if (c.foreign === 'refused') {
        assert.ok(
          (res.status === 404 && res.body.errors[0].code === 'resource_not_found') ||
            (res.status === 422 && res.body.errors[0].code === 'form_param_value_invalid'),
          brief,
        );
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
