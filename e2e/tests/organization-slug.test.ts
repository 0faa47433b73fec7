import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from '../support/suite.ts';
import { createOrganization, signUp, uniqueEmail } from '../support/flows.ts';

describe('organisation slugs from French names', () => {
  const suite = useSuite();

  test('<CreateOrganization/> asks for the name only; "Acme Sécurité" becomes acme-securite', async () => {
    const { page } = await suite.newPage();
    const origin = suite.server.origin;
    await signUp(page, origin, uniqueEmail('slug'));
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
