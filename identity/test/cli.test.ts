import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { USAGE } from '../src/cli/run-cli.ts';
import { forEachBackend, type Store } from './support/backends.ts';
import { cli, cliStore } from './support/cli.ts';
import { signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, PUBLIC_URL, uniqueEmail, type Json } from './support/harness.ts';

const LINK_RE = new RegExp(`^${PUBLIC_URL}${FAPI}/v1/tickets/accept\\?ticket=([\\w-]{43})$`);

forEachBackend('identity CLI: impersonate and revoke-actor-token', (backend) => {
  let dataDir: string;
  let store: Store;
  let env: NodeJS.ProcessEnv;
  let h: Harness | null = null;
  let operator: { id: string; email: string };
  let customer: { id: string; email: string };

  /** The provider on the CLI's store, as the product server would run it. */
  const start = async () => (h = await Harness.start(backend, { store }));
  const stop = async () => {
    await h?.close();
    h = null;
  };

  /** Follows the link in a fresh browser the way the sign-in page does; answers the new session. */
  async function redeem(link: string): Promise<Json> {
    const browser = h!.browser();
    const landing = await browser.raw('GET', new URL(link).pathname + new URL(link).search);
    assert.equal(landing.status, 303);
    const ticket = new URL(landing.headers.location as string).searchParams.get('__clerk_ticket')!;
    const res = await browser.post('/client/sign_ins', { strategy: 'ticket', ticket });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.client.sessions[0];
  }

  let dispose: () => Promise<void>;

  before(async () => {
    // The server's layout: DATA_DIR holds the PGlite directory `pglite` (and the secret key file).
    ({ dataDir, store, env, dispose } = await cliStore(backend));
    await start();
    const o = { email: uniqueEmail('cli-operator') };
    const c = { email: uniqueEmail('cli-customer') };
    operator = { ...o, id: (await signUp(h!, h!.browser(), o.email, { firstName: 'Olga' })).userId };
    customer = { ...c, id: (await signUp(h!, h!.browser(), c.email, { firstName: 'Carl' })).userId };
  });
  after(async () => {
    await stop();
    await dispose();
  });

  it('impersonate prints only the link on stdout; it signs in as the user with the operator as actor', async () => {
    // PGlite has one process at a time: the CLI opens the directory itself once the server is stopped.
    if (backend.name === 'pglite') await stop();
    const res = await cli(['impersonate', '--actor', operator.email, '--user', customer.id], env);
    assert.equal(res.status, 0, res.err);
    const [, token] = LINK_RE.exec(res.out) ?? [];
    assert.ok(token, `stdout is the link alone: ${res.out}`);
    assert.ok(!res.err.includes(token), 'the token is printed once, in the link');
    assert.match(res.err, new RegExp(`Sign-in link for Carl <${customer.email}> \\(${customer.id}\\)`));
    assert.match(res.err, new RegExp(`acting as Olga <${operator.email}>`));
    assert.match(res.err, /revoke-actor-token act_\w+/);

    if (!h) await start();
    const session = await redeem(res.out);
    assert.equal(session.user.id, customer.id);
    assert.deepEqual(session.actor, { sub: operator.id });
    assert.equal(session.expire_at - session.created_at, 1800 * 1000);
  });

  it('revoke-actor-token revokes a link before use; durations are honoured; errors exit 1', async () => {
    if (backend.name === 'pglite') await stop();
    const issued = await cli(
      ['impersonate', '--actor', operator.id, '--user', customer.email, '--expires-in', '10m'],
      env,
    );
    assert.equal(issued.status, 0, issued.err);
    assert.match(issued.err, /works once, for 10 min/);
    const id = /revoke-actor-token (act_\w+)/.exec(issued.err)![1]!;
    const revoked = await cli(['revoke-actor-token', id], env);
    assert.deepEqual(revoked, { status: 0, out: `${id} revoked`, err: '' });
    const again = await cli(['revoke-actor-token', id], env);
    assert.equal(again.status, 1);
    assert.match(again.err, /only pending actor tokens can be/);
    const unknown = await cli(['revoke-actor-token', 'act_doesnotexist'], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.err, /could not be found/);

    for (const [argv, message] of [
      [
        ['impersonate', '--actor', operator.email, '--user', 'nobody@example.com'],
        /no user nobody@example.com/,
      ],
      [['impersonate', '--actor', 'Olga', '--user', customer.id], /user id \(user_…\) or an email address/],
      [['impersonate', '--actor', customer.id, '--user', customer.email], /same account/],
      [
        ['impersonate', '--actor', operator.id, '--user', customer.id, '--session-max-duration', '30d'],
        /session_max_duration_in_seconds must be a whole number of seconds from 1 to 604800/,
      ],
    ] as const) {
      const res = await cli([...argv], env);
      assert.equal(res.status, 1, `${argv.join(' ')}: ${res.err}`);
      assert.match(res.err, message);
      assert.equal(res.out, '');
    }

    const short = await cli(
      ['impersonate', '--actor', operator.id, '--user', customer.id, '--session-max-duration', '5m'],
      env,
    );
    assert.equal(short.status, 0, short.err);
    if (!h) await start();
    const session = await redeem(short.out);
    assert.equal(session.expire_at - session.created_at, 300 * 1000);
  });

  it('a bad command line shows the usage and exits 2; help exits 0', async () => {
    for (const argv of [
      [],
      ['impersonate'],
      ['impersonate', '--actor', operator.id],
      ['impersonate', '--user', customer.id],
      ['impersonate', '--actor', operator.id, '--user', customer.id, '--expires-in', 'soon'],
      ['impersonate', '--actor', operator.id, '--user', customer.id, '--as', 'x'],
      ['impersonate', 'extra', '--actor', operator.id, '--user', customer.id],
      ['revoke-actor-token'],
      ['revoke-actor-token', 'act_a', 'act_b'],
      ['frobnicate'],
    ]) {
      const res = await cli(argv, env);
      assert.equal(res.status, 2, `${argv.join(' ')} → ${res.status}: ${res.err}`);
      assert.ok(res.err.endsWith(USAGE), argv.join(' '));
      assert.equal(res.out, '');
    }
    assert.deepEqual(await cli(['--help'], env), { status: 0, out: USAGE, err: '' });
  });

  if (backend.name === 'pglite') {
    it('while the server holds the PGlite directory, the CLI goes through its Backend API', async () => {
      if (!h) await start();
      await h!.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (h!.app.server.address() as AddressInfo).port;
      // The server keeps its secret key in DATA_DIR; the CLI reads it from there.
      writeFileSync(join(dataDir, 'identity-secret-key'), `${h!.identity.secretKey}\n`, { mode: 0o600 });
      const viaPort = await cli(['impersonate', '--actor', operator.email, '--user', customer.email], {
        ...env,
        PORT: String(port),
      });
      assert.equal(viaPort.status, 0, viaPort.err);
      assert.match(viaPort.err, new RegExp(`via the Backend API at http://127.0.0.1:${port}${BAPI}`));
      const session = await redeem(viaPort.out);
      assert.deepEqual(session.actor, { sub: operator.id });

      const wrongKey = await cli(['impersonate', '--actor', operator.id, '--user', customer.id], {
        ...env,
        PORT: String(port),
        IDENTITY_SECRET_KEY: 'sk_live_wrong',
      });
      assert.equal(wrongKey.status, 1);
      assert.match(wrongKey.err, /is in use by process \d+/);
      assert.ok(!wrongKey.err.includes('sk_live_wrong'), 'no secret is echoed');
    });

    it('an empty DATA_DIR is refused with a clear message', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'identity-cli-empty-'));
      try {
        const res = await cli(['impersonate', '--actor', operator.id, '--user', customer.id], {
          DATA_DIR: empty,
        });
        assert.equal(res.status, 1);
        assert.match(res.err, /There is no database in .*pglite/);
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });
  }
});
