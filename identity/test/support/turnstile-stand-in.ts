import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Cloudflare Turnstile's siteverify (POST form: secret, response, remoteip,
 * idempotency_key), answering as Cloudflare documents: `success` for a token it issued (`issue`) with the
 * right secret, once (again only with the same idempotency key), `invalid-input-secret`,
 * `invalid-input-response`, `timeout-or-duplicate` otherwise. `down` makes it answer 500.
 */
export class TurnstileStandIn {
  readonly requests: Record<string, string>[] = [];
  down = false;
  /** The site Cloudflare says the widget was solved on. */
  hostname = 'localhost';
  private readonly issued = new Set<string>();
  private readonly spent = new Map<string, string>();

  private constructor(
    private readonly server: Server,
    readonly secret: string,
  ) {}

  static async start(secret: string): Promise<TurnstileStandIn> {
    let standIn: TurnstileStandIn | null = null;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const answer = standIn!.answer(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new TurnstileStandIn(server, secret);
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
  }

  /** A token as the widget would hand the page. */
  issue(): string {
    const token = `0.standin-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    this.issued.add(token);
    return token;
  }

  private answer(form: Record<string, string>): { status: number; body: unknown } {
    this.requests.push(form);
    if (this.down) return { status: 500, body: {} };
    const fail = (code: string) => ({ status: 200, body: { success: false, 'error-codes': [code] } });
    if (form.secret !== this.secret) return fail('invalid-input-secret');
    const token = form.response ?? '';
    if (!this.issued.has(token)) return fail('invalid-input-response');
    const spentWith = this.spent.get(token);
    if (spentWith !== undefined && (spentWith === '' || spentWith !== form.idempotency_key))
      return fail('timeout-or-duplicate');
    this.spent.set(token, form.idempotency_key ?? '');
    return {
      status: 200,
      body: {
        success: true,
        'error-codes': [],
        hostname: this.hostname,
        challenge_ts: new Date().toISOString(),
      },
    };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
