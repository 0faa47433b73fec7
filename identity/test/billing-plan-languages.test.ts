import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { parseInstanceSettings } from '../src/instance/settings/schema.ts';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, type Browser, type Json } from './support/harness.ts';
import { newMember, type Member } from './support/organizations.ts';
import { enableBilling, ok, subscribe, subscriptionOf } from './support/billing-world.ts';

/**
 * Plan and feature names in the reader's language (docs/languages.md): the settings give `{ fr, en }` or
 * one string; the Frontend API answers the `ui_language` cookie's language, else the signed-in user's
 * `uiLanguage`, else Accept-Language's, else French; the Backend API answers Accept-Language's language
 * (French without one of ours, as @clerk/backend calls it); webhooks answer French.
 */
const BILINGUAL_BILLING = {
  enabled: true,
  currency: 'eur',
  gateway: { kind: 'offline' },
  features: {
    reports: {
      name: { fr: 'Rapports', en: 'Reports' },
      description: { fr: 'Rapports mensuels', en: 'Monthly reports' },
    },
    sso: { name: 'SSO' },
  },
  plans: {
    free: {
      name: { fr: 'Gratuit', en: 'Free' },
      payerType: 'user',
      monthlyFee: 0,
      isDefault: true,
    },
    pro: {
      name: { fr: 'Professionnel', en: 'Professional' },
      description: { fr: 'Pour les équipes', en: 'For teams' },
      payerType: 'user',
      monthlyFee: 1000,
      features: ['reports', 'sso'],
    },
    omega: { name: 'Omega', description: 'Tout compris', payerType: 'user', monthlyFee: 4900 },
  },
};

