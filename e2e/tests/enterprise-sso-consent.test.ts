import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { backendClient } from '../support/backend.ts';
import { clickUntilRequest, PASSWORD, tick } from '../support/flows.ts';
import { connectSamlIdp, startSamlIdp } from '../support/saml-idp.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Legal consent on enterprise SSO through the real Clerk UI (docs/enterprise-sso.md, docs/sign-up-modes.md):
 * with the instance requiring it, a newcomer on <SignUp/> ticks the terms and goes to the SAML IdP, and the
 * account it makes records the consent; a newcomer on <SignIn/> comes back from the IdP to <SignUp/>'s
 * "Legal consent" page (clerk-js's SSO callback transfers the sign-in to a sign-up missing `legal_accepted`),
 * and the account exists only once it is given.
 */

const dir = mkdtempSync(join(tmpdir(), 'e2e-sso-consent-'));
const settingsFile = join(dir, 'settings.json');
writeFileSync(settingsFile, JSON.stringify({ signUp: { legalConsent: { enabled: true } } }));

const signedInAs = (page: Page, email: string) =>
  page.getByTestId('user-email').filter({ hasText: email }).waitFor({ timeout: UI_WAIT_MS });

describe('enterprise SSO with legal consent required, through the Clerk UI', () => {
  const suite = useSuite({ env: { IDENTITY_SETTINGS_FILE: settingsFile } });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('<SignUp/> records the terms ticked; a newcomer from <SignIn/> is asked them after the IdP', async (t) => {
    const employee = { email: '', firstName: 'Mary', lastName: 'Jackson' };
    const idp = await startSamlIdp(t, employee);
    const clerk = backendClient(suite.server);
    // Made by the operator: a user made by a wire sign-up would owe the consent too.
    const organization = await clerk.organizations.createOrganization({ name: 'Langley' });
    const domain = `consent-${Date.now().toString(36)}.test`;
    await connectSamlIdp(t, clerk, idp, { domain, organizationId: organization.id });
    const legalAcceptedAt = async (email: string) =>
      (await clerk.users.getUserList({ emailAddress: [email] })).data[0]?.legalAcceptedAt ?? null;

    // <SignUp/>: the address at the connection's domain and the terms ticked, then the IdP.
    employee.email = `mary@${domain}`;
    const signingUp = (await suite.newPage()).page;
    await signingUp.goto(`${suite.server.origin}/sign-up`);
    await signingUp.locator('input[name=emailAddress]').fill(employee.email);
    await signingUp.locator('input[name=password]').fill(PASSWORD);
    await tick(signingUp.getByRole('checkbox'));
    await clickUntilRequest(
      signingUp,
      signingUp.getByRole('button', { name: 'Continue', exact: true }),
      /\/v1\/client\/sign_ups$/,
    );
    await signedInAs(signingUp, employee.email);
    assert.ok(await legalAcceptedAt(employee.email), 'the consent given on <SignUp/> is recorded');

    // <SignIn/>: someone new at the domain; the IdP vouches, then <SignUp/> asks for the terms.
    employee.email = `christine@${domain}`;
    employee.firstName = 'Christine';
    const signingIn = (await suite.newPage()).page;
    await signingIn.goto(`${suite.server.origin}/sign-in`);
    await signingIn.locator('input[name=identifier]').fill(employee.email);
    await signingIn.getByRole('button', { name: 'Continue', exact: true }).click();
    const checkbox = signingIn.getByRole('checkbox');
    await checkbox.waitFor({ timeout: UI_WAIT_MS });
    assert.equal(
      (await clerk.users.getUserList({ emailAddress: [employee.email] })).data.length,
      0,
      'no account before the consent',
    );
    await tick(checkbox);
    await signingIn.getByRole('button', { name: 'Continue', exact: true }).click();
    await signedInAs(signingIn, employee.email);
    assert.ok(await legalAcceptedAt(employee.email), 'the consent given after the IdP is recorded');
  });
});
