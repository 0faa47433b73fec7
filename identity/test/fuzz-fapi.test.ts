import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { fapiRoutes } from '../src/fapi/route-table.ts';
import { forEachBackend } from './support/backends.ts';
import {
  buildWorld,
  describeRequest,
  fapiCases,
  fapiUrl,
  FUZZ_CASES,
  FUZZ_SEED,
  judge,
  knownClientErrorCodes,
  pathParamCases,
  Rng,
  routeSeed,
  send,
  snapshot,
  snapshotDiff,
  type FapiSpec,
  type World,
} from './support/fuzz.ts';
import { Harness } from './support/harness.ts';
import { BILLING, enableBilling } from './support/billing-world.ts';

const FUZZ_BILLING = {
  ...BILLING,
  plans: { pro_user: BILLING.plans.pro_user, team: BILLING.plans.team },
};

/**
 * The parameters each Frontend API route reads, by kind (see FapiKind). A route missing here fails the
 * run, so a new route cannot go unfuzzed.
 *
 * Unknown parameters: identity, like clerk-js's tolerance of extra query parameters, ignores form
 * parameters it does not read. They are therefore sent alone only to read-only routes (where a 2xx is
 * accepted if nothing changes), and otherwise together with a defect that must be refused on its own
 * (a wrong id in the path, a wrong value of a known parameter). Routes that change state and read
 * neither an id nor a parameter (`DELETE /client`, `POST /me/totp`, …) get only defects of the body
 * and the query themselves.
 */
