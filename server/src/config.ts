import { resolve } from 'node:path';
import {
  identityConfigFromEnv,
  metricsAccessFrom,
  trustedProxiesFrom,
  type MetricsAccess,
  type IdentityConfig,
  type TrustedProxies,
} from '@app/identity';

/**
 * Where the product keeps its own data (docs/product-database.md): the PostgreSQL server of `DATABASE_URL`
 * in its own schema, or else its own PGlite directory beside the identity provider's.
 */
export type ProductDatabaseOptions = { url: string; schema: string } | { dataDir: string };

export type ServerConfig =
  | {
      identity: 'embedded';
      port: number;
      host: string;
      /** The embedded provider's mode: HSTS, and where to listen by default. */
      production: boolean;
      dataDir: string;
      databaseUrl: string | null;
      identityConfig: IdentityConfig;
      productDatabase: ProductDatabaseOptions;
      webDist: string;
      /** The product API's own machine's secret key (`CLERK_MACHINE_SECRET_KEY`); null: no M2M token taken. */
      machineSecretKey: string | null;
    }
  | {
      identity: 'hosted';
      port: number;
      host: string;
      production: boolean;
      trustProxy: TrustedProxies;
      /** Who may read /metrics (`METRICS_ALLOWED_FROM`); embedded, the provider's setting is the same. */
      metricsAccess: MetricsAccess;
      publishableKey: string;
      secretKey: string;
      apiUrl: string | undefined;
      /** The instance's PEM public key (the dashboard's "JWT public key"): tokens verified without the JWKS. */
      jwtKey: string | null;
      proxyUrl: string | null;
      /** Where to forward the proxy path (standalone provider, or hosted Clerk in proxy mode). */
      fapiProxyTarget: string | null;
      /** GOOGLE_ONE_TAP=true: the dashboard offers Google One Tap, so the CSP allows Google's script. */
      googleOneTap: boolean;
      publicUrl: string;
      productDatabase: ProductDatabaseOptions;
      webDist: string;
      machineSecretKey: string | null;
    };

/**
 * Hosted Clerk when its keys are in the environment, otherwise the embedded identity provider.
 * Nothing else changes between the two.
 */
export function serverConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  const webDist = resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname);
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const productDatabase = productDatabaseFrom(env, dataDir);
  if (env.CLERK_PUBLISHABLE_KEY && env.CLERK_SECRET_KEY) {
    const production = env.NODE_ENV === 'production';
    return {
      identity: 'hosted',
      port,
      host: hostFrom(env, production),
      production,
      trustProxy: trustedProxiesFrom(env.TRUST_PROXY),
      metricsAccess: metricsAccessFrom(env.METRICS_ALLOWED_FROM, production),
      publishableKey: env.CLERK_PUBLISHABLE_KEY,
      secretKey: env.CLERK_SECRET_KEY,
      apiUrl: env.CLERK_API_URL,
      jwtKey: env.CLERK_JWT_KEY || null,
      proxyUrl: env.CLERK_PROXY_URL ?? null,
      fapiProxyTarget: env.FAPI_PROXY_TARGET ?? null,
      googleOneTap: env.GOOGLE_ONE_TAP === 'true',
      publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
      productDatabase,
      webDist,
      machineSecretKey: machineSecretKeyFrom(env),
    };
  }
  const identityConfig = identityConfigFromEnv({ ...env, DATA_DIR: dataDir });
  const production = identityConfig.mode === 'production';
  return {
    identity: 'embedded',
    port,
    host: hostFrom(env, production),
    production,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? null,
    identityConfig,
    productDatabase,
    webDist,
    machineSecretKey: machineSecretKeyFrom(env),
  };
}

/**
 * `CLERK_MACHINE_SECRET_KEY`: the secret key of the machine the product API is (docs/api-keys.md, "Machines
 * calling the product API"). Machines scoped to it may call the routes declared for machines with their
 * M2M tokens. A value not shaped like a machine key stops the start, rather than refusing every token later.
 */
function machineSecretKeyFrom(env: NodeJS.ProcessEnv): string | null {
  const key = env.CLERK_MACHINE_SECRET_KEY?.trim();
  if (!key) return null;
  if (!/^ak_[0-9A-Za-z_-]{16,256}$/.test(key)) {
    throw new Error(
      'CLERK_MACHINE_SECRET_KEY must be a machine secret key (ak_…), as the Backend API gave it.',
    );
  }
  return key;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * With `DATABASE_URL`, the product's tables live in their own schema of that database
 * (`PRODUCT_DATABASE_SCHEMA`, default `product`), beside the identity provider's. Without it, in their
 * own PGlite directory `DATA_DIR/product`: a PGlite directory is open in one process and one instance at
 * a time, and the identity provider's is already taken by the provider (hosted Clerk mode has none).
 */
export function productDatabaseFrom(env: NodeJS.ProcessEnv, dataDir: string): ProductDatabaseOptions {
  const schema = env.PRODUCT_DATABASE_SCHEMA || 'product';
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error('PRODUCT_DATABASE_SCHEMA must be a plain identifier (letters, digits and _).');
  }
  return env.DATABASE_URL ? { url: env.DATABASE_URL, schema } : { dataDir: resolve(dataDir, 'product') };
}

/**
 * Development listens on loopback only (`localhost`: 127.0.0.1 and ::1), where its outbox of codes is
 * safe; production, which has no outbox, on every interface. `HOST` decides either way.
 */
function hostFrom(env: NodeJS.ProcessEnv, production: boolean): string {
  return env.HOST || (production ? '0.0.0.0' : 'localhost');
}
