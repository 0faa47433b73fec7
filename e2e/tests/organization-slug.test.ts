import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from '../support/suite.ts';
import { createOrganization } from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';

describe('organisation slugs from French names', () => {
  const suite = useSuite();

  test('<CreateOrganization/> asks for the name only; "Acme Sécurité" becomes acme-securite', async () => {
    const origin = suite.server.origin;
    // Signed up with a first organisation over the wire (signing up is not what this test is about);
    // the page's first load is the form.
    const { page } = await signedUpPage(suite, 'slug', { path: null });
    await page.goto(`${origin}/create-organization`);
    await page.locator('.cl-createOrganization-root input[name=name]').waitFor();
    // clerk-js would fill a slug field with its own derivation, which drops accents (acme-s-curit-).
    assert.equal(await page.locator('.cl-createOrganization-root input[name=slug]').count(), 0);
    await createOrganization(page, 'Acme Sécurité');
    const slug = await page.evaluate(
      () =>
        (window as unknown as { Clerk: { organization: { slug: string } | null } }).Clerk.organization?.slug,
    );
    assert.equal(slug, 'acme-securite');
  });
});
