import { resolve } from 'node:path';
import { identityConfigFromEnv, type IdentityConfig } from '@app/identity';

export type ServerConfig =
  | {
      identity: 'embedded';
      port: number;
      host: string;
      dataDir: string;
      databaseUrl: string | null;
      identityConfig: IdentityConfig;
      webDist: string;
    }
  | {
      identity: 'hosted';
      port: number;
      host: string;
      publishableKey: string;
      secretKey: string;
      apiUrl: string | undefined;
      proxyUrl: string | null;
      /** Where to forward the proxy path (standalone provider, or hosted Clerk in proxy mode). */
      fapiProxyTarget: string | null;
      publicUrl: string;
      webDist: string;
    };

/**
 * Hosted Clerk when its keys are in the environment, otherwise the embedded identity provider.
 * Nothing else changes between the two.
 */
export function serverConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? '0.0.0.0';
  const webDist = resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname);
  if (env.CLERK_PUBLISHABLE_KEY && env.CLERK_SECRET_KEY) {
    return {
      identity: 'hosted',
      port,
      host,
      publishableKey: env.CLERK_PUBLISHABLE_KEY,
      secretKey: env.CLERK_SECRET_KEY,
      apiUrl: env.CLERK_API_URL,
      proxyUrl: env.CLERK_PROXY_URL ?? null,
      fapiProxyTarget: env.FAPI_PROXY_TARGET ?? null,
      publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
      webDist,
    };
  }
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  return {
    identity: 'embedded',
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    identityConfig: identityConfigFromEnv({ ...env, DATA_DIR: dataDir }),
    webDist,
  };
}
