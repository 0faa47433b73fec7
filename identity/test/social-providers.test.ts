import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import type { SocialProviderSettings } from '../src/instance/settings/schema.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { openCallback, redirectBackFrom } from './support/social-flows.ts';

/**
 * What each well-known provider does its own way, against stand-ins on this machine: GitHub's
 * `/user/emails` (which address is primary and verified), Microsoft's multi-tenant issuer (the ID token's
 * `iss` names the user's tenant, checked against the `{tenantid}` template with its `tid`), and discovery
 * done outside any database transaction.
 */

const SECRET_ENV = 'SOCIAL_PROVIDERS_TEST_SECRET';

/** A small HTTP server on a free loopback port, answering with `handle`. */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      Promise.resolve(handle(req, res, body)).catch(() => {
        res.statusCode = 500;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** What the GitHub stand-in says of the user who signs in next. */
interface GithubPerson {
  id: number;
  /** The public email of the profile (`/user`), often null at GitHub. */
  publicEmail: string | null;
  /** `/user/emails`; null: it answers 404 (no `user:email` scope granted). */
  emails: { email: string; primary: boolean; verified: boolean }[] | null;
}
let githubPerson: GithubPerson;

/** What the Microsoft stand-in signs: the user's tenant (`tid`) and the tenant its `iss` names. */
let microsoftPerson: { sub: string; email: string; tid?: string; issuerTenant: string };
/** Open database transactions at each discovery request the Microsoft stand-in answered. */
let transactionsAtDiscovery: number[];
let discoveryDown = false;

forEachBackend('social providers: GitHub emails, Microsoft tenants, discovery', (backend) => {
  let h: Harness;
  let github: { server: Server; base: string };
  let microsoft: OAuth2Server;
  let microsoftFront: { server: Server; base: string };
  let openTransactions = 0;
  let configured = 0;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    github = await serve(githubStandIn);
    microsoft = await startOidcStandIn((payload) => {
      Object.assign(payload, {
        sub: microsoftPerson.sub,
        email: microsoftPerson.email,
        tid: microsoftPerson.tid,
        iss: `${microsoftFront.base}/${microsoftPerson.issuerTenant}/v2.0`,
      });
    });
    // Microsoft's multi-tenant discovery document (/common/v2.0): the issuer is a template, the
    // endpoints and keys those of the OpenID Connect stand-in that signs the tokens.
    microsoftFront = await serve(async (req, res) => {
      if (req.url !== '/common/v2.0/.well-known/openid-configuration') return json(res, 404, {});
      transactionsAtDiscovery.push(openTransactions);
      if (discoveryDown) return json(res, 503, {});
      const metadata = (await (
        await fetch(`${microsoft.issuer.url}/.well-known/openid-configuration`)
      ).json()) as Json;
      json(res, 200, { ...metadata, issuer: `${microsoftFront.base}/{tenantid}/v2.0` });
    });
    h = await Harness.start(backend);
    // Counts the transactions open at any moment (a provider must never be asked inside one).
    const db = h.db as { transaction: Harness['db']['transaction'] };
    const original = h.db.transaction.bind(h.db);
    db.transaction = async (fn) => {
      openTransactions++;
      try {
        return await original(fn);
      } finally {
        openTransactions--;
      }
    };
    await configure();
  });
  after(async () => {
    await h.close();
    await microsoft.stop();
    await new Promise((resolve) => github.server.close(resolve));
    await new Promise((resolve) => microsoftFront.server.close(resolve));
  });
  beforeEach(() => {
    const id = Math.floor(Math.random() * 1e9);
    githubPerson = { id, publicEmail: null, emails: [] };
    const tid = randomBytes(8).toString('hex');
    microsoftPerson = { sub: `ms-${id}`, email: uniqueEmail('ms'), tid, issuerTenant: tid };
    transactionsAtDiscovery = [];
    discoveryDown = false;
  });

  /** Both providers (new settings objects: the next use of each discovers it again). */
  async function configure() {
    const secret: SocialProviderSettings['clientSecret'] = { env: SECRET_ENV };
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      social: {
        oauth_github: {
          enabled: true,
          authenticatable: true,
          signUpAllowed: true,
          clientId: 'qoala-github',
          clientSecret: secret,
          authorizationEndpoint: `${github.base}/login/oauth/authorize`,
          tokenEndpoint: `${github.base}/login/oauth/access_token`,
          userinfoEndpoint: `${github.base}/user`,
        },
        oauth_microsoft: {
          enabled: true,
          authenticatable: true,
          signUpAllowed: true,
          // Another client id each time: a changed document, so new settings objects.
          clientId: `qoala-microsoft-${++configured}`,
          clientSecret: secret,
          issuer: `${microsoftFront.base}/common/v2.0`,
        },
      },
    });
  }

  /** The provider's button on a sign-in, through the provider and back to the callback. */
  async function signInWith(browser: Browser, strategy: string): Promise<FapiResponse> {
    const started = await browser.post('/client/sign_ins', {
      strategy,
      redirect_url: app('/sign-in#/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const authorize = started.body.response.first_factor_verification.external_verification_redirect_url;
    return openCallback(browser, await redirectBackFrom(authorize));
  }

  const signInOf = async (browser: Browser) => (await browser.get('/client')).body.response.sign_in;

  it('GitHub: the primary address verified at GitHub (/user/emails) links to the account holding it', async () => {
    const email = uniqueEmail('octo');
    const existing = await signUp(h, h.browser(), email);
    githubPerson.publicEmail = uniqueEmail('public');
    githubPerson.emails = [
      { email: githubPerson.publicEmail, primary: false, verified: true },
      { email, primary: true, verified: true },
    ];
    const browser = h.browser();
    const landed = await signInWith(browser, 'oauth_github');
    assert.equal(landed.headers.location, app('/dashboard'), 'signed in to the account with that address');
    const user = (await browser.get('/client')).body.response.sessions[0].user;
    assert.equal(user.id, existing.userId);
    const [account] = user.external_accounts;
    assert.equal(account.provider, 'github');
    assert.equal(account.provider_user_id, String(githubPerson.id));
    assert.equal(account.email_address, email);
    assert.equal(account.username, `octo${githubPerson.id}`);
    // GitHub's comma-separated `scope`, as Clerk shows it: space-separated.
    assert.equal(account.approved_scopes, 'read:user user:email');
  });

  it('GitHub: a primary address GitHub has not verified never links; a new account must verify it by a code', async () => {
    const email = uniqueEmail('unverified-octo');
    const existing = await signUp(h, h.browser(), email);
    githubPerson.emails = [{ email, primary: true, verified: false }];
    const browser = h.browser();
    const landed = await signInWith(browser, 'oauth_github');
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    assert.equal((await signInOf(browser)).first_factor_verification.status, 'transferable');
    assert.equal(await h.count('external_accounts', 'user_id = $1', [existing.userId]), 0);
  });

  it('GitHub: without /user/emails (no user:email scope) the public address is kept unverified', async () => {
    const email = uniqueEmail('public-only');
    const existing = await signUp(h, h.browser(), email);
    githubPerson.publicEmail = email;
    githubPerson.emails = null;
    const browser = h.browser();
    await signInWith(browser, 'oauth_github');
    assert.equal((await signInOf(browser)).first_factor_verification.status, 'transferable');
    assert.equal(await h.count('external_accounts', 'user_id = $1', [existing.userId]), 0);
    // The sign-up it transfers to has the public address, to be verified by a code.
    const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
    assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
    assert.equal(transferred.body.response.status, 'missing_requirements');
  });

  it('GitHub: the primary verified address signs a new person up at once (verified by GitHub)', async () => {
    const email = uniqueEmail('new-octo');
    githubPerson.emails = [{ email, primary: true, verified: true }];
    const browser = h.browser();
    await signInWith(browser, 'oauth_github');
    const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
    assert.equal(transferred.body.response.status, 'complete', JSON.stringify(transferred.body));
    const user = transferred.body.client.sessions[0].user;
    assert.equal(user.email_addresses[0].email_address, email);
    assert.equal(user.email_addresses[0].verification.strategy, 'from_oauth_github');
  });

  it("Microsoft (common): an ID token whose iss names the user's own tenant (tid) is accepted", async () => {
    const browser = h.browser();
    const landed = await signInWith(browser, 'oauth_microsoft');
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    const signIn = await signInOf(browser);
    assert.equal(signIn.first_factor_verification.status, 'transferable', JSON.stringify(signIn));
    assert.equal(signIn.first_factor_verification.error.code, 'external_account_not_found');
    // Microsoft asserts no address verified: the sign-up it transfers to verifies it by a code.
    const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
    assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
    assert.equal(transferred.body.response.email_address, microsoftPerson.email);
    assert.equal(transferred.body.response.verifications.external_account.status, 'verified');
  });

  it("Microsoft (common): an iss naming another tenant than the token's tid, or no tid, is refused", async () => {
    for (const spoiled of [
      { issuerTenant: randomBytes(8).toString('hex') },
      { tid: undefined },
      { issuerTenant: 'common' },
    ]) {
      Object.assign(microsoftPerson, spoiled);
      const browser = h.browser();
      const landed = await signInWith(browser, 'oauth_microsoft');
      assert.equal(landed.status, 303);
      const signIn = await signInOf(browser);
      assert.equal(signIn.first_factor_verification.status, 'failed', JSON.stringify(spoiled));
      assert.equal(signIn.first_factor_verification.error.code, 'external_account_verification_failed');
      assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [microsoftPerson.sub]), 0);
    }
  });

  it('discovers a provider with no database transaction open, once; a provider that cannot be discovered is a clear error', async () => {
    await configure();
    const browser = h.browser();
    await signInWith(browser, 'oauth_microsoft');
    await signInWith(h.browser(), 'oauth_microsoft');
    assert.deepEqual(transactionsAtDiscovery, [0], 'asked once, outside any transaction');

    await configure();
    discoveryDown = true;
    const refused = await h.browser().post('/client/sign_ins', {
      strategy: 'oauth_microsoft',
      redirect_url: app('/sign-in#/sso-callback'),
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].code, 'external_account_verification_failed');
    assert.deepEqual(transactionsAtDiscovery, [0, 0], 'asked outside the transaction, and answered once');
  });
});