forEachBackend('billing plan names in the reader language', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h, BILINGUAL_BILLING);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  const plans = async (browser: Browser) =>
    ok(await browser.get('/commerce/plans', { payer_type: 'user' })).data as Json[];
  const bySlug = (list: Json[], slug: string) => list.find((p) => p.slug === slug)!;
  const proName = async (browser: Browser) => bySlug(await plans(browser), 'pro').name;
  const withCookie = (browser: Browser, language: string) => {
    browser.jar.set('ui_language', language);
    return browser;
  };

  describe('the Frontend API', () => {
    it('answers French without cookie, choice or Accept-Language', async () => {
      const pro = bySlug(await plans(h.browser()), 'pro');
      assert.equal(pro.name, 'Professionnel');
      assert.equal(pro.description, 'Pour les équipes');
      assert.deepEqual(
        pro.features.map((f: Json) => [f.name, f.description]),
        [
          ['Rapports', 'Rapports mensuels'],
          ['SSO', ''],
        ],
      );
    });

    it("follows Accept-Language: the browser's first language of ours", async () => {
      assert.equal(
        await proName(h.browser({ headers: { 'accept-language': 'en-GB,en;q=0.9' } })),
        'Professional',
      );
      assert.equal(
        await proName(h.browser({ headers: { 'accept-language': 'de, en;q=0.5' } })),
        'Professional',
      );
      assert.equal(
        await proName(h.browser({ headers: { 'accept-language': 'fr-CA, en;q=0.5' } })),
        'Professionnel',
      );
      const one = await h.browser({ headers: { 'accept-language': 'en' } }).get('/commerce/plans/cplan_pro');
      assert.equal(ok(one).name, 'Professional');
      assert.equal(ok(one).features[0].name, 'Reports');
    });

    it('follows the ui_language cookie over Accept-Language', async () => {
      const english = withCookie(h.browser({ headers: { 'accept-language': 'fr-FR' } }), 'EN');
      assert.equal(await proName(english), 'Professional');
      const french = withCookie(h.browser({ headers: { 'accept-language': 'en-US' } }), 'FR');
      assert.equal(await proName(french), 'Professionnel');
      // A value that is not one of ours decides nothing.
      const other = withCookie(h.browser({ headers: { 'accept-language': 'en-US' } }), 'DE');
      assert.equal(await proName(other), 'Professional');
    });

    it("follows the signed-in user's chosen uiLanguage over Accept-Language, the cookie over both", async () => {
      const user: Member = await newMember(h, 'chooser');
      user.browser.headers['accept-language'] = 'fr-FR';
      assert.equal(await proName(user.browser), 'Professionnel');
      ok(await user.browser.patch('/me', { unsafe_metadata: '{"uiLanguage":"EN"}' }));
      assert.equal(await proName(user.browser), 'Professional');
      assert.equal(await proName(withCookie(user.browser, 'FR')), 'Professionnel');
    });

    it("writes a subscription's plan, its statements and a refused change in the reader's language", async () => {
      const user: Member = await newMember(h, 'subscriber');
      await subscribe(user, 'cplan_pro');
      withCookie(user.browser, 'EN');
      const names = (subscription: Json) => subscription.subscription_items.map((i: Json) => i.plan.name);
      assert.deepEqual(names(await subscriptionOf(user)), ['Professional']);
      const statements = ok(await user.browser.get('/me/commerce/statements')).response.data as Json[];
      const paid = statements[0]!.groups[0].items[0];
      assert.equal(paid.subscription_item.plan.name, 'Professional');
      assert.equal(paid.subscription_item.plan.features[0].name, 'Reports');
      // The same plan again: clerk-js's "invalid plan change" screen names it from the error's meta.
      const again = await user.browser.post('/me/commerce/checkouts', {
        plan_id: 'cplan_pro',
        plan_period: 'month',
      });
      assert.equal(again.status, 400, JSON.stringify(again.body));
      assert.equal(again.body.errors[0].code, 'invalid_plan_change');
      assert.equal(again.body.errors[0].meta.plan.name, 'Professional');
      withCookie(user.browser, 'FR');
      assert.deepEqual(names(await subscriptionOf(user)), ['Professionnel']);
    });

    it('answers a plain-string name and description the same in both languages', async () => {
      for (const language of ['FR', 'EN']) {
        const omega = bySlug(await plans(withCookie(h.browser(), language)), 'omega');
        assert.equal(omega.name, 'Omega');
        assert.equal(omega.description, 'Tout compris');
      }
    });
  });

  describe('the Backend API', () => {
    const bapiPlans = async (headers: Record<string, string>) => {
      const res = await h.app.inject({
        method: 'GET',
        url: `${BAPI}/v1/commerce/plans?payer_type=user`,
        headers: { authorization: `Bearer ${h.identity.secretKey}`, ...headers },
      });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { data: Json[] }).data;
    };

    it('answers French, as a string, to @clerk/backend (which sends no Accept-Language)', async () => {
      const list = await clerk.billing.getPlanList({ payerType: 'user' });
      const pro = list.data.find((p) => p.slug === 'pro')!;
      assert.equal(pro.name, 'Professionnel');
      assert.equal(pro.description, 'Pour les équipes');
      assert.equal(pro.features[0]!.name, 'Rapports');
      assert.equal(bySlug(await bapiPlans({}), 'pro').name, 'Professionnel');
      assert.equal(bySlug(await bapiPlans({ 'accept-language': 'de, *' }), 'pro').name, 'Professionnel');
    });

    it('follows Accept-Language when it names French or English (the operator console)', async () => {
      const english = bySlug(await bapiPlans({ 'accept-language': 'en' }), 'pro');
      assert.equal(english.name, 'Professional');
      assert.equal(english.description, 'For teams');
      assert.deepEqual(
        english.features.map((f: Json) => f.name),
        ['Reports', 'SSO'],
      );
      assert.equal(
        bySlug(await bapiPlans({ 'accept-language': 'de, en-GB;q=0.8' }), 'pro').name,
        'Professional',
      );
      assert.equal(bySlug(await bapiPlans({ 'accept-language': 'fr-FR, en' }), 'pro').name, 'Professionnel');
      for (const language of ['fr', 'en']) {
        const omega = bySlug(await bapiPlans({ 'accept-language': language }), 'omega');
        assert.equal(omega.name, 'Omega');
        assert.equal(omega.description, 'Tout compris');
      }
    });

    it("writes the instance's subscription items and statements in that language", async () => {
      const user: Member = await newMember(h, 'listed');
      await subscribe(user, 'cplan_pro');
      const read = async (path: string, language: string) => {
        const res = await h.app.inject({
          method: 'GET',
          url: `${BAPI}/v1${path}`,
          headers: { authorization: `Bearer ${h.identity.secretKey}`, 'accept-language': language },
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as { data: Json[] };
      };
      const itemName = async (language: string) =>
        (await read('/billing/subscription_items?plan_id=cplan_pro', language)).data[0]!.plan.name;
      assert.equal(await itemName('en'), 'Professional');
      assert.equal(await itemName('fr'), 'Professionnel');
      const statementPlan = async (language: string) =>
        (await read('/billing/statements', language)).data
          .flatMap((s) => s.groups.flatMap((g: Json) => g.items))
          .map((p: Json) => p.subscription_item.plan.name);
      assert.ok((await statementPlan('en')).includes('Professional'));
      assert.ok(!(await statementPlan('en')).includes('Professionnel'));
      assert.ok((await statementPlan('fr')).includes('Professionnel'));
    });
  });

  it('the webhook payloads carry the French name, as a string', async () => {
    const rows = await h.db.query<{ payload: Json }>(
      `SELECT payload FROM webhook_events WHERE type = 'subscriptionItem.active'`,
    );
    const names = rows.map((r) => r.payload.data.plan.name);
    assert.ok(names.includes('Professionnel'), names.join(', '));
  });
});

describe('billing settings: names in two languages', () => {
  const refusal = (name: unknown) => {
    try {
      parseInstanceSettings({ billing: { plans: { p: { name, payerType: 'user', monthlyFee: 0 } } } });
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('takes a string or { fr, en }, and refuses an object without both languages', () => {
    assert.equal(refusal('Pro'), 'accepted');
    assert.equal(refusal({ fr: 'Pro', en: 'Pro' }), 'accepted');
    assert.notEqual(refusal({ fr: 'Pro' }), 'accepted');
    assert.notEqual(refusal({ fr: 'Pro', en: '' }), 'accepted');
    assert.notEqual(refusal({ fr: 'Pro', en: 'Pro', de: 'Pro' }), 'accepted');
  });
});
