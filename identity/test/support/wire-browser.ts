import { createServer } from 'node:net';
import type { Browser } from './harness.ts';
import { CLERK_QUERY, FAPI } from './harness.ts';

/** A free port on the loopback, for a server whose public URL must be known before it starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Cookie {
  value: string;
  path: string;
}

/**
 * A browser over real HTTP: a cookie jar honouring cookie paths, redirects followed by hand (so a test sees
 * where each one goes), the page's Origin on its Frontend API calls.
 */
export class WireBrowser {
  private readonly cookies = new Map<string, Cookie>();

  constructor(readonly origin: string) {}

  /** This browser with the cookies a harness browser holds (a wire sign-in's `__client`). */
  static signedInAs(browser: Browser, origin: string): WireBrowser {
    const wire = new WireBrowser(origin);
    for (const [name, value] of browser.jar) wire.cookies.set(name, { value, path: '/' });
    return wire;
  }

  cookieNames(): string[] {
    return [...this.cookies.keys()];
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    const sent = [...this.cookies]
      .filter(
        ([, c]) =>
          target.pathname === c.path ||
          target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map(([name, c]) => `${name}=${c.value}`);
    if (sent.length) headers.cookie = sent.join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = this.origin;
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const path =
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const expired = attributes.some(
        (a) => /^max-age=0$/i.test(a.trim()) || /^expires=Thu, 01 Jan 1970/i.test(a.trim()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
    return res;
  }

  /**
   * Follows redirects from `url` while they stay on this browser's origin and are not the consent page;
   * answers the URL it stopped at (the consent page, the client's redirect URI) and the last answer.
   */
  async follow(url: string): Promise<{ url: string; status: number; body: string }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const res = await this.request(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        return { url: current, status: res.status, body: await res.text() };
      }
      await res.arrayBuffer();
      current = new URL(location, current).href;
      const next = new URL(current);
      if (next.origin !== this.origin || next.pathname === '/oauth/consent') {
        return { url: current, status: res.status, body: '' };
      }
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** A Frontend API call as clerk-js makes it from the page (the Clerk query parameters, the Origin). */
  async fapi(method: 'GET' | 'POST' | 'DELETE', path: string, form: Record<string, string> = {}) {
    const query = new URLSearchParams(CLERK_QUERY);
    if (method === 'DELETE') query.set('_method', 'DELETE');
    const url = `${this.origin}${FAPI}/v1${path}?${query}`;
    const res = await this.request(url, method === 'GET' ? {} : { method: 'POST', form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
}
