import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '@app/identity';
import { createApp, type App, type AppOptions } from '../../src/app.ts';
import { serverConfigFromEnv } from '../../src/config.ts';
import { seedDataDir } from './data-template.ts';

// Sign-ups and sign-ins here are not about hashing: argon2id at the test-only low cost (honoured only
// with NODE_ENV=test, see identity/src/crypto/passwords.ts). The files about hashing set it back.
process.env.IDENTITY_TEST_PASSWORD_HASH_COST ??= 'low';

/**
 * The real product server with its embedded identity provider, listening on a free port (the product
 * API verifies session tokens with @clerk/backend against the provider's JWKS over HTTP), on PGlite or,
 * with `databaseUrl`, on a fresh PostgreSQL schema. Requests go in through `inject`.
 */
/** The databases a server test runs on: PGlite always, the PostgreSQL server of TEST_DATABASE_URL when set. */
export const TEST_BACKENDS: readonly { name: string; databaseUrl: string | undefined }[] = [
  { name: 'pglite', databaseUrl: undefined },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres', databaseUrl: process.env.TEST_DATABASE_URL }]
    : []),
];

export interface EmbeddedServer {
  app: App;
  db: Database;
  /** The public URL, which session tokens must name as their `azp`. */
  origin: string;
  browser(): FapiBrowser;
  /** A product API call with a session token. */
  api(
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: ApiBody }>;
  /** Where its data is: another server started with `reuse` finds it as this one left it. */
  data: StoredData;
  /** Closes the provider's database under the running server, as an outage would; stop() still cleans up. */
  closeDatabase(): Promise<void>;
  stop(): Promise<void>;
}

