import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@clerk/backend/webhooks';

export interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
  status: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 that verifies every request with `@clerk/backend`'s `verifyWebhook`
 * (the code a Clerk application runs), then answers what `answer` says. It records what it accepted and
 * how many requests were in flight per message id at once.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly refused: string[] = [];
  /** The most requests for one `svix-id` it ever had open at once. */
  maxConcurrentPerId = 0;
  private open = new Map<string, number>();
  private server: Server;
  answer: (type: string, id: string) => number | Promise<number> = () => 200;

  private constructor(readonly secret: string) {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        (status) => res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`),
        () => res.writeHead(500).end('receiver failed'),
      );
    });
  }

  static async start(secret: string): Promise<WebhookReceiver> {
    const r = new WebhookReceiver(secret);
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  private async handle(req: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const id = headers.get('svix-id') ?? '';
    this.open.set(id, (this.open.get(id) ?? 0) + 1);
    this.maxConcurrentPerId = Math.max(this.maxConcurrentPerId, this.open.get(id)!);
    try {
      let event;
      try {
        event = await verifyWebhook(new Request(this.url, { method: 'POST', headers, body }), {
          signingSecret: this.secret,
        });
      } catch {
        this.refused.push(id);
        return 400;
      }
      const status = await this.answer(event.type, id);
      this.received.push({
        id,
        type: event.type,
        data: event.data as unknown as Record<string, unknown>,
        status,
      });
      return status;
    } finally {
      this.open.set(id, this.open.get(id)! - 1);
    }
  }

  /** Events answered 2xx, in order. */
  get delivered(): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  async waitFor(predicate: (r: WebhookReceiver) => boolean, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (Date.now() > until) {
        throw new Error(
          `webhook receiver: condition not met; received ${JSON.stringify(this.received.map((r) => [r.type, r.status]))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
