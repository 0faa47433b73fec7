import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordSubscriptionStatus } from '../src/billing/subscription-store.ts';
import { MAX_ANCESTOR_DEPTH } from '../src/organizations/hierarchy-rules.ts';
import { defaultOrganizationMetadata } from '../src/organizations/default-metadata.ts';
import {
  sessionToken,
  signUpUser,
  startEmbeddedServer,
  withoutTraceId,
  type EmbeddedServer,
  type User,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import {
  as,
  BackendFaults,
  CHILDREN,
  enableVcisoModule,
  links,
  organization,
  outboxDrained,
  PARENT,
  snapshot,
  storedMetadata,
} from './support/vciso-world.ts';

/**
 * The client-organisation (vCISO) API on the real server: the embedded identity provider, real session
 * tokens, the product database. Backend API outages are injected into the real client the product uses.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, asserted field by field
const codeOf = (answer: { body: any }) => answer.body?.errors?.[0]?.code;

for (const backend of TEST_BACKENDS) {
  describe(`vCISO client organisations API [${backend.name}]`, () => {
    let server: EmbeddedServer;
    const faults = new BackendFaults();
    /** The vCISO (of P, T and several others), P's plain admin, and an outsider. */
    let v: User;
    let a: User;
    let o: User;
    /** T (top) above P; P a vCISO firm with the module; N a vCISO firm without it; Q another firm. */
    let top: string;
    let p: string;
    let noModule: string;

    /** A firm of its own for a test that changes things: `a` its admin, `v` its vCISO, the module on. */
    const firm = async (name: string) => {
      const id = await organization(a, name, [[v, 'org:vciso']]);
      await enableVcisoModule(server, a, id);
      return id;
    };
    /** An organisation `v` may attach (v is its admin), with `o` as a member who is not in P. */
    const client = async (name: string) => organization(v, name, [[o, 'org:admin']]);

    before(async () => {
      server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        app: { backendApi: faults.wrap, outboxTiming: { baseDelayMs: 50, maxDelayMs: 200, pollMs: 100 } },
      });
      [v, a, o] = await Promise.all([
        signUpUser(server, 'vciso'),
        signUpUser(server, 'admin'),
        signUpUser(server, 'other'),
      ]);
      top = await firm('Holding');
      p = await firm('Parent Firm');
      noModule = await organization(a, 'No Module Firm', [[v, 'org:vciso']]);
      assert.equal((await as(server, v, top, 'PUT', `${CHILDREN}/${p}`)).status, 200);
    });
    after(() => server?.stop());

    describe('the gate: a vCISO of an organisation with the vCISO module', () => {
      const cases: [string, () => Promise<[User, string | null]>][] = [
        ['a plain admin', async () => [a, p]],
        ['a vCISO whose organisation lacks the module', async () => [v, noModule]],
        ['a caller without an active organisation', async () => [v, null]],
      ];
      for (const [who, caller] of cases) {
        test(`403 forbidden for ${who}, on every console route, and nothing changes`, async () => {
          const [user, orgId] = await caller();
          const x = await client('Gate target');
          const token = await sessionToken(user, orgId);
          // A first read writes the organisation's default metadata: done before the snapshot.
          if (orgId) await server.api(token, 'GET', '/api/organizations/current');
          const before = await snapshot(server);
          const answers = [
            await server.api(token, 'GET', CHILDREN),
            await server.api(token, 'POST', CHILDREN, { name: 'Sneaky' }),
            await server.api(token, 'PUT', `${CHILDREN}/${x}`),
            await server.api(token, 'DELETE', `${CHILDREN}/${p}`),
          ];
          for (const answer of answers) {
            assert.equal(answer.status, 403, JSON.stringify(answer.body));
            assert.equal(codeOf(answer), 'forbidden');
            assert.equal(typeof answer.body.errors[0].message, 'string');
          }
          assert.equal(await snapshot(server), before);
        });
      }

      test('403 comes before 422: an admin with an invalid body is still forbidden', async () => {
        assert.equal((await as(server, a, p, 'POST', CHILDREN, { nonsense: true })).status, 403);
      });

      test('401 unauthenticated without a session token', async () => {
        const answer = await server.api(null, 'GET', CHILDREN);
        assert.equal(answer.status, 401);
        assert.equal(codeOf(answer), 'unauthenticated');
      });

      test('404 organization_not_found once the active organisation is gone', async () => {
        const gone = await firm('Soon gone');
        const token = await sessionToken(v, gone);
        await server.app.hierarchy.organizations().deleteOrganization(gone);
        const answer = await server.api(token, 'GET', CHILDREN);
        assert.equal(answer.status, 404);
        assert.equal(codeOf(answer), 'organization_not_found');
      });
    });

    describe('list', () => {
      test('an organisation without children lists none', async () => {
        const fresh = await firm('Empty Firm');
        assert.deepEqual(await as(server, v, fresh, 'GET', CHILDREN), { status: 200, body: { data: [] } });
      });

      test('lists children in order with their modules and subscription; deleted ones are left out', async () => {
        const parent = await firm('Listing Firm');
        const [x, gone, z] = [
          await client('Client X'),
          await client('Client Gone'),
          await client('Client Z'),
        ];
        await server.app.hierarchy.organizations().updateOrganizationMetadata(x, {
          publicMetadata: { complianceModuleEnabled: true },
        });
        // The flag as billing derives it (docs/billing.md): stored by the product, then projected with the links.
        await server.app.hierarchy.db.transaction((tx) => recordSubscriptionStatus(tx, x, 'TRIAL', null));
        for (const id of [x, gone, z])
          assert.equal((await as(server, v, parent, 'PUT', `${CHILDREN}/${id}`)).status, 200);
        await server.app.hierarchy.organizations().deleteOrganization(gone);
        const answer = await as(server, v, parent, 'GET', CHILDREN);
        assert.equal(answer.status, 200);
        assert.deepEqual(
          answer.body.data.map((c: { id: string }) => c.id),
          [x, z],
        );
        assert.deepEqual(answer.body.data[0], {
          id: x,
          name: 'Client X',
          slug: answer.body.data[0].slug,
          modules: {
            vCisoModuleEnabled: false,
            complianceModuleEnabled: true,
            qompanionModuleEnabled: false,
            hexadiagModuleEnabled: false,
            passportModuleEnabled: false,
          },
          hasActiveSubscription: 'TRIAL',
        });
      });
    });

    describe('create', () => {
      test('creates the child with default metadata and its parent, the vCISO as its only member, and lists it', async () => {
        const parent = await firm('Creating Firm');
        const answer = await as(server, v, parent, 'POST', CHILDREN, {
          name: '  Client New ',
          slug: `client-new-${parent.slice(-6).toLowerCase()}`,
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        const id: string = answer.body.id;
        assert.match(id, /^org_/);
        assert.equal(answer.body.name, 'Client New');
        assert.equal(answer.body.hasActiveSubscription, 'NO');

        // The projection is written before the answer: metadata already shows the link on both sides.
        const { organizationId: _, parentOrganizationId: _p, ...defaults } = defaultOrganizationMetadata(id);
        assert.deepEqual(await storedMetadata(server, id), { ...defaults, parentOrganizationId: parent });
        assert.deepEqual((await storedMetadata(server, parent))?.vcisoChildOrganizations, [id]);
        assert.ok((await links(server)).includes(`${id}→${parent}`));
        const members = await server.db.query<{ user_id: string; role: string }>(
          'SELECT user_id, role FROM organization_memberships WHERE organization_id = $1',
          [id],
        );
        assert.deepEqual(members, [{ user_id: v.userId, role: 'org:vciso' }]);
        const list = await as(server, v, parent, 'GET', CHILDREN);
        assert.deepEqual(
          list.body.data.map((c: { id: string }) => c.id),
          [id],
        );
      });

      test('a blank slug lets the Backend API derive one', async () => {
        const answer = await as(server, v, p, 'POST', CHILDREN, { name: 'Derived', slug: '  ' });
        assert.equal(answer.status, 201);
        assert.equal(typeof answer.body.slug, 'string');
      });

      const invalidBodies: [string, unknown][] = [
        ['no name', {}],
        ['a blank name', { name: '   ' }],
        ['a name that is not a string', { name: 42 }],
        ['a name over 256 characters', { name: 'x'.repeat(257) }],
        ['a slug with capitals', { name: 'A', slug: 'Client' }],
        ['a slug with a leading hyphen', { name: 'A', slug: '-client' }],
        ['a slug that is not a string', { name: 'A', slug: 5 }],
        ['an unknown field', { name: 'A', parentOrganizationId: 'org_q' }],
        ['a body that is not an object', ['A']],
      ];
      test('422 invalid_request for every malformed body, and nothing changes', async () => {
        const token = await sessionToken(v, p);
        const before = await snapshot(server);
        for (const [what, body] of invalidBodies) {
          const answer = await server.api(token, 'POST', CHILDREN, body);
          assert.equal(answer.status, 422, what);
          assert.equal(codeOf(answer), 'invalid_request', what);
          assert.ok(answer.body.errors[0].message, what);
        }
        const raw = await server.app.fastify.inject({
          method: 'POST',
          url: CHILDREN,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: '{"name":',
        });
        assert.equal(raw.statusCode, 422);
        assert.equal(await snapshot(server), before);
      });

      test('409 slug_taken for a slug in use, and nothing changes', async () => {
        const taken = (await storedSlug(server, p))!;
        const before = await snapshot(server);
        const answer = await as(server, v, p, 'POST', CHILDREN, { name: 'Dup', slug: taken });
        assert.equal(answer.status, 409);
        assert.equal(codeOf(answer), 'slug_taken');
        assert.equal(await snapshot(server), before);
      });

      test('when adding the vCISO fails, the new organisation is deleted again and nothing is linked', async () => {
        const parent = await firm('Failing Firm');
        const token = await sessionToken(v, parent);
        const before = await snapshot(server);
        faults.fail = (operation) => operation === 'createOrganizationMembership';
        try {
          const answer = await server.api(token, 'POST', CHILDREN, { name: 'Doomed' });
          assert.equal(answer.status, 503);
          assert.equal(codeOf(answer), 'service_unavailable');
        } finally {
          faults.fail = null;
        }
        assert.equal(await snapshot(server), before);
      });

      test('when the link is refused after creation (the parent grew too deep meanwhile), the organisation is deleted again', async () => {
        const parent = await firm('Deepening Firm');
        const token = await sessionToken(v, parent);
        const before = await snapshot(server);
        const chain = Array.from(
          { length: MAX_ANCESTOR_DEPTH },
          (_, i) => `org_fakeancestor${i}x${parent.slice(4)}`,
        );
        // Another instance hangs the parent under a chain as long as allowed, between creation and link.
        faults.before = async (operation) => {
          if (operation !== 'createOrganizationMembership') return;
          faults.before = null;
          await server.app.hierarchy.db.transaction(async (tx) => {
            let child = parent;
            for (const ancestor of chain) {
              await tx.query('INSERT INTO vciso_links (child_id, parent_id) VALUES ($1, $2)', [
                child,
                ancestor,
              ]);
              child = ancestor;
            }
          });
        };
        try {
          const answer = await server.api(token, 'POST', CHILDREN, { name: 'Too deep' });
          assert.equal(answer.status, 409);
          assert.equal(codeOf(answer), 'hierarchy_too_deep');
        } finally {
          faults.before = null;
          await server.app.hierarchy.db.query('DELETE FROM vciso_links WHERE child_id = ANY($1)', [
            [parent, ...chain],
          ]);
        }
        assert.equal(await snapshot(server), before);
      });

      test('concurrent creations under one parent all end up linked and in its metadata', async () => {
        const parent = await firm('Busy Firm');
        const token = await sessionToken(v, parent);
        const answers = await Promise.all(
          ['One', 'Two', 'Three', 'Four'].map((name) => server.api(token, 'POST', CHILDREN, { name })),
        );
        assert.deepEqual(
          answers.map((r) => r.status),
          [201, 201, 201, 201],
        );
        const ids = answers.map((r) => r.body.id as string).sort();
        await outboxDrained(server);
        assert.deepEqual(
          [...((await storedMetadata(server, parent))?.vcisoChildOrganizations as string[])].sort(),
          ids,
        );
        const listed = await as(server, v, parent, 'GET', CHILDREN);
        assert.deepEqual(listed.body.data.map((c: { id: string }) => c.id).sort(), ids);
      });
    });

    describe('attach', () => {
      test('links an organisation where the vCISO is admin: relationally, then both sides of metadata', async () => {
        const parent = await firm('Attaching Firm');
        const x = await client('Attached');
        const answer = await as(server, v, parent, 'PUT', `${CHILDREN}/${x}`);
        assert.equal(answer.status, 200);
        assert.equal(answer.body.id, x);
        assert.ok((await links(server)).includes(`${x}→${parent}`));
        assert.equal((await storedMetadata(server, x))?.parentOrganizationId, parent);
        assert.deepEqual((await storedMetadata(server, parent))?.vcisoChildOrganizations, [x]);
        // The caller's role in the attached organisation is left as it was.
        const [role] = await server.db.query<{ role: string }>(
          'SELECT role FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
          [x, v.userId],
        );
        assert.equal(role?.role, 'org:admin');
      });

      test('a replayed attach changes nothing and answers the child', async () => {
        const parent = await firm('Replay Firm');
        const x = await client('Replayed');
        const token = await sessionToken(v, parent);
        assert.equal((await server.api(token, 'PUT', `${CHILDREN}/${x}`)).status, 200);
        await outboxDrained(server);
        const before = await snapshot(server);
        const writes = faults.calls.filter((c) => c.operation === 'updateOrganizationMetadata').length;
        const again = await server.api(token, 'PUT', `${CHILDREN}/${x}`);
        assert.equal(again.status, 200);
        assert.equal(again.body.id, x);
        assert.equal(faults.calls.filter((c) => c.operation === 'updateOrganizationMetadata').length, writes);
        assert.equal(await snapshot(server), before);
      });

      test('refusals change nothing: member only, unknown, other parent, itself, its ancestor, another tenant, a slug', async () => {
        const memberOnly = await organization(a, 'Member Only', [[v, 'org:member']]);
        const otherFirm = await organization(o, 'Other Tenant');
        const otherVciso = await signUpUser(server, 'other-vciso');
        const taken = await organization(otherVciso, 'Taken Client', [[v, 'org:admin']]);
        const q = await organization(otherVciso, 'Other Firm');
        await enableVcisoModule(server, otherVciso, q);
        assert.equal(
          (await as(server, otherVciso, q, 'PUT', `${CHILDREN}/${taken}`)).status,
          403,
          'an admin is not a vCISO',
        );
        await otherVciso.browser.call('PATCH', `/organizations/${q}/memberships/${otherVciso.userId}`, {
          role: 'org:vciso',
        });
        // The provider refuses demoting the only admin; go through the product database instead.
        await server.app.hierarchy.db.transaction(async (tx) => {
          await tx.query('INSERT INTO vciso_links (child_id, parent_id) VALUES ($1, $2)', [taken, q]);
        });
        const refusals: [string, string, number, string][] = [
          ['an organisation where the vCISO is only a member', memberOnly, 403, 'forbidden'],
          ['an organisation that does not exist', 'org_nowhere123', 403, 'forbidden'],
          ["another tenant's organisation", otherFirm, 403, 'forbidden'],
          ['an organisation that already has another parent', taken, 409, 'already_has_parent'],
          ['the active organisation itself', p, 409, 'hierarchy_cycle'],
          ['an ancestor of the active organisation', top, 409, 'hierarchy_cycle'],
          ['a slug instead of an id', 'some-slug', 422, 'invalid_request'],
        ];
        const token = await sessionToken(v, p);
        const before = await snapshot(server);
        for (const [what, id, status, code] of refusals) {
          const answer = await server.api(token, 'PUT', `${CHILDREN}/${id}`);
          assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
          assert.equal(codeOf(answer), code, what);
          assert.ok(answer.body.errors[0].message);
        }
        assert.equal(await snapshot(server), before);
        const member = await server.api(token, 'PUT', `${CHILDREN}/${memberOnly}`);
        const stranger = await server.api(token, 'PUT', `${CHILDREN}/org_nowhere123`);
        assert.deepEqual(
          withoutTraceId(member.body),
          withoutTraceId(stranger.body),
          'existence is not revealed',
        );
        await server.app.hierarchy.db.query('DELETE FROM vciso_links WHERE child_id = $1', [taken]);
      });

      test('two attaches that would close a cycle together: one wins, the other is refused', async () => {
        const one = await firm('Cycle One');
        const two = await firm('Cycle Two');
        const [first, second] = await Promise.all([
          as(server, v, one, 'PUT', `${CHILDREN}/${two}`),
          as(server, v, two, 'PUT', `${CHILDREN}/${one}`),
        ]);
        assert.deepEqual([first.status, second.status].sort(), [200, 409]);
        assert.equal([first, second].map(codeOf).find(Boolean), 'hierarchy_cycle');
        const held = (await links(server)).filter((l) => l.includes(one) && l.includes(two));
        assert.equal(held.length, 1);
      });

      test('the outbox retries while the Backend API refuses the metadata write, then succeeds', async () => {
        const parent = await firm('Outage Firm');
        const x = await client('During an outage');
        let refused = 0;
        faults.fail = (operation) => operation === 'updateOrganizationMetadata' && refused++ < 4;
        try {
          const answer = await as(server, v, parent, 'PUT', `${CHILDREN}/${x}`);
          // The link is committed: the answer does not wait for the projection.
          assert.equal(answer.status, 200);
          assert.ok((await links(server)).includes(`${x}→${parent}`));
          const pending = await server.app.hierarchy.outbox.pending();
          assert.ok(pending.some((row) => row.organizationId === parent || row.organizationId === x));
          assert.ok(pending.some((row) => row.attempts >= 1 && /outage/.test(row.lastError ?? '')));
          await outboxDrained(server);
        } finally {
          faults.fail = null;
        }
        assert.ok(refused >= 4, `${refused} refusals`);
        assert.equal((await storedMetadata(server, x))?.parentOrganizationId, parent);
        assert.deepEqual((await storedMetadata(server, parent))?.vcisoChildOrganizations, [x]);
      });
    });

    describe('detach', () => {
      test('clears the link and both sides of metadata; the organisation and its members stay; a replay is not_a_child', async () => {
        const parent = await firm('Detaching Firm');
        const x = await client('Detached');
        const token = await sessionToken(v, parent);
        assert.equal((await server.api(token, 'PUT', `${CHILDREN}/${x}`)).status, 200);
        const answer = await server.api(token, 'DELETE', `${CHILDREN}/${x}`);
        assert.deepEqual(answer, { status: 200, body: { id: x, detached: true } });
        assert.equal(
          (await links(server)).some((l) => l.startsWith(`${x}→`)),
          false,
        );
        assert.equal((await storedMetadata(server, x))?.parentOrganizationId, undefined);
        assert.deepEqual((await storedMetadata(server, parent))?.vcisoChildOrganizations, []);
        const replay = await server.api(token, 'DELETE', `${CHILDREN}/${x}`);
        assert.equal(replay.status, 404);
        assert.equal(codeOf(replay), 'not_a_child');
        // Free again: it can be attached anew.
        assert.equal((await server.api(token, 'PUT', `${CHILDREN}/${x}`)).status, 200);
      });

      test("404 not_a_child for an organisation that is not a child, another parent's child, itself; nothing changes", async () => {
        const x = await client('Not a child');
        const token = await sessionToken(v, p);
        const before = await snapshot(server);
        for (const id of [x, p, top]) {
          const answer = await server.api(token, 'DELETE', `${CHILDREN}/${id}`);
          assert.equal(answer.status, 404, id);
          assert.equal(codeOf(answer), 'not_a_child');
        }
        // P is T's child: its own vCISO cannot detach it from below either.
        assert.equal(await snapshot(server), before);
      });

      test('a child deleted since can still be detached', async () => {
        const parent = await firm('Losing Firm');
        const x = await client('Deleted child');
        const token = await sessionToken(v, parent);
        assert.equal((await server.api(token, 'PUT', `${CHILDREN}/${x}`)).status, 200);
        await server.app.hierarchy.organizations().deleteOrganization(x);
        // Detached here, or already by the provider's organization.deleted webhook (docs/webhooks.md).
        const detached = await server.api(token, 'DELETE', `${CHILDREN}/${x}`);
        assert.ok(
          detached.status === 200 || codeOf(detached) === 'not_a_child',
          JSON.stringify(detached.body),
        );
        await outboxDrained(server);
        assert.deepEqual((await storedMetadata(server, parent))?.vcisoChildOrganizations, []);
      });
    });

    describe('parent', () => {
      test("a child's member who belongs to the parent can switch to it; one who does not sees it without a way in", async () => {
        const x = await client('Child with parent');
        assert.equal((await as(server, v, p, 'PUT', `${CHILDREN}/${x}`)).status, 200);
        const mine = await as(server, v, x, 'GET', PARENT);
        assert.equal(mine.status, 200);
        assert.equal(mine.body.parent.id, p);
        assert.equal(mine.body.parent.name, 'Parent Firm');
        assert.equal(mine.body.parent.isMember, true);
        const theirs = await as(server, o, x, 'GET', PARENT);
        assert.equal(theirs.body.parent.id, p);
        assert.equal(theirs.body.parent.isMember, false);
      });

      test('an organisation without a parent, or whose parent is gone, has none', async () => {
        const x = await client('Orphan');
        assert.deepEqual((await as(server, o, x, 'GET', PARENT)).body, { parent: null });
        const parent = await firm('Vanishing Firm');
        assert.equal((await as(server, v, parent, 'PUT', `${CHILDREN}/${x}`)).status, 200);
        await server.app.hierarchy.organizations().deleteOrganization(parent);
        assert.deepEqual((await as(server, o, x, 'GET', PARENT)).body, { parent: null });
      });

      test('needs a session and an active organisation', async () => {
        assert.equal((await server.api(null, 'GET', PARENT)).status, 401);
        const answer = await as(server, v, null, 'GET', PARENT);
        assert.equal(answer.status, 404);
        assert.equal(codeOf(answer), 'no_active_organization');
      });
    });

    test('hasActiveSubscription cannot be written through the product API', async () => {
      const settings = await as(server, v, p, 'PATCH', '/api/organizations/current/settings', {
        hasActiveSubscription: 'YES',
      });
      assert.equal(settings.status, 422);
      const create = await as(server, v, p, 'POST', CHILDREN, { name: 'Paid', hasActiveSubscription: 'YES' });
      assert.equal(create.status, 422);
      assert.notEqual((await storedMetadata(server, p))?.hasActiveSubscription, 'YES');
    });
  });
}

async function storedSlug(server: EmbeddedServer, organizationId: string): Promise<string | undefined> {
  const [row] = await server.db.query<{ slug: string }>('SELECT slug FROM organizations WHERE id = $1', [
    organizationId,
  ]);
  return row?.slug;
}
