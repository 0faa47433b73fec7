import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The response header naming which backend answered (the `name` given to `startRoundRobin`). */
export const BACKEND_HEADER = 'x-test-backend';

export interface Backend {
  name: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

/**
 * The simplest load balancer: each request goes to the next backend in turn, unchanged (Host, Origin,
 * cookies, X-Forwarded-For as the client sent them), and the answer says which backend served it.
 */
export interface RoundRobin {
  /** `http://localhost:<port>`: the public origin the product processes are configured with. */
  origin: string;
  port: number;
  /** Which backend each request went to, in order. */
  served: { name: string; method: string; path: string }[];
  close(): Promise<void>;
}

export async function startRoundRobin(backends: () => Backend[], port = 0): Promise<RoundRobin> {
  let next = 0;
  const served: RoundRobin['served'] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const all = backends();
    const backend = all[next++ % all.length]!;
    served.push({ name: backend.name, method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]! });
    const target = new URL(req.url ?? '/', backend.origin);
    const upstream = request(
      target,
      { method: req.method, headers: req.headers },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [BACKEND_HEADER]: backend.name });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { [BACKEND_HEADER]: backend.name }).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    origin: `http://localhost:${actual}`,
    port: actual,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
