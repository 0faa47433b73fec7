import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { defaultMailLanguageFromEnv, languageFromAcceptLanguage } from '../src/mail/language.ts';
import { waitlistInvitationMail } from '../src/mail/templates.ts';
import { insertMembership, insertOrganization } from '../src/store/organizations.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type OutboxMail } from './support/harness.ts';
import { smsTo, uniquePhone } from './support/sms.ts';

const NBSP = '\u00a0';
const ENGLISH_WORDS = /\b(the|your|you|code is|link|invited|expires|ignore|email)\b/i;

/** The mail's three renderings, for checks that hold for each. */
const renderings = (mail: Pick<OutboxMail, 'subject' | 'text' | 'html'>) => [
  mail.subject,
  mail.text,
  mail.html,
];

describe('the language of an Accept-Language header', () => {
  it('is the first of ours by preference, then by order; * and q=0 name none', () => {
    assert.equal(languageFromAcceptLanguage('en-US,en;q=0.9,fr;q=0.8'), 'en');
    assert.equal(languageFromAcceptLanguage('fr-FR,fr;q=0.9,en-US;q=0.8'), 'fr');
    assert.equal(languageFromAcceptLanguage('de-DE,de;q=0.9,en;q=0.7,fr;q=0.8'), 'fr');
    assert.equal(languageFromAcceptLanguage('fr;q=0.5, en-GB'), 'en');
    assert.equal(languageFromAcceptLanguage('en;q=0, fr-CA'), 'fr');
    assert.equal(languageFromAcceptLanguage('de, *'), null);
    assert.equal(languageFromAcceptLanguage(''), null);
    assert.equal(languageFromAcceptLanguage(null), null);
  });

  it('IDENTITY_MAIL_DEFAULT_LANGUAGE is fr by default, en when asked, and nothing else', () => {
    assert.equal(defaultMailLanguageFromEnv({}), 'fr');
    assert.equal(defaultMailLanguageFromEnv({ IDENTITY_MAIL_DEFAULT_LANGUAGE: 'en' }), 'en');
    assert.throws(() => defaultMailLanguageFromEnv({ IDENTITY_MAIL_DEFAULT_LANGUAGE: 'de' }), /fr, en/);
  });
});

describe('the waitlist invitation', () => {
  const input = {
    url: 'https://app.example/sign-up?t=1',
    expiresAt: new Date('2027-01-05T10:00:00Z'),
    appName: 'Qoala',
  };

  it('in French: subject, text and html, with a French date', () => {
    const mail = waitlistInvitationMail('a@example.com', { ...input, language: 'fr' });
    assert.equal(mail.subject, 'Votre invitation à rejoindre Qoala');
    assert.equal(
      mail.text,
      `Votre place sur la liste d'attente de Qoala est prête${NBSP}: vous pouvez maintenant créer votre compte.\n\nCréer mon compte${NBSP}:\n${input.url}\n\nLe lien ne fonctionne qu'une fois et expire le 5 janvier 2027. Si vous n'avez pas demandé à rejoindre cette liste d'attente, vous pouvez ignorer cet e-mail.\n`,
    );
    assert.ok(mail.html.startsWith('<!doctype html><html lang="fr">'));
    assert.ok(mail.html.includes('>Créer mon compte</a>'));
    for (const part of renderings(mail)) assert.doesNotMatch(part, ENGLISH_WORDS);
  });

  it('in English', () => {
    const mail = waitlistInvitationMail('a@example.com', { ...input, language: 'en' });
    assert.equal(mail.subject, "You're invited to join Qoala");
    assert.match(mail.text, /expires on January 5, 2027\./);
    assert.ok(mail.html.includes('>Sign up</a>'));
  });
});

