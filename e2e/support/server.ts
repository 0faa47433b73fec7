import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../server/src/app.ts';
import { serverConfigFromEnv } from '../../server/src/config.ts';
import { seedDataDir } from '../../server/test/support/data-template.ts';

// Sign-ups and sign-ins here are not about hashing: argon2id at the test-only low cost (honoured only
// with NODE_ENV=test, see identity/src/crypto/passwords.ts). The files about hashing set it back.
process.env.IDENTITY_TEST_PASSWORD_HASH_COST ??= 'low';

export interface TestServer {
  app: App;
  origin: string;
  dataDir: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * The real product server with the embedded provider on a fresh PGlite directory (or the given one,
 * to test restarts), listening on a free port.
 */
export async function startServer(
  opts: { dataDir?: string; port?: number; env?: Record<string, string> } = {},
): Promise<TestServer> {
  let dataDir = opts.dataDir;
  if (dataDir === undefined) {
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
    await seedDataDir(dataDir);
  }
  // The port must be known before start: it is the public URL the provider checks redirects against. It is
  // free when picked but may be taken before the server listens (another test file runs at the same time),
  // so a picked port is tried again with another one.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    try {
      return await startServerOn(dataDir, port, opts.env);
    } catch (err) {
      const taken = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!taken || opts.port !== undefined || attempt === 3) throw err;
    }
  }
}

async function startServerOn(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const config = serverConfigFromEnv({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    CLERK_PUBLISHABLE_KEY: '',
    CLERK_SECRET_KEY: '',
    IDENTITY_MODE: 'development',
    ...env,
  });
  const app = await createApp(config, { logger: process.env.E2E_LOGS === '1' });
  let origin: string;
  try {
    origin = await app.listen();
  } catch (err) {
    await app.close();
    throw err;
  }
  return {
    app,
    origin,
    dataDir,
    port,
    async stop() {
      await app.close();
    },
  };
}

export function removeDataDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
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
