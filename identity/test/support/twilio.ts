import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

/**
 * A local stand-in for Twilio's Messages endpoint: records each request and answers 201, or whatever
 * `answer` is set to (status and Twilio-style JSON error body).
 */
export class TwilioStandIn {
  readonly requests: TwilioRequest[] = [];
  answer: { status: number; body: Record<string, unknown> } = {
    status: 201,
    body: { sid: 'SM00000000000000000000000000000000', status: 'queued' },
  };

  private constructor(private readonly server: Server) {}

  static async start(): Promise<TwilioStandIn> {
    const server = createServer();
    const standIn = new TwilioStandIn(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        standIn.requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(standIn.answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(standIn.answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Messages sent to `to`, oldest first. */
  to(to: string): TwilioRequest[] {
    return this.requests.filter((r) => r.form.get('To') === to);
  }

  codeFor(to: string): string {
    const code = this.to(to)
      .at(-1)
      ?.form.get('Body')
      ?.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code texted to ${to}`);
    return code;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