forEachBackend('mail and SMS in the recipient’s language', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    // Invitations expire 30 days on: 5 January 2027.
    h.clock.set(new Date('2026-12-06T10:00:00Z'));
  });
  after(() => h.close());

  /** An organisation speaking `uiLanguage` (none: the metadata names no language), with a signed-in admin. */
  async function organization(uiLanguage: 'FR' | 'EN' | null, adminLanguage: string) {
    const admin = h.browser({ headers: { 'accept-language': adminLanguage } });
    const { userId } = await signUp(h, admin, uniqueEmail('admin'), {
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const org = await insertOrganization(h.db, {
      name: 'Sécurité & Cie',
      slug: `securite-${randomBytes(4).toString('hex')}`,
      createdBy: userId,
      publicMetadata: uiLanguage ? { uiLanguage } : {},
      now: h.clock.now,
    });
    await insertMembership(h.db, { organizationId: org.id, userId, role: 'org:admin', now: h.clock.now });
    return { org, admin };
  }

  async function invitationMail(admin: Browser, orgId: string, role = 'org:admin'): Promise<OutboxMail> {
    const invitee = uniqueEmail('invitee');
    const res = await admin.post(`/organizations/${orgId}/invitations`, { email_address: invitee, role });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [mail] = await h.mail(invitee);
    assert.ok(mail, 'the invitation was mailed');
    return mail;
  }

  it("a French organisation's invitation is French, whatever the inviter's browser speaks", async () => {
    const { org, admin } = await organization('FR', 'en-US,en;q=0.9');
    const mail = await invitationMail(admin, org.id);
    assert.equal(mail.subject, 'Invitation à rejoindre une organisation sur Qoala');
    const [intro] = mail.text.split('\n');
    assert.equal(
      intro,
      `«${NBSP}Grace Hopper${NBSP}» vous invite à rejoindre l'organisation «${NBSP}Sécurité & Cie${NBSP}» sur Qoala en tant qu'administrateur.`,
    );
    assert.ok(mail.text.includes(`Accepter l'invitation${NBSP}:\nhttp`));
    assert.ok(
      mail.text.includes("Le lien ne fonctionne qu'une fois et expire le 5 janvier 2027."),
      mail.text,
    );
    assert.ok(mail.html.startsWith('<!doctype html><html lang="fr">'));
    assert.ok(mail.html.includes(`«${NBSP}Sécurité &amp; Cie${NBSP}»`), 'the HTML escapes the name');
    assert.ok(mail.html.includes('>Accepter l&#39;invitation</a>'));
    assert.ok(mail.html.includes(`Ou ouvrez ce lien${NBSP}:`));
    assert.ok(mail.html.includes('expire le 5 janvier 2027'));
    for (const part of renderings(mail)) assert.doesNotMatch(part, ENGLISH_WORDS);
  });

  it('a member invited to a French organisation is « membre », without elision', async () => {
    const { org, admin } = await organization('FR', 'fr');
    const mail = await invitationMail(admin, org.id, 'org:member');
    assert.match(mail.text, /sur Qoala en tant que membre\./);
  });

  it("an English organisation's invitation is English, whatever the inviter's browser speaks", async () => {
    const { org, admin } = await organization('EN', 'fr-FR,fr;q=0.9');
    const mail = await invitationMail(admin, org.id);
    assert.equal(mail.subject, 'You have been invited to an organization on Qoala');
    assert.equal(
      mail.text.split('\n')[0],
      '“Grace Hopper” has invited you to join the organization “Sécurité & Cie” on Qoala as Admin.',
    );
    assert.ok(mail.text.includes('Accept the invitation:\nhttp'));
    assert.ok(mail.text.includes('The link works once and expires on January 5, 2027.'), mail.text);
    assert.ok(mail.html.startsWith('<!doctype html><html lang="en">'));
    assert.ok(mail.html.includes('>Accept the invitation</a>'));
    assert.ok(mail.html.includes('Or open this link:'));
    assert.ok(!mail.text.includes('vous') && !mail.html.includes('vous'));
  });

  it('an organisation that names no language invites in French, the product default', async () => {
    const { org, admin } = await organization(null, 'en');
    const mail = await invitationMail(admin, org.id);
    assert.equal(mail.subject, 'Invitation à rejoindre une organisation sur Qoala');
  });

  /** A sign-up that asks for its email code from a browser sending `acceptLanguage` (none: no header). */
  async function signUpCodeMail(acceptLanguage: string | null): Promise<OutboxMail> {
    const browser = h.browser(
      acceptLanguage === null ? {} : { headers: { 'accept-language': acceptLanguage } },
    );
    const email = uniqueEmail('code');
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const prepared = await browser.post(`/client/sign_ups/${created.body.response.id}/prepare_verification`, {
      strategy: 'email_code',
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const [mail] = await h.mail(email);
    assert.ok(mail, 'the code was mailed');
    return mail;
  }

  it('a sign-up code asked for with Accept-Language: en is English', async () => {
    const mail = await signUpCodeMail('en-US,en;q=0.9');
    const code = mail.text.match(/\b(\d{6})\b/)![1]!;
    assert.equal(mail.subject, `${code} is your Qoala verification code`);
    assert.equal(
      mail.text,
      `Enter this code to verify your email address on Qoala:\n\n${code}\n\nThe code expires in 10 minutes. If you did not request it, you can ignore this email.\n`,
    );
    assert.ok(mail.html.startsWith('<!doctype html><html lang="en">'));
    assert.ok(mail.html.includes('<p>Enter this code to verify your email address on Qoala:</p>'));
    assert.ok(mail.html.includes('The code expires in 10 minutes.'));
  });

  for (const [label, header] of [
    ['fr', 'fr-FR,fr;q=0.9,en;q=0.8'],
    ['no Accept-Language', null],
    ['only languages the product does not speak', 'de-DE,de;q=0.9'],
  ] as const) {
    it(`a sign-up code asked for with ${label} is French`, async () => {
      const mail = await signUpCodeMail(header);
      const code = mail.text.match(/\b(\d{6})\b/)![1]!;
      assert.equal(mail.subject, `${code} est votre code de vérification Qoala`);
      assert.equal(
        mail.text,
        `Saisissez ce code pour vérifier votre adresse e-mail sur Qoala${NBSP}:\n\n${code}\n\nLe code expire dans 10 minutes. Si vous ne l'avez pas demandé, vous pouvez ignorer cet e-mail.\n`,
      );
      assert.ok(mail.html.startsWith('<!doctype html><html lang="fr">'));
      assert.ok(
        mail.html.includes(`<p>Saisissez ce code pour vérifier votre adresse e-mail sur Qoala${NBSP}:</p>`),
      );
      assert.ok(mail.html.includes('Si vous ne l&#39;avez pas demandé, vous pouvez ignorer cet e-mail.'));
      for (const part of renderings(mail)) assert.doesNotMatch(part, ENGLISH_WORDS);
    });
  }

  it("a sign-in link and a password-reset code follow the asking browser's language", async () => {
    const email = uniqueEmail('known');
    await signUp(h, h.browser(), email);
    h.clock.advance(61);
    const english = h.browser({ headers: { 'accept-language': 'en' } });
    const signIn = await english.post('/client/sign_ins', { identifier: email });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    const factor = signIn.body.response.supported_first_factors.find(
      (f: { strategy: string }) => f.strategy === 'reset_password_email_code',
    );
    const reset = await english.post(`/client/sign_ins/${signIn.body.response.id}/prepare_first_factor`, {
      strategy: 'reset_password_email_code',
      email_address_id: factor.email_address_id,
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const [resetMail] = await h.mail(email);
    assert.match(resetMail!.subject, /^\d{6} is your Qoala password reset code$/);

    h.clock.advance(61);
    const french = h.browser({ headers: { 'accept-language': 'fr' } });
    const again = await french.post('/client/sign_ins', { identifier: email });
    const link = await french.post(`/client/sign_ins/${again.body.response.id}/prepare_first_factor`, {
      strategy: 'email_link',
      email_address_id: factor.email_address_id,
      redirect_url: `${h.config.publicUrl}/sign-in/verify`,
    });
    assert.equal(link.status, 200, JSON.stringify(link.body));
    const [linkMail] = await h.mail(email);
    assert.equal(linkMail!.subject, 'Connexion à Qoala');
    assert.match(
      linkMail!.text,
      new RegExp(`^Ouvrez ce lien pour vous connecter sur Qoala${NBSP}:\\n\\nhttp`),
    );
    assert.match(
      linkMail!.text,
      /Le lien ne fonctionne qu'une fois, dans le navigateur où vous l'avez demandé, et expire dans 10 minutes\./,
    );
    assert.ok(linkMail!.html.includes('>Se connecter</a>'));
    for (const part of renderings(linkMail!)) assert.doesNotMatch(part, ENGLISH_WORDS);
  });

  it("a sign-up's own uiLanguage (unsafe metadata, the product's interface language) wins over the browser's", async () => {
    const browser = h.browser({ headers: { 'accept-language': 'en-US,en;q=0.9' } });
    const email = uniqueEmail('chosen');
    const phone = uniquePhone();
    const created = await browser.post('/client/sign_ups', {
      email_address: email,
      password: PASSWORD,
      phone_number: phone,
      unsafe_metadata: '{"uiLanguage":"FR"}',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.response.id;
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    const [mail] = await h.mail(email);
    assert.match(mail!.subject, /^\d{6} est votre code de vérification Qoala$/);
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    const [sms] = await smsTo(h, phone);
    assert.match(sms!.text, /^\d{6} est votre code de vérification Qoala\./);
  });

  it("a known user's codes and links speak the language the user chose, whatever the browser", async () => {
    const email = uniqueEmail('chose');
    const french = h.browser({ headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    await signUp(h, french, email);
    const chose = await french.patch('/me', { unsafe_metadata: '{"uiLanguage":"EN"}' });
    assert.equal(chose.status, 200, JSON.stringify(chose.body));

    // In the profile: a new address's code.
    const added = uniqueEmail('added');
    const address = await french.post('/me/email_addresses', { email_address: added });
    assert.equal(address.status, 200, JSON.stringify(address.body));
    await french.post(`/me/email_addresses/${address.body.response.id}/prepare_verification`, {
      strategy: 'email_code',
    });
    const [profileMail] = await h.mail(added);
    assert.match(profileMail!.subject, /^\d{6} is your Qoala verification code$/);

    // Signed out, from another French browser: a sign-in code and a sign-in link.
    h.clock.advance(61);
    const other = h.browser({ headers: { 'accept-language': 'fr' } });
    const signIn = await other.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    const [codeMail] = await h.mail(email);
    assert.match(codeMail!.subject, /^\d{6} is your Qoala verification code$/);
    h.clock.advance(61);
    const link = await other.post(`/client/sign_ins/${signIn.body.response.id}/prepare_first_factor`, {
      strategy: 'email_link',
      redirect_url: `${h.config.publicUrl}/sign-in/verify`,
    });
    assert.equal(link.status, 200, JSON.stringify(link.body));
    const [linkMail] = await h.mail(email);
    assert.equal(linkMail!.subject, 'Sign in to Qoala');
  });

  it("an SMS code follows the asking browser's language", async () => {
    for (const [header, expected] of [
      ['en', /^\d{6} is your Qoala verification code\. It expires in 10 minutes\. Do not share it\.$/],
      [
        'fr',
        /^\d{6} est votre code de vérification Qoala\. Il expire dans 10 minutes\. Ne le communiquez à personne\.$/,
      ],
    ] as const) {
      const browser = h.browser({ headers: { 'accept-language': header } });
      const phone = uniquePhone();
      const created = await browser.post('/client/sign_ups', {
        email_address: uniqueEmail('sms'),
        password: PASSWORD,
        phone_number: phone,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const res = await browser.post(`/client/sign_ups/${created.body.response.id}/prepare_verification`, {
        strategy: 'phone_code',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [sms] = await smsTo(h, phone);
      assert.match(sms!.text, expected);
      assert.ok(sms!.text.length <= 160);
    }
  });
});

forEachBackend('the instance default mail language', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { defaultMailLanguage: 'en' } });
  });
  after(() => h.close());

  it('speaks when the browser names none of ours', async () => {
    const email = uniqueEmail('default');
    const browser = h.browser({ headers: { 'accept-language': 'de' } });
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    await browser.post(`/client/sign_ups/${created.body.response.id}/prepare_verification`, {
      strategy: 'email_code',
    });
    const [mail] = await h.mail(email);
    assert.match(mail!.subject, /^\d{6} is your Qoala verification code$/);
  });
});