const SPECS: Record<string, FapiSpec> = {
  'GET /environment': { readOnly: true },
  'PATCH /environment': { readOnly: true },
  'GET /client': { readOnly: true },
  // With the client's cookie, PUT /client answers the existing client and changes nothing.
  'PUT /client': { readOnly: true },
  'DELETE /client': {},
  'DELETE /client/sessions': {},
  // Bot protection (captcha.test.ts): the captcha modal's answer and the heartbeat; the widget's challenge.
  'POST /client/verify': {
    params: {
      captcha_token: 'token',
      captcha_widget_type: 'enum',
      captcha_error: 'text',
      captcha_action: 'enum',
    },
  },
  'GET /captcha/challenge': { readOnly: true },
  'POST /dev_browser': {},
  'POST /client/sign_ins': {
    params: {
      identifier: 'text',
      password: 'password',
      strategy: 'enum',
      ticket: 'token',
      redirect_url: 'url',
      action_complete_redirect_url: 'url',
    },
  },
  'GET /client/sign_ins/:id': { readOnly: true },
  'POST /client/sign_ins/:id/prepare_first_factor': {
    params: { strategy: 'enum', email_address_id: 'id', phone_number_id: 'id', redirect_url: 'url' },
  },
  'POST /client/sign_ins/:id/attempt_first_factor': {
    params: { strategy: 'enum', password: 'password', code: 'code' },
  },
  'POST /client/sign_ins/:id/reset_password': {
    params: { password: 'password', sign_out_of_other_sessions: 'bool' },
  },
  'POST /client/sign_ins/:id/prepare_second_factor': { params: { strategy: 'enum', phone_number_id: 'id' } },
  'POST /client/sign_ins/:id/attempt_second_factor': { params: { strategy: 'enum', code: 'code' } },
  'POST /client/sign_ups': {
    params: {
      email_address: 'email',
      username: 'text',
      password: 'password',
      first_name: 'text',
      last_name: 'text',
      phone_number: 'phone',
      strategy: 'enum',
      ticket: 'token',
      // Google One Tap's credential (strategy=google_one_tap); refused without that strategy.
      token: 'token',
      unsafe_metadata: 'json',
      legal_accepted: 'bool',
      redirect_url: 'url',
      captcha_token: 'token',
      captcha_widget_type: 'enum',
      captcha_error: 'text',
    },
  },
  // <Waitlist/>: any address joins once; a malformed one is refused.
  'POST /waitlist': { params: { email_address: 'email' } },
  // The offline gateway's card form (billing): a setup intent's secret and a test card.
  'POST /commerce/offline_gateway/setup_intents/confirm': {
    params: { client_secret: 'token', card_number: 'text', exp_month: 'text', exp_year: 'text', cvc: 'text' },
  },
  'GET /client/sign_ups/:id': { readOnly: true },
  'PATCH /client/sign_ups/:id': {
    params: {
      email_address: 'email',
      username: 'text',
      password: 'password',
      first_name: 'text',
      last_name: 'text',
      unsafe_metadata: 'json',
      legal_accepted: 'bool',
      redirect_url: 'url',
    },
  },
  'POST /client/sign_ups/:id/prepare_verification': { params: { strategy: 'enum', redirect_url: 'url' } },
  'POST /client/sign_ups/:id/attempt_verification': { params: { strategy: 'enum', code: 'code' } },
  'GET /verify': { navigate: true, params: { token: 'token' } },
  'GET /tickets/accept': { navigate: true, params: { ticket: 'token', redirect_url: 'url' } },
  'GET /oauth_callback': {
    navigate: true,
    params: { state: 'token', code: 'token', error: 'text', iss: 'url' },
  },
  // A form_post provider's cross-site POST: sent on to the GET callback, whatever it carries.
  'POST /oauth_callback': {
    navigate: true,
    params: { state: 'token', code: 'token', error: 'text', iss: 'url' },
  },
  // The SAML ACS: the IdP's cross-site POST, and the handoff the browser brings back; both navigations.
  'POST /saml/acs/:connectionId': { navigate: true, params: { SAMLResponse: 'token', RelayState: 'text' } },
  'GET /saml/acs/:connectionId': { navigate: true, params: { handoff: 'token' } },
  'POST /client/sessions/:id/touch': { params: { active_organization_id: 'id' } },
  // A token for an organisation the user is not (or no longer) in is a token without it, not an error:
  // clerk-js asks with the session's last organisation, and a 4xx on refresh signs the user out.
  'POST /client/sessions/:id/tokens': { params: { organization_id: 'text' } },
  'POST /client/sessions/:id/tokens/:template': { params: { organization_id: 'text' } },
  'POST /client/sessions/:id/end': {},
  'POST /client/sessions/:id/remove': {},
  'POST /client/sessions/:id/verify': { params: { level: 'enum' } },
  'POST /client/sessions/:id/verify/prepare_first_factor': {
    params: { strategy: 'enum', email_address_id: 'id', phone_number_id: 'id' },
  },
  'POST /client/sessions/:id/verify/attempt_first_factor': {
    params: { strategy: 'enum', password: 'password', code: 'code' },
  },
  'POST /client/sessions/:id/verify/prepare_second_factor': {
    params: { strategy: 'enum', phone_number_id: 'id' },
  },
  'POST /client/sessions/:id/verify/attempt_second_factor': { params: { strategy: 'enum', code: 'code' } },
  'GET /me': { readOnly: true },
  'PATCH /me': {
    params: {
      first_name: 'text',
      last_name: 'text',
      username: 'text',
      primary_email_address_id: 'id',
      primary_phone_number_id: 'id',
      primary_web3_wallet_id: 'id',
      unsafe_metadata: 'json',
    },
  },
  'DELETE /me': {},
  'POST /me/change_password': {
    params: { current_password: 'password', new_password: 'password', sign_out_of_other_sessions: 'bool' },
  },
  'POST /me/remove_password': { params: { current_password: 'password' } },
  'POST /me/profile_image': { upload: true },
  'DELETE /me/profile_image': {},
  'POST /me/email_addresses': { params: { email_address: 'email' } },
  'GET /me/email_addresses/:id': { readOnly: true },
  'DELETE /me/email_addresses/:id': {},
  'POST /me/email_addresses/:id/prepare_verification': { params: { strategy: 'enum', redirect_url: 'url' } },
  'POST /me/email_addresses/:id/attempt_verification': { params: { code: 'code' } },
  'POST /me/phone_numbers': { params: { phone_number: 'phone' } },
  'GET /me/phone_numbers/:id': { readOnly: true },
  'PATCH /me/phone_numbers/:id': {
    params: { reserved_for_second_factor: 'bool', default_second_factor: 'bool' },
  },
  'DELETE /me/phone_numbers/:id': {},
  'POST /me/external_accounts': {
    params: { strategy: 'enum', redirect_url: 'url', additional_scope: 'text' },
  },
  'PATCH /me/external_accounts/:id/reauthorize': {
    params: { redirect_url: 'url', additional_scope: 'text' },
  },
  'DELETE /me/external_accounts/:id': {},
  'POST /me/phone_numbers/:id/prepare_verification': { params: { strategy: 'enum' } },
  'POST /me/phone_numbers/:id/attempt_verification': { params: { code: 'code' } },
  'POST /me/web3_wallets': { params: { web3_wallet: 'text' } },
  'GET /me/web3_wallets/:id': { readOnly: true },
  'POST /me/web3_wallets/:id/prepare_verification': { params: { strategy: 'enum' } },
  'POST /me/web3_wallets/:id/attempt_verification': { params: { signature: 'text' } },
  'DELETE /me/web3_wallets/:id': {},
  'GET /me/sessions/active': { readOnly: true },
  'POST /me/sessions/:id/revoke': {},
  'POST /me/totp': {},
  'POST /me/totp/attempt_verification': { params: { code: 'code' } },
  'DELETE /me/totp': {},
  'POST /me/backup_codes': {},
  'POST /me/passkeys': {},
  'POST /me/passkeys/:id/attempt_verification': {
    params: { strategy: 'enum', public_key_credential: 'json' },
  },
  'PATCH /me/passkeys/:id': { params: { name: 'text' } },
  'DELETE /me/passkeys/:id': {},
  'POST /organizations': { params: { name: 'text', slug: 'text' } },
  'GET /organizations/:id': { readOnly: true },
  'PATCH /organizations/:id': { params: { name: 'text', slug: 'text' } },
  'DELETE /organizations/:id': {},
  'PUT /organizations/:id/logo': { upload: true },
  'DELETE /organizations/:id/logo': {},
  'GET /organizations/:id/roles': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'GET /organizations/:id/memberships': {
    readOnly: true,
    // A role nobody holds filters to an empty page, as a search that finds nothing.
    params: { limit: 'page', offset: 'page', role: 'list', query: 'text' },
  },
  'POST /organizations/:id/memberships': { params: { user_id: 'id', role: 'enum' } },
  'PATCH /organizations/:id/memberships/:userId': { params: { role: 'enum' } },
  'DELETE /organizations/:id/memberships/:userId': {},
  'GET /organizations/:id/invitations': {
    readOnly: true,
    params: { limit: 'page', offset: 'page', status: 'enum' },
  },
  'POST /organizations/:id/invitations': { params: { email_address: 'email', role: 'enum' } },
  'POST /organizations/:id/invitations/bulk': { params: { email_address: 'email', role: 'enum' } },
  'POST /organizations/:id/invitations/:invitationId/revoke': {},
  'GET /me/organization_memberships': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'DELETE /me/organization_memberships/:id': {},
  'GET /me/organization_suggestions': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'GET /me/organization_invitations': {
    readOnly: true,
    params: { limit: 'page', offset: 'page', status: 'enum' },
  },
  'POST /me/organization_invitations/:id/accept': {},
  // Billing (fapi/billing/): plans signed out, and each payer route for the user and the organisation.
  'GET /commerce/plans': { readOnly: true, params: { payer_type: 'enum', limit: 'page', offset: 'page' } },
  'GET /commerce/plans/:id': { readOnly: true },
  'GET /me/commerce/subscription': { readOnly: true },
  'GET /organizations/:organizationId/commerce/subscription': { readOnly: true },
  'GET /me/commerce/subscriptions': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'GET /organizations/:organizationId/commerce/subscriptions': {
    readOnly: true,
    params: { limit: 'page', offset: 'page' },
  },
  'DELETE /me/commerce/subscription_items/:id': {},
  'DELETE /organizations/:organizationId/commerce/subscription_items/:id': {},
  'GET /me/commerce/statements': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'GET /organizations/:organizationId/commerce/statements': {
    readOnly: true,
    params: { limit: 'page', offset: 'page' },
  },
  'GET /me/commerce/statements/:id': { readOnly: true },
  'GET /organizations/:organizationId/commerce/statements/:id': { readOnly: true },
  'GET /me/commerce/payment_attempts': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'GET /organizations/:organizationId/commerce/payment_attempts': {
    readOnly: true,
    params: { limit: 'page', offset: 'page' },
  },
  'GET /me/commerce/payment_attempts/:id': { readOnly: true },
  'GET /organizations/:organizationId/commerce/payment_attempts/:id': { readOnly: true },
  'POST /me/commerce/checkouts': { params: { plan_id: 'id', plan_period: 'enum' } },
  'POST /organizations/:organizationId/commerce/checkouts': {
    params: { plan_id: 'id', plan_period: 'enum' },
  },
  'PATCH /me/commerce/checkouts/:id/confirm': {
    params: { payment_source_id: 'id', gateway: 'enum', payment_token: 'token', use_test_card: 'bool' },
  },
  'PATCH /organizations/:organizationId/commerce/checkouts/:id/confirm': {
    params: { payment_source_id: 'id', gateway: 'enum', payment_token: 'token', use_test_card: 'bool' },
  },
  'POST /me/commerce/payment_sources/initialize': { params: { gateway: 'enum' } },
  'POST /organizations/:organizationId/commerce/payment_sources/initialize': { params: { gateway: 'enum' } },
  'POST /me/commerce/payment_sources': { params: { gateway: 'enum', payment_token: 'token' } },
  'POST /organizations/:organizationId/commerce/payment_sources': {
    params: { gateway: 'enum', payment_token: 'token' },
  },
  'GET /me/commerce/payment_sources': { readOnly: true, params: { limit: 'page', offset: 'page' } },
  'GET /organizations/:organizationId/commerce/payment_sources': {
    readOnly: true,
    params: { limit: 'page', offset: 'page' },
  },
  'DELETE /me/commerce/payment_sources/:id': {},
  'DELETE /organizations/:organizationId/commerce/payment_sources/:id': {},
  'PUT /me/commerce/payers/default_payment_source': { params: { payment_source_id: 'id' } },
  'PUT /organizations/:organizationId/commerce/payers/default_payment_source': {
    params: { payment_source_id: 'id' },
  },
};