/** A server's data directory (PGlite) and PostgreSQL schema. */
export interface StoredData {
  dataDir: string;
  schema: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, asserted field by field
export type ApiBody = any;

export async function startEmbeddedServer(
  opts: {
    databaseUrl?: string;
    env?: Record<string, string>;
    /** What the provider queries through (e.g. DatabaseFaults.wrap); `db` stays the plain one. */
    wrapDatabase?: (db: Database) => Database;
    app?: AppOptions;
    /** Called with the app before it listens (a test's own hooks, e.g. counting requests). */
    beforeListen?: (app: App) => void;
    /** Starts on an earlier server's data (a restart with other settings), which that one kept. */
    reuse?: StoredData;
    /** stop() keeps the data for a later server's `reuse` (which then removes it). */
    keepData?: boolean;
  } = {},
): Promise<EmbeddedServer> {
  const dataDir = opts.reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'server-test-'));
  // A placeholder web app: these tests speak HTTP only, and `npm run test:unit` runs before the web build.
  // In a folder of its own: the server serves (and holds in memory) every file of WEB_DIST.
  const webDist = join(dataDir, 'web');
  mkdirSync(webDist, { recursive: true });
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>test</title>');
  const schema = opts.reuse?.schema ?? `test_${randomBytes(6).toString('hex')}`;
  // The product's own tables: in a fresh schema of their own on PostgreSQL, else in DATA_DIR/product.
  const productSchema = `${schema}_product`;
  if (!opts.databaseUrl && !opts.reuse) await seedDataDir(dataDir);
  const db = await openDatabase(
    opts.databaseUrl ? { url: opts.databaseUrl, schema } : { dataDir: join(dataDir, 'pglite') },
  );
  let databaseClosed = false;
  // The port is picked before the app is made (it is the public URL the provider checks redirects against);
  // another process may take it before the app listens: then the app stops and another port is tried.
  let origin = '';
  let app: App | undefined;
  for (let attempt = 1; !app; attempt++) {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    const config = serverConfigFromEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      WEB_DIST: webDist,
      IDENTITY_MODE: 'development',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl, PRODUCT_DATABASE_SCHEMA: productSchema } : {}),
      ...opts.env,
    });
    const made = await createApp(config, {
      ...opts.app,
      database: opts.wrapDatabase?.(db) ?? db,
      logger: false,
    });
    opts.beforeListen?.(made);
    try {
      await made.listen();
      app = made;
    } catch (err) {
      await made.fastify.close();
      await made.identity?.stop();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) throw err;
    }
  }
  const server: EmbeddedServer = {
    app,
    db,
    origin,
    data: { dataDir, schema },
    browser: () => new FapiBrowser(server),
    async api(token, method, url, body) {
      const res = await app.fastify.inject({
        method,
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.statusCode, body: res.body ? res.json() : null };
    },
    async closeDatabase() {
      databaseClosed = true;
      await db.close();
    },
    async stop() {
      await app.fastify.close();
      // What app.close() does (the provider's background work stopped, then its database closed), with
      // the test schema dropped before its connections close.
      const stopped = app.identity?.stop();
      await (databaseClosed ? stopped?.catch(() => {}) : stopped);
      if (opts.keepData) {
        if (!databaseClosed) await db.close();
        return;
      }
      if (opts.databaseUrl) {
        const admin = databaseClosed ? await openDatabase({ url: opts.databaseUrl }) : db;
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.query(`DROP SCHEMA IF EXISTS "${productSchema}" CASCADE`);
        if (databaseClosed) await admin.close();
      }
      if (!databaseClosed) await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** clerk-js on the wire, as far as these tests need it: form bodies, `_method`, a cookie jar, the Origin. */
export class FapiBrowser {
  private readonly jar = new Map<string, string>();
  private readonly ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`;

  constructor(private readonly server: EmbeddedServer) {}

  async call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    form: Record<string, string> = {},
  ): Promise<{ status: number; body: ApiBody }> {
    const search = new URLSearchParams({ __clerk_api_version: '2025-04-10', _clerk_js_version: '5.90.0' });
    if (method === 'PATCH' || method === 'DELETE') search.set('_method', method);
    const headers: Record<string, string> = { origin: this.server.origin };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const post = method !== 'GET';
    if (post) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await this.server.app.fastify.inject({
      method: post ? 'POST' : 'GET',
      url: `/__clerk/v1${path}?${search}`,
      headers,
      payload: post ? new URLSearchParams(form).toString() : undefined,
      remoteAddress: this.ip,
    });
    for (const c of res.cookies) {
      if (c.value === '' || c.maxAge === 0) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return { status: res.statusCode, body: res.body ? res.json() : null };
  }
}

export interface User {
  browser: FapiBrowser;
  userId: string;
  sessionId: string;
  email: string;
}

/** Signs up with a Clerk test address (code 424242 in development mode), asserting each step. */
export async function signUpUser(server: EmbeddedServer, label: string): Promise<User> {
  const browser = server.browser();
  const email = `${label}-${randomBytes(4).toString('hex')}+clerk_test@example.com`;
  const created = await browser.call('POST', '/client/sign_ups', {
    email_address: email,
    password: 'correct horse battery',
  });
  assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
  const id = created.body.response.id;
  await browser.call('POST', `/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
  const done = await browser.call('POST', `/client/sign_ups/${id}/attempt_verification`, {
    strategy: 'email_code',
    code: '424242',
  });
  assert.equal(done.body?.response?.status, 'complete', JSON.stringify(done.body?.errors));
  return {
    browser,
    userId: done.body.response.created_user_id,
    sessionId: done.body.response.created_session_id,
    email,
  };
}

/** Signs up (as `signUpUser`), creates an organisation of the user's own and makes it active. */
export async function signUpWithOrganization(
  server: EmbeddedServer,
  label: string,
  organizationName: string,
): Promise<User & { organizationId: string }> {
  const user = await signUpUser(server, label);
  const created = await user.browser.call('POST', '/organizations', { name: organizationName });
  assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
  const organizationId: string = created.body.response.id;
  const touched = await user.browser.call('POST', `/client/sessions/${user.sessionId}/touch`, {
    active_organization_id: organizationId,
  });
  assert.equal(touched.status, 200, JSON.stringify(touched.body?.errors));
  return { ...user, organizationId };
}

/** A fresh session token for the user, with `organizationId` active (or none). */
export async function sessionToken(user: User, organizationId: string | null): Promise<string> {
  const res = await user.browser.call('POST', `/client/sessions/${user.sessionId}/tokens`, {
    organization_id: organizationId ?? '',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body?.errors));
  return res.body.jwt;
}

/** A port nothing listens on now (the OS picks it), for a process started on it next. */
export async function freePort(): Promise<number> {
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

/**
 * An error body without its `clerk_trace_id` (the request id the whole server adds, docs/observability.md;
 * absent where a test serves the product API alone), which must be a string when there.
 */
export function withoutTraceId(body: ApiBody): ApiBody {
  const { clerk_trace_id: traceId, ...rest } = body as { clerk_trace_id?: unknown };
  if (traceId !== undefined && (typeof traceId !== 'string' || !traceId))
    throw new Error(`a clerk_trace_id that is not a request id in ${JSON.stringify(body)}`);
  return rest;
}
