import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  backendClient,
  createOrganizationFor,
  createUser,
  setOrganizationSettings,
} from '../support/backend.ts';
import { PASSWORD, uniqueEmail } from '../support/flows.ts';
import type { OutboxMail } from '../support/outbox.ts';
import { useSuite } from '../support/suite.ts';
import { signedInPage } from '../support/wire-session.ts';

/** The newest mail to `to`, waited for. */
async function mailTo(origin: string, to: string): Promise<OutboxMail> {
  for (let i = 0; i < 50; i++) {
    const url = `${origin}/__dev/mail?to=${encodeURIComponent(to)}`;
    const [mail] = (await (await fetch(url)).json()) as OutboxMail[];
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing mailed to ${to}`);
}

/**
 * Mail in the language the reader chose, not the one their browser happens to speak (issue #29): every
 * browser here is English (`en-US`, so its Accept-Language names English) while the reader chose French.
 */
describe('mail in French for a French reader on an English browser', () => {
  const suite = useSuite();

  test('signing up in the French interface: the code comes in French', async () => {
    const origin = suite.server.origin;
    const { page } = await suite.newPage({ language: 'FR', locale: 'en-US' });
    const email = uniqueEmail('fr-sign-up');
    await page.goto(`${origin}/sign-up`);
    await page.locator('input[name=emailAddress]').fill(email);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.locator('.cl-signUp-root .cl-formButtonPrimary').click();
    assert.match((await mailTo(origin, email)).subject, /^\d{6} est votre code de vérification /);
  });

  test("switching to French is the user's choice from then on (what their codes speak)", async () => {
    const user = await createUser(suite.server, 'fr-toggle');
    const { page } = await signedInPage(suite, user, { language: 'EN', locale: 'en-US' });
    await page.getByTestId('language-FR').click();
    const clerk = backendClient(suite.server);
    let chosen: unknown;
    for (let i = 0; i < 50 && chosen !== 'FR'; i++) {
      chosen = (await clerk.users.getUser(user.id)).unsafeMetadata.uiLanguage;
      if (chosen !== 'FR') await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(chosen, 'FR');
  });

  test("an invitation sent from an English browser speaks the French organisation's language", async () => {
    const clerk = backendClient(suite.server);
    const admin = await createUser(suite.server, 'fr-invite');
    const organization = await createOrganizationFor(clerk, admin, 'Sécurité Martin');
    await setOrganizationSettings(clerk, organization.id, { modules: [], uiLanguage: 'FR' });
    const { page } = await signedInPage(suite, admin, { language: 'EN', locale: 'en-US' });
    const invitee = uniqueEmail('fr-invitee');
    // The call <OrganizationProfile/>'s invite form makes (organizations.test.ts goes through the form).
    await page.evaluate(
      (emailAddress) =>
        (
          window as unknown as {
            Clerk: {
              organization: { inviteMember(p: { emailAddress: string; role: string }): Promise<unknown> };
            };
          }
        ).Clerk.organization.inviteMember({ emailAddress, role: 'org:member' }),
      invitee,
    );
    const mail = await mailTo(suite.server.origin, invitee);
    assert.equal(mail.subject, 'Invitation à rejoindre une organisation sur Qoala');
    assert.match(
      mail.text,
      /vous invite à rejoindre l'organisation «\u00a0Sécurité Martin\u00a0» sur Qoala en tant que membre\./,
    );
  });
});