/**
 * Routes outside the Frontend API's router (registered as Fastify routes of their own), whose path
 * parameters are fuzzed like the router's.
 */
const OWN_ROUTES = [
  { method: 'GET', path: '/images/users/:id' },
  { method: 'GET', path: '/images/organizations/:id' },
  { method: 'GET', path: '/avatars/:name' },
] as const;

/** The browser a route is called from: the visitor for attempts and navigations, else the owner. */
function callerOf(world: World, path: string) {
  return /^\/(client\/sign_(ins|ups)|verify|tickets|dev_browser|environment)/.test(path)
    ? world.visitor
    : world.owner.browser;
}

forEachBackend('fuzzing the Frontend API with bad input', (backend) => {
  let h: Harness;
  let world: World;
  const known = knownClientErrorCodes();
  before(async () => {
    h = await Harness.start(backend);
    // Billing on, with no default plan: a payer's reads then create nothing (a default plan is started
    // on first look), so "changes nothing" holds for every refused call.
    await enableBilling(h, FUZZ_BILLING);
    world = await buildWorld(h);
    console.warn(`fuzz-fapi [${backend.name}]: FUZZ_SEED=${FUZZ_SEED} FUZZ_CASES=${FUZZ_CASES}`);
  });
  after(() => h.close());

  it('every route has a fuzz spec, and every spec a route', () => {
    const keys = fapiRoutes(h.config).map((r) => `${r.method} ${r.path}`);
    // Specs may cover routes of development keys too (this harness runs production keys).
    const all = new Set([
      ...keys,
      ...fapiRoutes({ ...h.config, instanceKeys: 'development' }).map((r) => `${r.method} ${r.path}`),
    ]);
    assert.deepEqual(
      keys.filter((k) => !SPECS[k]),
      [],
      'routes without a fuzz spec',
    );
    assert.deepEqual(
      Object.keys(SPECS).filter((k) => !all.has(k)),
      [],
      'fuzz specs of routes that no longer exist',
    );
  });

  it('answers every bad request with a 4xx in Clerk envelope and changes nothing', async (t) => {
    for (const route of fapiRoutes(h.config)) {
      const key = `${route.method} ${route.path}`;
      await t.test(key, async () => {
        const spec = SPECS[key];
        assert.ok(spec, `no fuzz spec for ${key}`);
        const rng = new Rng(routeSeed(FUZZ_SEED, key));
        const cases = fapiCases(route, spec, world, rng, FUZZ_CASES);
        const before = await snapshot(h.db);
        const failures: string[] = [];
        for (const req of cases) {
          const res = await send(h, req, callerOf(world, route.path), rng);
          const verdict = judge(req, res, known);
          if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
        }
        const changed = snapshotDiff(before, await snapshot(h.db));
        // A batch that changed the world gets a fresh one, so the next route's failures are its own.
        if (changed.length) world = await buildWorld(h);
        if (changed.length)
          failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
        assert.deepEqual(failures, [], `FUZZ_SEED=${FUZZ_SEED} ${key}:\n${failures.join('\n')}`);
      });
    }
  });

  it('answers every wrong id in every path parameter, the image routes included, with a 4xx in Clerk envelope', async () => {
    const rng = new Rng(FUZZ_SEED);
    const before = await snapshot(h.db);
    const failures: string[] = [];
    for (const route of [...fapiRoutes(h.config), ...OWN_ROUTES]) {
      const bodied = route.method !== 'GET';
      const cases = pathParamCases(route, world, rng, (path, label) => ({
        label: `${route.method} ${route.path}: ${label}`,
        method: bodied ? 'POST' : 'GET',
        url: fapiUrl(path, route.method),
        headers: bodied
          ? { 'content-type': 'application/x-www-form-urlencoded' }
          : ({} as Record<string, string>),
        payload: bodied ? '' : undefined,
        expect: 'reject',
      }));
      for (const req of cases) {
        const verdict = judge(req, await send(h, req, callerOf(world, route.path), rng), known);
        if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
      }
    }
    const changed = snapshotDiff(before, await snapshot(h.db));
    if (changed.length) failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
    assert.deepEqual(failures, [], failures.join('\n'));
  });
});
