import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@app/identity';
import type { Backend } from '../../../identity/test/support/backends.ts';
import { createApp, type App } from '../../src/app.ts';
import { serverConfigFromEnv } from '../../src/config.ts';

/** Parsed JSON of a Frontend API answer; the tests read a few fields of it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface ProductServer {
  app: App;
  /** The public URL (PUBLIC_URL) the server listens on, e.g. http://localhost:43210. */
  origin: string;
  stop(): Promise<void>;
}

/**
 * The real product server (product API, embedded provider, Backend API) on a free port, on `backend`'s
 * storage. The web app is a placeholder page: these tests speak HTTP only, and `npm run test:unit` runs
 * before the web build.
 */
export async function startProductServer(backend: Backend): Promise<ProductServer> {
  const dir = mkdtempSync(join(tmpdir(), 'product-server-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>test</title>');
  const store = await backend.createStore();
  const port = await freePort();
  const config = serverConfigFromEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dir,
    WEB_DIST: dir,
    IDENTITY_MODE: 'development',
  });
  const app = await createApp(config, { database: await openDatabase(store.options), logger: false });
  const origin = await app.listen();
  return {
    app,
    origin,
    async stop() {
      await app.close();
      await store.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** clerk-js on the wire against the server's Frontend API: form bodies, `_method`, a cookie jar, its Origin. */
export class FapiBrowser {
  private readonly jar = new Map<string, string>();

  constructor(private readonly server: ProductServer) {}

  async call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    form: Record<string, string> = {},
  ): Promise<{ status: number; body: Json }> {
    const query = new URLSearchParams({ __clerk_api_version: '2025-04-10', _clerk_js_version: '5.90.0' });
    if (method !== 'GET' && method !== 'POST') query.set('_method', method);
    const res = await this.server.app.fastify.inject({
      method: method === 'GET' ? 'GET' : 'POST',
      url: `/__clerk/v1${path}?${query}`,
      headers: {
        origin: this.server.origin,
        ...(this.jar.size ? { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      payload: method === 'GET' ? undefined : new URLSearchParams(form).toString(),
    });
    for (const c of res.cookies) this.jar.set(c.name, c.value);
    return { status: res.statusCode, body: res.json() };
  }

  /** Sign-up with a Clerk test address (code 424242), an organisation of its own made active. */
  async signUpWithOrganization(
    email: string,
    organizationName: string,
  ): Promise<{ userId: string; sessionId: string; organizationId: string }> {
    const ok = (res: { status: number; body: Json }) => {
      if (res.status !== 200) throw new Error(`FAPI answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const created = ok(
      await this.call('POST', '/client/sign_ups', {
        email_address: email,
        password: 'correct horse battery',
      }),
    );
    const id = created.response.id;
    ok(await this.call('POST', `/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' }));
    const done = ok(
      await this.call('POST', `/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code: '424242',
      }),
    );
    const organization = ok(await this.call('POST', '/organizations', { name: organizationName })).response;
    const sessionId = done.response.created_session_id;
    ok(
      await this.call('POST', `/client/sessions/${sessionId}/touch`, {
        active_organization_id: organization.id,
      }),
    );
    return { userId: done.response.created_user_id, sessionId, organizationId: organization.id };
  }

  /** A fresh session token, as clerk-js asks for one (`POST /client/sessions/{id}/tokens`). */
  async token(sessionId: string): Promise<string> {
    const res = await this.call('POST', `/client/sessions/${sessionId}/tokens`);
    if (res.status !== 200) throw new Error(`tokens answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.jwt;
  }
}
