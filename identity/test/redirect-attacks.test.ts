import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { emailLinkSettingsFromEnv } from '../src/email-links/settings.ts';
import { forEachBackend } from './support/backends.ts';
import { latestLink, openLink } from './support/email-links.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import {
  BAPI,
  CLERK_QUERY,
  FAPI,
  Harness,
  PUBLIC_URL,
  RAISED_SEND_LIMITS,
  uniqueEmail,
  type Browser,
  type FapiResponse,
} from './support/harness.ts';
import { createOrganization, newMember } from './support/organizations.ts';
import { OFF_ORIGIN_REDIRECTS, SAME_ORIGIN_DISGUISES } from './support/redirect-attacks.ts';

/** Clerk's answer to a redirect URL off the allowed origins; the attack URL is not echoed back. */
function assertRefused(res: FapiResponse | { status: number; body: unknown }, param: string, url: string) {
  const body = res.body as { errors?: { code: string; meta?: { param_name?: string } }[] };
  const what = `${param}=${JSON.stringify(url)}: ${JSON.stringify(res.body)}`;
  assert.equal(res.status, 422, what);
  assert.equal(body.errors?.[0]?.code, 'form_param_value_invalid', what);
  assert.equal(body.errors?.[0]?.meta?.param_name, param, what);
  assert.equal(JSON.stringify(res.body).includes(JSON.stringify(url).slice(1, -1)), false, 'not reflected');
}

/**
 * Spec §5 through every parameter that carries a redirect URL: the sign-in and sign-up attempts
 * (`redirect_url`, `action_complete_redirect_url`, `redirect_url_complete`), email links for sign-in and
 * sign-up (`redirect_url`, where the link lands), invitations (the Backend API's `redirect_url`, and the
 * same parameter edited into a mailed ticket link). Sign-out has no redirect parameter on the wire:
 * clerk-js navigates after `DELETE /client/sessions` on its own.
 */
