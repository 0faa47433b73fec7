import { randomBytes } from 'node:crypto';

/** Parsed JSON of an answer; tests assert on its fields one by one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface WireResponse {
  status: number;
  headers: Headers;
  body: Json;
}

const CLERK_QUERY = { __clerk_api_version: '2025-04-10', _clerk_js_version: '5.90.0' };

/**
 * clerk-js as it looks on the wire, driven with fetch over real HTTP: form bodies, PATCH/DELETE
 * tunnelled through POST + `_method`, the Clerk query parameters, the page's Origin, a cookie jar.
 * `ip` goes out as X-Forwarded-For (for servers started with TRUST_PROXY=true), so that each simulated
 * browser has its own rate-limit buckets.
 */
export class FapiClient {
  readonly jar = new Map<string, string>();
  /** Where each cookie of the jar was set (path, HttpOnly), to hand it to a real browser as it was given. */
  private readonly scopes = new Map<string, CookieScope>();
  /** Development keys: the dev-browser cookie names (plain and suffixed) whose token also goes in the URL. */
  private devBrowserNames: string[] = [];

  constructor(
    /** The public origin: where the page is and where the requests go. */
    readonly origin: string,
    readonly ip: string = randomIp(),
    private readonly timeoutMs = 30_000,
  ) {}

  get(path: string, query: Record<string, string> = {}): Promise<WireResponse> {
    return this.call('GET', path, undefined, query);
  }

  post(path: string, form: Record<string, string> = {}): Promise<WireResponse> {
    return this.call('POST', path, form);
  }

  patch(path: string, form: Record<string, string> = {}): Promise<WireResponse> {
    return this.call('PATCH', path, form);
  }

  /** A Frontend API call under `/__clerk/v1`. */
  call(
    verb: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    form?: Record<string, string>,
    query: Record<string, string> = {},
  ): Promise<WireResponse> {
    const devBrowser = this.devBrowserNames.length ? this.jar.get(this.devBrowserNames[0]!) : undefined;
    const search = new URLSearchParams({
      ...CLERK_QUERY,
      ...(devBrowser ? { __clerk_db_jwt: devBrowser } : {}),
      ...query,
    });
    if (verb !== 'GET' && verb !== 'POST') search.set('_method', verb);
    return this.raw(verb === 'GET' ? 'GET' : 'POST', `/__clerk/v1${path}?${search}`, form);
  }

  /** Any path of the origin, with this browser's cookies, Origin and address. */
  async raw(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<WireResponse> {
    const sent: Record<string, string> = {
      origin: this.origin,
      'x-forwarded-for': this.ip,
      ...headers,
    };
    if (this.jar.size) sent.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (method === 'POST') {
      sent['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form ?? {}).toString();
    }
    const res = await fetch(`${this.origin}${path}`, {
      method,
      headers: sent,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    for (const cookie of res.headers.getSetCookie()) this.keep(cookie);
    // clerk-js replaces its token with the one a response carries in this header (core/auth/devBrowser.ts).
    const rotated = res.headers.get('clerk-db-jwt');
    if (rotated && this.devBrowserNames.length) this.useDevBrowser(rotated, this.devBrowserNames);
    return { status: res.status, headers: res.headers, body: await parse(res) };
  }

  /**
   * Development keys: from now on this browser is the client of the dev-browser `token`, which it holds
   * as clerk-js does (the cookies `names`, readable by script, path `/`) and sends in every URL too.
   */
  useDevBrowser(token: string, names: string[]) {
    this.devBrowserNames = names;
    for (const name of names) {
      this.jar.set(name, token);
      this.scopes.set(name, { path: '/', httpOnly: false });
    }
  }

  /** The jar's cookies with where they were set: what a real browser would hold. */
  cookies(): { name: string; value: string; path: string; httpOnly: boolean }[] {
    return [...this.jar].map(([name, value]) => ({
      name,
      value,
      ...(this.scopes.get(name) ?? { path: '/', httpOnly: false }),
    }));
  }

  private keep(setCookie: string) {
    const [pair, ...attributes] = setCookie.split(';');
    const eq = pair!.indexOf('=');
    if (eq < 0) return;
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    const expired = attributes.some((a) => {
      const [key, v] = a.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (key?.toLowerCase() === 'expires') return new Date(v ?? '').getTime() <= Date.now();
      return false;
    });
    if (!value || expired) {
      this.jar.delete(name);
      this.scopes.delete(name);
      return;
    }
    this.jar.set(name, value);
    let scope: CookieScope = { path: '/', httpOnly: false };
    for (const attribute of attributes) {
      const [key, v] = attribute.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'path' && v) scope = { ...scope, path: v };
      if (key?.toLowerCase() === 'httponly') scope = { ...scope, httpOnly: true };
    }
    this.scopes.set(name, scope);
  }
}

interface CookieScope {
  path: string;
  httpOnly: boolean;
}

async function parse(res: Response): Promise<Json> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A Backend API call with the secret key, as @clerk/backend sends it (JSON bodies). */
export async function bapi(
  origin: string,
  secretKey: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<WireResponse> {
  const res = await fetch(`${origin}/__clerk_backend/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secretKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, headers: res.headers, body: await parse(res) };
}

/** `GET /api/<path>` of the product API with a session token. */
export async function productApi(origin: string, path: string, token: string, timeoutMs = 30_000) {
  const res = await fetch(`${origin}/api${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, headers: res.headers, body: await parse(res) } as WireResponse;
}

export function randomIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${(c! % 250) + 1}`;
}

/** A fresh address in Clerk's test mode: no mail is sent and the code is 424242. */
export function testModeEmail(label: string): string {
  return `${label}-${randomBytes(5).toString('hex')}+clerk_test@example.com`;
}

export const TEST_MODE_CODE = '424242';
