import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse, type RouteOptions } from 'fastify';
import { identityConfigFromEnv, type IdentityConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { createIdentity, type Identity } from '../../src/identity.ts';
import { clerkFrameworkErrors } from '../../src/http/framework-errors.ts';
import { loggerOptions, requestIdOptions } from '../../src/observability/request-observability.ts';
import { DEFAULT_SEND_LIMITS, type SendLimitSettings } from '../../src/mail/send-limits.ts';
import { fastifyTrustProxy } from '../../src/http/trusted-proxies.ts';
import type { Backend, Store } from './backends.ts';

// Sign-ups and sign-ins here are not about hashing: argon2id at the test-only low cost (honoured only
// with NODE_ENV=test, see identity/src/crypto/passwords.ts). The files about hashing set it back.
process.env.IDENTITY_TEST_PASSWORD_HASH_COST ??= 'low';

/**
 * Parsed JSON of a response. Tests assert on its shape field by field (and a wrong shape fails the
 * assertion), so a static type would only restate the assertions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const FAPI = '/__clerk';
export const BAPI = '/__clerk_backend';
export const PUBLIC_URL = 'http://localhost:3000';
export const FRONTEND_API_HOST = 'clerk.localhost:3000';
export const CLERK_QUERY = { __clerk_api_version: '2025-04-10', _clerk_js_version: '5.90.0' } as const;

/** A controllable clock handed to the identity provider; starts at the real time (so @clerk/backend agrees). */
export class Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  readonly fn = (): Date => new Date(this.current);
  get now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
  set(date: Date): void {
    this.current = date.getTime();
  }
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

export interface HarnessOptions {
  /** Overrides on top of the test defaults (development mode, fixed secret key). */
  config?: Partial<IdentityConfig>;
  /** Reuse an existing store (e.g. to restart on the same data); otherwise a fresh one is created and disposed on close. */
  store?: Store;
  /** Share an already open database handle (a second instance on the same database). */
  database?: Database;
  clock?: Clock;
  /** Receives each line the app logs (JSON), for tests of what is logged; without it nothing is. */
  logs?: string[];
  /** Sees every route as it is registered (Fastify's onRoute hook), for declared-routes.test.ts. */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * The per-recipient sending limits raised out of the way, for a test that mails one address far more often
 * than a person would (the limits themselves are send-limits.test.ts's subject).
 */
export const RAISED_SEND_LIMITS: SendLimitSettings = {
  ...DEFAULT_SEND_LIMITS,
  perRecipientPer10Minutes: 1000,
  perRecipientPerDay: 1000,
};

export function testConfig(overrides: Partial<IdentityConfig> = {}): IdentityConfig {
  return identityConfigFromEnv(
    {},
    {
      mode: 'development',
      publicUrl: PUBLIC_URL,
      secretKey: 'sk_live_testsecretkey0000000000000000000000000',
      secretKeyFile: null,
      ...overrides,
    },
  );
}

/** One real identity provider on a Fastify app, driven through `app.inject`. */
export class Harness {
  private closed = false;

  private constructor(
    readonly backend: Backend,
    readonly app: FastifyInstance,
    readonly identity: Identity,
    readonly clock: Clock,
    readonly config: IdentityConfig,
    readonly store: Store,
    private readonly ownsStore: boolean,
    private readonly ownsDatabase: boolean,
  ) {}

  static async start(backend: Backend, opts: HarnessOptions = {}): Promise<Harness> {
    const clock = opts.clock ?? new Clock();
    const config = testConfig(opts.config);
    const store = opts.store ?? (await backend.createStore());
    const identity = await createIdentity(config, opts.database ?? store.options, { clock: clock.fn });
    const app = Fastify({
      trustProxy: fastifyTrustProxy(config.trustProxy),
      frameworkErrors: clerkFrameworkErrors([config.fapiPath, BAPI]),
      ...requestIdOptions,
      // The servers' own logger settings (what is logged of a request, what is censored), into `logs`.
      ...(opts.logs
        ? { logger: { ...loggerOptions('info'), stream: { write: (line: string) => opts.logs!.push(line) } } }
        : {}),
    });
    if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
    await identity.register(app, { bapiPath: BAPI });
    await app.ready();
    return new Harness(
      backend,
      app,
      identity,
      clock,
      config,
      store,
      !opts.store && !opts.database,
      !opts.database,
    );
  }

  /**
   * A second, independent app instance on the same database (another server process in production):
   * on PostgreSQL its own connection pool; on in-memory PGlite the same handle, which cannot be opened twice.
   */
  async twin(config: Partial<IdentityConfig> = {}): Promise<Harness> {
    const shareHandle = this.backend.name === 'pglite';
    return Harness.start(this.backend, {
      config: { ...this.config, ...config },
      clock: this.clock,
      store: this.store,
      ...(shareHandle ? { database: this.db } : {}),
    });
  }

  get db(): Database {
    return this.identity.deps.db;
  }

  /**
   * A simulated browser with its own cookie jar and IP address (rate limits are per IP); `headers` go
   * with every request (a User-Agent, a proxy's X-Forwarded-For).
   */
  browser(opts: { origin?: string | null; ip?: string; headers?: Record<string, string> } = {}): Browser {
    return new Browser(
      this,
      opts.ip ?? randomIp(),
      opts.origin === undefined ? PUBLIC_URL : opts.origin,
      opts.headers ?? {},
    );
  }

  /** The development outbox as the product's test tooling reads it: `GET /__dev/mail?to=`. */
  async mail(to: string): Promise<OutboxMail[]> {
    const res = await this.app.inject({ method: 'GET', url: `/__dev/mail?to=${encodeURIComponent(to)}` });
    if (res.statusCode !== 200) throw new Error(`GET /__dev/mail answered ${res.statusCode}: ${res.body}`);
    return res.json() as OutboxMail[];
  }

  /** The 6-digit code of the newest mail to `to`. */
  async latestCode(to: string): Promise<string> {
    const [mail] = await this.mail(to);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no verification code mailed to ${to}`);
    return code;
  }

  /** A Backend API call with the instance secret key (or `key`). */
  bapi(path: string, key: string | null = this.identity.secretKey): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'GET',
      url: `${BAPI}${path}`,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });
  }

  async count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
      params,
    );
    return row!.n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.app.close();
    if (this.ownsDatabase) await this.identity.close();
    else await this.identity.stop();
    if (this.ownsStore) await this.store.dispose();
  }
}

export interface FapiResponse {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: Json;
  /** Cookies set by this response, by name. */
  setCookies: Map<string, LightMyRequestResponse['cookies'][number]>;
}

type Verb = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** clerk-js as seen on the wire: form bodies, method tunnelling, the Clerk query parameters, cookies. */
export class Browser {
  readonly jar = new Map<string, string>();

  constructor(
    private readonly harness: Harness,
    readonly ip: string,
    readonly origin: string | null,
    readonly headers: Record<string, string> = {},
  ) {}

  get(path: string, query: Record<string, string> = {}): Promise<FapiResponse> {
    return this.call('GET', path, undefined, query);
  }
  post(
    path: string,
    form: Record<string, string> = {},
    query: Record<string, string> = {},
  ): Promise<FapiResponse> {
    return this.call('POST', path, form, query);
  }
  patch(path: string, form: Record<string, string> = {}): Promise<FapiResponse> {
    return this.call('PATCH', path, form);
  }
  delete(path: string): Promise<FapiResponse> {
    return this.call('DELETE', path);
  }

  /** A FAPI call under `/__clerk/v1`; non-GET/POST verbs go out as POST + `_method`, as clerk-js sends them. */
  call(
    verb: Verb,
    path: string,
    form?: Record<string, string>,
    query: Record<string, string> = {},
  ): Promise<FapiResponse> {
    const search = new URLSearchParams({ ...CLERK_QUERY, ...query });
    if (verb !== 'GET' && verb !== 'POST') search.set('_method', verb);
    return this.raw(verb === 'GET' ? 'GET' : 'POST', `${FAPI}/v1${path}?${search}`, form);
  }

  /** Any URL, with this browser's cookies, Origin and IP. */
  async raw(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<FapiResponse> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.origin) headers.origin = this.origin;
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | undefined;
    if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form ?? {}).toString();
    }
    const res = await this.harness.app.inject({ method, url, headers, payload, remoteAddress: this.ip });
    const setCookies = new Map(res.cookies.map((c) => [c.name, c] as const));
    for (const c of res.cookies) {
      if (c.value === '' || c.maxAge === 0) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    let body: Json = null;
    if (res.body) {
      try {
        body = JSON.parse(res.body);
      } catch {
        body = res.body;
      }
    }
    return { status: res.statusCode, headers: res.headers, body, setCookies };
  }
}

function randomIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${(c! % 250) + 1}`;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}