forEachBackend('open redirects through the Frontend and Backend APIs', (backend) => {
  let h: Harness;
  let email: string;
  let emailId: string;
  let organizationId: string;

  before(async () => {
    h = await Harness.start(backend, {
      config: {
        emailLinks: { ...emailLinkSettingsFromEnv({}), signUpVerification: 'link' },
        // Every disguise mails one address a link: far more than the per-recipient limit allows a person.
        sendLimits: RAISED_SEND_LIMITS,
      },
    });
    email = uniqueEmail('redirect');
    const signedUp = await signUp(h, h.browser(), email);
    emailId = signedUp.client.sessions[0].user.email_addresses[0].id;
    const admin = await newMember(h, 'redirect-admin');
    organizationId = (await createOrganization(admin, 'Redirect Org')).id;
  });
  after(() => h.close());
  // Attempts are rate limited per identifier and per attempt: each request in a window of its own.
  beforeEach(() => h.clock.advance(61));
  const nextWindow = () => h.clock.advance(61);

  it('POST /client/sign_ins refuses every attack in redirect_url and action_complete_redirect_url', async () => {
    const before = await h.count('sign_ins');
    for (const param of ['redirect_url', 'action_complete_redirect_url']) {
      for (const [, url] of OFF_ORIGIN_REDIRECTS) {
        nextWindow();
        assertRefused(
          await h.browser().post('/client/sign_ins', { identifier: email, [param]: url }),
          param,
          url,
        );
      }
    }
    assert.equal(await h.count('sign_ins'), before, 'no sign-in was started');
    const ok = await h.browser().post('/client/sign_ins', { identifier: email, redirect_url: '/dashboard' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('POST /client/sign_ins with strategy email_link mails nothing for an attack', async () => {
    const mails = (await h.mail(email)).length;
    for (const [, url] of OFF_ORIGIN_REDIRECTS) {
      nextWindow();
      const res = await h.browser().post('/client/sign_ins', {
        identifier: email,
        strategy: 'email_link',
        redirect_url: url,
      });
      assertRefused(res, 'redirect_url', url);
    }
    assert.equal((await h.mail(email)).length, mails, 'no link was mailed');
  });

  it('prepare_first_factor (email_link) refuses every attack and mails nothing', async () => {
    const browser = h.browser();
    const id = (await browser.post('/client/sign_ins', { identifier: email })).body.response.id;
    const mails = (await h.mail(email)).length;
    for (const [, url] of OFF_ORIGIN_REDIRECTS) {
      nextWindow();
      const res = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
        strategy: 'email_link',
        email_address_id: emailId,
        redirect_url: url,
      });
      assertRefused(res, 'redirect_url', url);
    }
    assert.equal((await h.mail(email)).length, mails, 'no link was mailed');
  });

  it('POST and PATCH /client/sign_ups refuse every attack in their three redirect parameters', async () => {
    const before = await h.count('sign_ups');
    const params = ['redirect_url', 'action_complete_redirect_url', 'redirect_url_complete'];
    for (const param of params) {
      for (const [, url] of OFF_ORIGIN_REDIRECTS) {
        const form = { email_address: uniqueEmail('su'), password: PASSWORD, [param]: url };
        assertRefused(await h.browser().post('/client/sign_ups', form), param, url);
      }
    }
    assert.equal(await h.count('sign_ups'), before, 'no sign-up was started');

    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', { email_address: uniqueEmail('su') });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.response.id;
    const row = async () => JSON.stringify(await h.db.query('SELECT * FROM sign_ups WHERE id = $1', [id]));
    const unchanged = await row();
    for (const param of params) {
      for (const [, url] of OFF_ORIGIN_REDIRECTS) {
        assertRefused(
          await browser.patch(`/client/sign_ups/${id}`, { first_name: 'Changed', [param]: url }),
          param,
          url,
        );
      }
    }
    assert.equal(await row(), unchanged, 'the sign-up is untouched');
  });

  it('sign-up prepare_verification (email_link) refuses every attack and mails nothing', async () => {
    const browser = h.browser();
    const address = uniqueEmail('su-link');
    const created = await browser.post('/client/sign_ups', { email_address: address, password: PASSWORD });
    const id = created.body.response.id;
    for (const [, url] of OFF_ORIGIN_REDIRECTS) {
      nextWindow();
      const res = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'email_link',
        redirect_url: url,
      });
      assertRefused(res, 'redirect_url', url);
    }
    assert.deepEqual(await h.mail(address), [], 'no link was mailed');
  });

  it('a redirect parameter given twice is refused, never read as its harmless half', async () => {
    for (const order of [
      ['/dashboard', 'https://evil.test/'],
      ['https://evil.test/', '/dashboard'],
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url: `${FAPI}/v1/client/sign_ins?${new URLSearchParams(CLERK_QUERY)}`,
        headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `identifier=${encodeURIComponent(email)}&${order.map((u) => `redirect_url=${encodeURIComponent(u)}`).join('&')}`,
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].meta.param_name, 'redirect_url');
    }
  });

  it('an email link lands on the product origin for every disguised value it accepted', async () => {
    for (const url of SAME_ORIGIN_DISGUISES) {
      nextWindow();
      const browser: Browser = h.browser();
      const id = (await browser.post('/client/sign_ins', { identifier: email })).body.response.id;
      const res = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
        strategy: 'email_link',
        email_address_id: emailId,
        redirect_url: url,
      });
      assert.equal(res.status, 200, `${JSON.stringify(url)}: ${JSON.stringify(res.body)}`);
      const landing = await openLink(browser, await latestLink(h, email));
      assert.equal(landing.location.origin, PUBLIC_URL, JSON.stringify(url));
      assert.equal(landing.status, 'verified');
      assert.doesNotMatch(String(landing.res.headers.location), /[\r\n]/);
    }
  });

  async function bapiInvite(form: Record<string, string>) {
    const res = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/organizations/${organizationId}/invitations`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ role: 'org:member', ...form }),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('Backend API invitations refuse every attack in redirect_url: no invitation, no mail', async () => {
    const before = await h.count('organization_invitations');
    const invitee = uniqueEmail('invitee');
    for (const [, url] of OFF_ORIGIN_REDIRECTS) {
      assertRefused(await bapiInvite({ email_address: invitee, redirect_url: url }), 'redirect_url', url);
    }
    assert.equal(await h.count('organization_invitations'), before);
    assert.deepEqual(await h.mail(invitee), []);
  });

  it('a ticket link with an attack edited in lands on the default page, and nothing of it is in Location', async () => {
    const invited = await bapiInvite({ email_address: uniqueEmail('ticket') });
    assert.equal(invited.status, 200, JSON.stringify(invited.body));
    const link = new URL(invited.body.url);
    const open = async (redirectUrl: string | string[]) => {
      const url = new URL(link);
      url.searchParams.delete('redirect_url');
      for (const value of [redirectUrl].flat()) url.searchParams.append('redirect_url', value);
      const res = await h.browser({ origin: null }).raw('GET', `${url.pathname}${url.search}`);
      assert.equal(res.status, 303, JSON.stringify(res.body));
      return String(res.headers.location);
    };
    for (const [label, url] of OFF_ORIGIN_REDIRECTS) {
      const location = await open(url);
      assert.ok(location.startsWith(`${PUBLIC_URL}/sign-up?__clerk_ticket=`), `${label}: ${location}`);
      const rest = new URL(location);
      rest.searchParams.delete('__clerk_ticket');
      assert.doesNotMatch(
        rest.href,
        /evil|javascript|script|data:|file:|ftp:|ws:|127\.0\.0\.1|%40|@/i,
        label,
      );
    }
    // Given twice, the link follows neither half to another origin.
    assert.ok((await open(['/dashboard', 'https://evil.test/'])).startsWith(`${PUBLIC_URL}/sign-up?`));
    for (const url of SAME_ORIGIN_DISGUISES) {
      const location = new URL(await open(url));
      assert.equal(location.origin, PUBLIC_URL, JSON.stringify(url));
    }
    // The control: an allowed redirect_url is followed.
    assert.ok((await open('/welcome')).startsWith(`${PUBLIC_URL}/welcome?__clerk_ticket=`));
  });
});
