import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import {
  addMember,
  backendClient,
  createOrganizationFor,
  createUser,
  type TestUser,
} from '../support/backend.ts';
import { sessionToken, waitForClerkSession, waitForPath } from '../support/flows.ts';
import { signedInPage } from '../support/wire-session.ts';
import { badgeBecomes, enableBilling, subscribeWithNewCard } from '../support/billing.ts';
import { recordSubscriptionStatus } from '../../server/src/billing/subscription-store.ts';
import { enqueueProjection } from '../../server/src/organizations/metadata-outbox.ts';

interface ChildOrganization {
  id: string;
  name: string;
  hasActiveSubscription: string;
}

/**
 * One vCISO firm: the vCISO (made `org:vciso` through the Backend API, the vCISO module switched on)
 * and a plain admin of the same organisation, who must not get the console.
 */
describe('vCISO console: client organisations, the parent link and the subscription badge', () => {
  const suite = useSuite();

  const api = async (page: Page, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${suite.server.origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await sessionToken(page)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /**
   * After a Backend API change to the user's memberships: clerk-js reads them again and mints a fresh
   * token (the cached one names the old role), optionally switching organisation, then the page reloads.
   */
  const refreshClerk = async (page: Page, organizationId?: string) => {
    await waitForClerkSession(page);
    await page.evaluate(async (orgId) => {
      const clerk = (
        window as unknown as {
          Clerk: {
            user: { reload(): Promise<unknown> };
            session: { getToken(o: { skipCache: boolean }): Promise<string | null> };
            setActive(p: { organization: string }): Promise<void>;
          };
        }
      ).Clerk;
      await clerk.user.reload();
      if (orgId) await clerk.setActive({ organization: orgId });
      await clerk.session.getToken({ skipCache: true });
    }, organizationId);
    await page.reload();
    await waitForClerkSession(page);
  };

  const rowOf = (page: Page, name: string) =>
    page
      .getByTestId('client-row')
      .filter({ has: page.getByTestId('client-name').getByText(name, { exact: true }) });

  /** A browser signed in as `user` (over the wire: signing in is not what these tests are about), settled on its first page. */
  const signedIn = async (user: TestUser): Promise<Page> => (await signedInPage(suite, user)).page;

  /**
   * What every test here needs and none is about, through the Backend API: a firm with the vCISO module
   * on, its vCISO (`org:vciso`) and a second, plain admin.
   */
  async function vcisoFirm() {
    const clerk = backendClient(suite.server);
    const vcisoUser = await createUser(suite.server, 'vciso');
    const adminUser = await createUser(suite.server, 'vciso-firm-admin');
    const firmName = `Firm ${vcisoUser.id.slice(-6)}`;
    const firmId = (await createOrganizationFor(clerk, vcisoUser, firmName)).id;
    await addMember(clerk, firmId, adminUser.id, 'org:admin');
    await clerk.organizations.updateOrganizationMembership({
      organizationId: firmId,
      userId: vcisoUser.id,
      role: 'org:vciso',
    });
    await clerk.organizations.updateOrganizationMetadata(firmId, {
      publicMetadata: { vCisoModuleEnabled: true },
    });
    return { clerk, firmId, firmName, vcisoUser, adminUser };
  }

  test('a vCISO creates a client organisation, switches into it in one click and back through the parent link', async () => {
    const { firmName, vcisoUser } = await vcisoFirm();
    const vciso = await signedIn(vcisoUser);
    assert.equal((await api(vciso, 'GET', '/api/me')).body.orgRole, 'org:vciso');

    await vciso.getByTestId('nav-clients').click();
    await waitForPath(vciso, '/clients');
    await vciso.getByTestId('clients-empty').waitFor();

    const childName = `Client ${Date.now()}`;
    await vciso.getByTestId('create-child-name').fill(childName);
    await vciso.getByTestId('create-child-submit').click();
    await vciso.getByTestId('clients-notice').waitFor();
    const row = rowOf(vciso, childName);
    await row.waitFor();
    const childId = (await row.getAttribute('data-organization-id')) ?? '';
    assert.match(childId, /^org_/);
    assert.equal(await row.getByTestId('subscription-badge').getAttribute('data-status'), 'NO');

    // The flag as billing derives it (docs/billing.md: stored by the product server, projected through its
    // outbox); neither the browser nor anyone by hand can set it.
    const hierarchy = suite.server.app.hierarchy;
    await hierarchy.db.transaction(async (tx) => {
      await recordSubscriptionStatus(tx, childId, 'TRIAL', null);
      await enqueueProjection(tx, [childId]);
    });
    await hierarchy.outbox.drainOnce([childId]);

    // One click: the vCISO is a member of the new organisation (as org:vciso), so it switches straight in.
    await rowOf(vciso, childName).getByTestId('client-switch').click();
    await waitForPath(vciso, '/dashboard');
    await vciso.getByTestId('dashboard-org-name').filter({ hasText: childName }).waitFor();
    const inChild = await api(vciso, 'GET', '/api/me');
    assert.equal(inChild.body.orgId, childId);
    assert.equal(inChild.body.orgRole, 'org:vciso');
    const childBadge = vciso.getByTestId('dashboard-organization').getByTestId('subscription-badge');
    await childBadge.and(vciso.locator('[data-status="TRIAL"]')).waitFor();
    const parentLink = vciso.getByTestId('parent-organization-link');
    await parentLink.waitFor();
    assert.equal((await parentLink.textContent())?.trim(), firmName);

    // The child's vCISO module is off, so the console is not offered there: a clear message instead.
    assert.equal(await vciso.getByTestId('nav-clients').count(), 0);
    await vciso.goto(`${suite.server.origin}/clients`);
    await vciso.getByTestId('clients-unavailable').waitFor();
    assert.equal(await vciso.getByTestId('clients-unavailable').getAttribute('data-reason'), 'module-off');

    // Back to the parent in one click; the child is listed there with its badge.
    await vciso.getByTestId('nav-dashboard').click();
    await vciso.getByTestId('parent-organization-link').click();
    await vciso.getByTestId('dashboard-org-name').filter({ hasText: firmName }).waitFor();
    await vciso.getByTestId('nav-clients').click();
    await waitForPath(vciso, '/clients');
    const listed = rowOf(vciso, childName);
    await listed.waitFor();
    assert.equal(await listed.getByTestId('subscription-badge').getAttribute('data-status'), 'TRIAL');

    const children = await api(vciso, 'GET', '/api/organizations/current/children');
    assert.equal(children.status, 200);
    assert.deepEqual(
      (children.body.data as ChildOrganization[]).map((c) => [c.id, c.hasActiveSubscription]),
      [[childId, 'TRIAL']],
    );
  });

  test('a vCISO, the only member of the client organisation it created, subscribes it to a plan', async () => {
    await enableBilling(suite.server, {
      enabled: true,
      currency: 'usd',
      gateway: { kind: 'offline' },
      plans: {
        free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
        pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 },
      },
    });
    const { vcisoUser } = await vcisoFirm();
    const vciso = await signedIn(vcisoUser);
    const created = await api(vciso, 'POST', '/api/organizations/current/children', {
      name: `Subscribing client ${Date.now()}`,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const childId = created.body.id as string;
    await refreshClerk(vciso, childId);
    assert.equal((await api(vciso, 'GET', '/api/me')).body.orgRole, 'org:vciso');

    // The plan's button is live (org:sys_billing:manage), and clerk-js's checkout goes through.
    await subscribeWithNewCard(vciso, 'Pro');
    await badgeBecomes(vciso, suite.server.origin, 'YES');
  });

  test('a vCISO attaches an organisation they administer, then detaches it after confirming', async () => {
    const { clerk, firmId, vcisoUser } = await vcisoFirm();
    const vciso = await signedIn(vcisoUser);
    const vcisoUserId = vcisoUser.id;
    const childrenBefore = (await clerk.organizations.getOrganization({ organizationId: firmId }))
      .publicMetadata?.vcisoChildOrganizations;
    const other = await clerk.organizations.createOrganization({ name: `Acquired ${Date.now()}` });
    await clerk.organizations.createOrganizationMembership({
      organizationId: other.id,
      userId: vcisoUserId,
      role: 'org:admin',
    });
    await refreshClerk(vciso);
    await vciso.goto(`${suite.server.origin}/clients`);
    await vciso.getByTestId('clients-page').waitFor();

    await vciso.getByTestId('attach-organization').selectOption(other.id);
    await vciso.getByTestId('attach-submit').click();
    const row = rowOf(vciso, other.name);
    await row.waitFor();
    assert.equal(
      (await clerk.organizations.getOrganization({ organizationId: other.id })).publicMetadata
        ?.parentOrganizationId,
      firmId,
    );

    await row.getByTestId('client-detach').click();
    await row.getByTestId('client-detach-confirm').click();
    await row.waitFor({ state: 'detached' });
    const detached = await clerk.organizations.getOrganization({ organizationId: other.id });
    assert.equal(detached.publicMetadata?.parentOrganizationId ?? null, null);
    const firm = await clerk.organizations.getOrganization({ organizationId: firmId });
    assert.deepEqual(firm.publicMetadata?.vcisoChildOrganizations ?? [], childrenBefore ?? []);
  });

  test('a plain admin of the same firm does not get the console, and the API answers 403', async () => {
    const { clerk, firmId, firmName, adminUser } = await vcisoFirm();
    const childrenBefore = (await clerk.organizations.getOrganization({ organizationId: firmId }))
      .publicMetadata?.vcisoChildOrganizations;
    const admin = await signedIn(adminUser);
    const me = await api(admin, 'GET', '/api/me');
    assert.equal(me.body.orgId, firmId);
    assert.equal(me.body.orgRole, 'org:admin');

    await admin.goto(`${suite.server.origin}/dashboard`);
    await admin.getByTestId('dashboard-org-name').filter({ hasText: firmName }).waitFor();
    await admin.getByTestId('nav-settings').waitFor();
    assert.equal(await admin.getByTestId('nav-clients').count(), 0);
    await admin.goto(`${suite.server.origin}/clients`);
    await admin.getByTestId('clients-unavailable').waitFor();
    assert.equal(await admin.getByTestId('clients-unavailable').getAttribute('data-reason'), 'not-vciso');

    const list = await api(admin, 'GET', '/api/organizations/current/children');
    assert.equal(list.status, 403);
    assert.equal((list.body.errors as { code: string }[])[0]?.code, 'forbidden');
    const create = await api(admin, 'POST', '/api/organizations/current/children', { name: 'Not allowed' });
    assert.equal(create.status, 403);
    assert.equal((create.body.errors as { code: string }[])[0]?.code, 'forbidden');
    const firm = await clerk.organizations.getOrganization({ organizationId: firmId });
    assert.deepEqual(firm.publicMetadata?.vcisoChildOrganizations ?? [], childrenBefore ?? []);
  });
});