/** GitHub's OAuth endpoints and REST API as a sign-in uses them (`githubPerson` signs in). */
function githubStandIn(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url!, 'http://github.test');
  const bearer = req.headers.authorization === `Bearer gho_${githubPerson.id}`;
  if (url.pathname === '/login/oauth/authorize') {
    const back = new URL(url.searchParams.get('redirect_uri')!);
    back.searchParams.set('code', `code-${githubPerson.id}`);
    back.searchParams.set('state', url.searchParams.get('state')!);
    res.writeHead(302, { location: back.toString() });
    res.end();
    return;
  }
  if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
    const form = new URLSearchParams(body);
    if (form.get('code') !== `code-${githubPerson.id}` || !form.get('code_verifier')) {
      return json(res, 400, { error: 'bad_verification_code' });
    }
    return json(res, 200, {
      access_token: `gho_${githubPerson.id}`,
      token_type: 'bearer',
      scope: 'read:user,user:email',
    });
  }
  if (!bearer) return json(res, 401, { message: 'Requires authentication' });
  if (url.pathname === '/user') {
    return json(res, 200, {
      id: githubPerson.id,
      login: `octo${githubPerson.id}`,
      name: 'Octo Cat',
      email: githubPerson.publicEmail,
      avatar_url: null,
    });
  }
  if (url.pathname === '/user/emails' && githubPerson.emails) return json(res, 200, githubPerson.emails);
  return json(res, 404, { message: 'Not Found' });
}
