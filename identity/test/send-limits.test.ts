import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEFAULT_SEND_LIMITS } from '../src/mail/send-limits.ts';
import { insertMembership, insertOrganization } from '../src/store/organizations.ts';
import type { OrganizationRow } from '../src/store/rows.ts';
import { createUserWithVerifiedEmail } from '../src/store/users.ts';
import { forEachBackend } from './support/backends.ts';
import {
  BAPI,
  CLERK_QUERY,
  FAPI,
  Harness,
  PUBLIC_URL,
  uniqueEmail,
  type FapiResponse,
} from './support/harness.ts';
import { assertError, newMember, type Member } from './support/organizations.ts';

const PER_10_MINUTES = DEFAULT_SEND_LIMITS.perRecipientPer10Minutes;
const PER_DAY = DEFAULT_SEND_LIMITS.perRecipientPerDay;

function assertTooMany(
  res: FapiResponse | { status: number; body: unknown; headers: Record<string, unknown> },
) {
  assertError(res as FapiResponse, 429, 'too_many_requests');
  assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After says when to come back');
}

forEachBackend(
  'sending limits: mail per recipient, invitations per organisation, inviter and request',
  (backend) => {
    describe('codes and links to one address, from many IPs', () => {
      let h: Harness;
      let email: string;
      let emailId: string;
      before(async () => {
        h = await Harness.start(backend);
      });
      after(() => h.close());
      // A fresh user per test, and the per-IP and per-identifier sign-in limits out of the way.
      beforeEach(async () => {
        h.clock.advance(24 * 3600);
        email = uniqueEmail('flooded');
        const user = await createUserWithVerifiedEmail(h.db, {
          email,
          username: null,
          // Never tried here: it only makes the password reset factor available.
          passwordHash: 'not-a-real-hash',
          firstName: null,
          lastName: null,
          unsafeMetadata: {},
          legalAcceptedAt: null,
          now: h.clock.now,
        });
        emailId = user.primary_email_address_id!;
      });

      /** A sign-in from a fresh browser (a new IP each time) that prepares `strategy` for the address. */
      async function prepare(strategy: string): Promise<FapiResponse> {
        const browser = h.browser();
        const created = await browser.post('/client/sign_ins', { identifier: email });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        return browser.post(`/client/sign_ins/${created.body.response.id}/prepare_first_factor`, {
          strategy,
          email_address_id: emailId,
          ...(strategy === 'email_link' ? { redirect_url: `${PUBLIC_URL}/sign-in#/verify` } : {}),
        });
      }

      for (const strategy of ['email_code', 'email_link', 'reset_password_email_code']) {
        it(`${strategy}: ${PER_10_MINUTES} mails in 10 minutes, then 429 and nothing sent`, async () => {
          for (let i = 0; i < PER_10_MINUTES; i++) {
            const res = await prepare(strategy);
            assert.equal(res.status, 200, JSON.stringify(res.body));
          }
          for (let i = 0; i < 3; i++) assertTooMany(await prepare(strategy));
          assert.equal((await h.mail(email)).length, PER_10_MINUTES);
          h.clock.advance(600);
          assert.equal((await prepare(strategy)).status, 200, 'a new window opens after 10 minutes');
          assert.equal((await h.mail(email)).length, PER_10_MINUTES + 1);
        });
      }

      it('every kind of mail counts towards the same limit, whatever the case of the address', async () => {
        assert.equal((await prepare('email_code')).status, 200);
        assert.equal((await prepare('email_link')).status, 200);
        assert.equal((await prepare('reset_password_email_code')).status, 200);
        for (let i = 3; i < PER_10_MINUTES; i++) assert.equal((await prepare('email_code')).status, 200);
        assertTooMany(await prepare('email_link'));
        assert.equal((await h.mail(email)).length, PER_10_MINUTES);
      });

      it(`at most ${PER_DAY} a day`, async () => {
        for (let sent = 0; sent < PER_DAY; sent++) {
          if (sent > 0 && sent % PER_10_MINUTES === 0) h.clock.advance(601);
          const res = await prepare('email_code');
          assert.equal(res.status, 200, `mail ${sent + 1}: ${JSON.stringify(res.body)}`);
        }
        h.clock.advance(601);
        assertTooMany(await prepare('email_code'));
        assert.equal((await h.mail(email)).length, PER_DAY);
      });

      it('sign-up codes to a new address: counted whatever the letter case', async () => {
        const address = uniqueEmail('newcomer');
        const variants = [address, address.toUpperCase(), address.replace(/^./, (c) => c.toUpperCase())];
        const prepareSignUp = async (to: string) => {
          const browser = h.browser();
          const created = await browser.post('/client/sign_ups', { email_address: to });
          assert.equal(created.status, 200, JSON.stringify(created.body));
          return browser.post(`/client/sign_ups/${created.body.response.id}/prepare_verification`, {
            strategy: 'email_code',
          });
        };
        for (let i = 0; i < PER_10_MINUTES; i++) {
          const res = await prepareSignUp(variants[i % variants.length]!);
          assert.equal(res.status, 200, JSON.stringify(res.body));
        }
        assertTooMany(await prepareSignUp(address.toUpperCase()));
        const mails = await h.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM outbox WHERE lower(recipient) = lower($1)`,
          [address],
        );
        assert.equal(mails[0]!.n, PER_10_MINUTES);
      });
    });

    describe('invitations', () => {
      let h: Harness;
      const limits = {
        ...DEFAULT_SEND_LIMITS,
        invitationsPerOrganizationPerHour: 6,
        invitationsPerInviterPerHour: 4,
      };
      before(async () => {
        h = await Harness.start(backend, { config: { sendLimits: limits } });
      });
      after(() => h.close());
      beforeEach(() => h.clock.advance(24 * 3600));

      async function organization(name = 'Acme'): Promise<{ org: OrganizationRow; admins: Member[] }> {
        const admins = [await newMember(h, 'admin', { firstName: 'Ada' }), await newMember(h, 'admin')];
        const org = await insertOrganization(h.db, {
          name,
          slug: `org-${randomBytes(4).toString('hex')}`,
          createdBy: admins[0]!.userId,
          now: h.clock.now,
        });
        for (const a of admins) {
          await insertMembership(h.db, {
            organizationId: org.id,
            userId: a.userId,
            role: 'org:admin',
            now: h.clock.now,
          });
        }
        return { org, admins };
      }

      const invite = (admin: Member, org: OrganizationRow, email: string) =>
        admin.browser.post(`/organizations/${org.id}/invitations`, {
          email_address: email,
          role: 'org:member',
        });

      /** The bulk form as clerk-js sends it: `email_address` repeated, one `role`. */
      async function inviteBulk(admin: Member, org: OrganizationRow, emails: string[]) {
        const body = new URLSearchParams([
          ...emails.map((e) => ['email_address', e]),
          ['role', 'org:member'],
        ]);
        const res = await h.app.inject({
          method: 'POST',
          url: `${FAPI}/v1/organizations/${org.id}/invitations/bulk?${new URLSearchParams(CLERK_QUERY)}`,
          headers: {
            origin: PUBLIC_URL,
            cookie: [...admin.browser.jar].map(([k, v]) => `${k}=${v}`).join('; '),
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: body.toString(),
          remoteAddress: admin.browser.ip,
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers };
      }

      it('one address invited again and again, by several organisations: limited per recipient', async () => {
        const victim = uniqueEmail('victim');
        const orgs = [await organization('One'), await organization('Two'), await organization('Three')];
        let sent = 0;
        for (const { org, admins } of orgs) {
          for (const admin of admins) {
            if (sent === PER_10_MINUTES) break;
            const res = await invite(admin, org, victim);
            assert.equal(res.status, 200, JSON.stringify(res.body));
            sent++;
          }
        }
        assertTooMany(await invite(orgs[2]!.admins[1]!, orgs[2]!.org, victim));
        assert.equal((await h.mail(victim)).length, PER_10_MINUTES);
      });

      it('per inviter and per organisation an hour; a refused request sends nothing', async () => {
        const { org, admins } = await organization();
        const [a, b] = admins as [Member, Member];
        for (let i = 0; i < limits.invitationsPerInviterPerHour; i++) {
          assert.equal((await invite(a, org, uniqueEmail('team'))).status, 200);
        }
        const refused = uniqueEmail('team');
        assertTooMany(await invite(a, org, refused));
        // The other admin still may, until the organisation's hour is used up (6 = 4 + 2).
        const bulk = await inviteBulk(b, org, [uniqueEmail('team'), uniqueEmail('team')]);
        assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
        assertTooMany(await invite(b, org, refused));
        assert.equal((await h.mail(refused)).length, 0);
        assert.equal(await h.count('organization_invitations', 'lower(email_address) = $1', [refused]), 0);
        h.clock.advance(3601);
        assert.equal((await invite(a, org, refused)).status, 200, 'a new hour');
      });

      it('a bulk request of more than 10 addresses is refused and mails nobody (Frontend and Backend API)', async () => {
        const { org, admins } = await organization();
        const addresses = Array.from({ length: DEFAULT_SEND_LIMITS.invitationsPerBulkRequest + 1 }, () =>
          uniqueEmail('bulk'),
        );
        assertError(
          await inviteBulk(admins[0]!, org, addresses),
          422,
          'form_param_value_invalid',
          'email_address',
        );
        const bapi = await h.app.inject({
          method: 'POST',
          url: `${BAPI}/v1/organizations/${org.id}/invitations/bulk`,
          headers: { authorization: `Bearer ${h.identity.secretKey}` },
          payload: addresses.map((email_address) => ({ email_address, role: 'org:member' })),
        });
        assert.equal(bapi.statusCode, 422, bapi.body);
        assert.equal(bapi.json().errors[0].code, 'form_param_value_invalid');
        for (const e of addresses) assert.equal((await h.mail(e)).length, 0);
        assert.equal(await h.count('organization_invitations', 'organization_id = $1', [org.id]), 0);

        const ten = await h.app.inject({
          method: 'POST',
          url: `${BAPI}/v1/organizations/${org.id}/invitations/bulk`,
          headers: { authorization: `Bearer ${h.identity.secretKey}` },
          payload: addresses.slice(1).map((email_address) => ({ email_address, role: 'org:member' })),
        });
        assert.equal(ten.statusCode, 200, 'ten are fine');
        assert.equal(await h.count('organization_invitations', 'organization_id = $1', [org.id]), 10);
      });

      it('a hostile organisation name stays out of the subject, and is one quoted, bounded line in the body', async () => {
        const hostile =
          'WIN $1000 NOW\r\nBcc: everyone@example.com\n<a href="http://spam.test">claim</a>\u202e' +
          'x'.repeat(300);
        const { org, admins } = await organization(hostile);
        const invitee = uniqueEmail('target');
        assert.equal((await invite(admins[0]!, org, invitee)).status, 200);
        const [mail] = await h.mail(invitee);
        assert.ok(mail);
        // No uiLanguage on the organisation: the product's default, French.
        assert.equal(mail.subject, 'Invitation à rejoindre une organisation sur Qoala');
        assert.ok(!mail.subject.includes('WIN'));
        const intro = mail.text.split('\n')[0]!;
        assert.match(
          intro,
          /^«\u00a0Ada\u00a0» vous invite à rejoindre l'organisation «\u00a0WIN \$1000 NOW Bcc: everyone@example\.com /,
        );
        assert.ok(intro.includes('…\u00a0»'), 'the name is cut short');
        assert.ok(!mail.text.includes('\r') && !mail.text.includes('\u202e'));
        assert.ok(!mail.text.includes('x'.repeat(100)));
        assert.ok(!mail.html.includes('<a href="http://spam'), 'the HTML escapes the name');
        assert.ok(mail.html.includes('everyone@example.com &lt;a href=&quot;http://spam'));
      });
    });
  },
);
