import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import { resolve } from 'node:path';
import {
  clerkFrameworkErrors,
  createIdentity,
  fastifyTrustProxy,
  googleOneTapClientId,
  captchaProviderInUse,
  deriveWebhookSecret,
  type Identity,
  type Database,
  allSatelliteOrigins,
  API_KEY_SECRET_SHAPE,
  loggerOptions,
  Metrics,
  metricsAllowed,
  pingDatabase,
  registerRequestObservability,
  requestIdOptions,
  type Dependency,
} from '@app/identity';
import {
  ApiKeyFailures,
  BEARER_KINDS,
  M2M_TOKEN_FAILURE_LIMIT,
  OAUTH_TOKEN_FAILURE_LIMIT,
  type ApiKeyFailureLimit,
} from './auth/api-key-failures.ts';
import { resourceMetadataUrl } from './auth/protected-resource.ts';
import { Authenticator } from './auth/authenticate.ts';
import { satelliteSync } from './auth/satellite-sync.ts';
import { PRODUCT_ROUTES, registerProductApi } from './api/product-api.ts';
import { registerServerRoutes } from './server-route.ts';
import { consoleBackend, type ConsoleBackend } from './console/backend-client.ts';
import { CONSOLE_API_PREFIX, registerConsoleApi } from './console/console-api.ts';
import { SERVER_ROUTE_FAMILIES } from './server-routes.ts';
import { CLERK_JS_URL, registerClerkJs } from './static/clerk-js.ts';
import { registerSpa } from './static/spa.ts';
import { registerFapiProxy } from './static/fapi-proxy.ts';
import { frontendApiHostOf, registerSecurityHeaders } from './static/security-headers.ts';
import { registerPopupCallback } from './static/popup-callback.ts';
import type { ServerConfig } from './config.ts';
import type { ApiDeps, BackendApi } from './api/deps.ts';
import { openProductDatabase } from './db/product-database.ts';
import { DEFAULT_OUTBOX_TIMING, type OutboxTiming } from './organizations/metadata-outbox.ts';
import { ProductHierarchy } from './organizations/product-hierarchy.ts';
import { OrganizationSubscriptions } from './billing/organization-subscriptions.ts';
import { BILLING_WEBHOOK_EVENTS, CLERK_WEBHOOK_PATH } from './webhooks/clerk-webhooks.ts';

export const BAPI_PATH = '/__clerk_backend';
/** @clerk/backend's default Backend API, hosted Clerk's. */
const HOSTED_BACKEND_API = 'https://api.clerk.com';

export interface App {
  fastify: FastifyInstance;
  identity: Identity | null;
  /** The product's own data: the vCISO hierarchy and its metadata outbox. */
  hierarchy: ProductHierarchy;
  /** The organisations' subscription flags (docs/billing.md). */
  subscriptions: OrganizationSubscriptions;
  /** The process's Prometheus metrics, shared with the embedded provider (docs/observability.md). */
  metrics: Metrics;
  /** Starts listening, then the hierarchy's background work; returns the origin it listens on. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** An already-open database (tests share one with their assertions). */
  database?: Database;
  /** An already-open, migrated product database; otherwise `config.productDatabase` is opened. */
  productDatabase?: Database;
  /** Wraps the Backend API client the product uses (tests inject failures into the real one). */
  backendApi?: (client: BackendApi) => BackendApi;
  /** Wraps the console's Backend API client (tests count or fail its calls). */
  consoleBackend?: (client: ConsoleBackend) => ConsoleBackend;
  outboxTiming?: Partial<OutboxTiming>;
  /** The limit of failed API keys per address (api-key-failures.ts; tests use a small one). */
  apiKeyFailureLimit?: ApiKeyFailureLimit;
  /** The limit of failed OAuth access tokens per address (api-key-failures.ts; tests use a small one). */
  oauthTokenFailureLimit?: ApiKeyFailureLimit;
  /** The limit of failed M2M tokens per address (api-key-failures.ts; tests use a small one). */
  m2mTokenFailureLimit?: ApiKeyFailureLimit;
  /** The time the failure limits count with (tests move it past a window). */
  clock?: () => Date;
  /** False: listen() does not start the adoption and the outbox worker (the CLI runs them itself). */
  startWorkers?: boolean;
  /** False: no static files (the CLI serves only the embedded Backend API, to itself). */
  serveWeb?: boolean;
  logger?: boolean;
  /** Sees every route as it is registered (Fastify's onRoute hook): server/test/declared-routes.test.ts. */
  onRoute?: (route: RouteOptions) => void;
}

export async function createApp(config: ServerConfig, opts: AppOptions = {}): Promise<App> {
  const fastify = Fastify({
    // Paths only: query strings can carry tokens (dev-browser ids, email-link tokens).
    logger: opts.logger === false ? false : loggerOptions(process.env.LOG_LEVEL ?? 'info'),
    // A request id on every log line, response and error answer (docs/observability.md).
    ...requestIdOptions,
    trustProxy: fastifyTrustProxy(
      config.identity === 'embedded' ? config.identityConfig.trustProxy : config.trustProxy,
    ),
    bodyLimit: 1024 * 1024,
    // A path Fastify cannot decode is refused before any plugin runs: in Clerk's envelope on the identity's paths.
    ...(config.identity === 'embedded'
      ? { frameworkErrors: clerkFrameworkErrors([config.identityConfig.fapiPath, BAPI_PATH]) }
      : {}),
  });

  if (opts.onRoute) fastify.addHook('onRoute', opts.onRoute);
  // Before any route: request ids and request metrics on all of them (the provider's too).
  const metrics = new Metrics();
  registerRequestObservability(fastify, metrics);
  // First: the popup page's host answers before anything of the product (its own headers, no SPA).
  if (config.identity === 'embedded' && opts.serveWeb !== false) {
    registerPopupCallback(fastify, { identityConfig: config.identityConfig });
  }

  let identity: Identity | null = null;
  let publishableKey: string;
  let secretKey: string;
  let proxyUrl: string | null;
  // The Backend API URL is known once we listen (the port may be chosen by the OS in tests).
  let apiUrl: string | undefined;
  if (config.identity === 'embedded') {
    identity = await createIdentity(
      config.identityConfig,
      opts.database ??
        (config.databaseUrl ? { url: config.databaseUrl } : { dataDir: resolve(config.dataDir, 'pglite') }),
      { metrics },
    );
    // The provider's /healthz, /readyz and /metrics are the server's own (server-routes.ts).
    await identity.register(fastify, { bapiPath: BAPI_PATH, operations: false });
    publishableKey = identity.publishableKey;
    secretKey = identity.secretKey;
    proxyUrl = config.identityConfig.fapiPath;
  } else {
    publishableKey = config.publishableKey;
    secretKey = config.secretKey;
    proxyUrl = config.proxyUrl;
    apiUrl = config.apiUrl;
  }

  const embeddedSettings = identity?.settings;
  // The embedded instance's captcha provider now (docs/captcha.md); hosted Clerk's is Cloudflare's, its own.
  const captchaProvider = () =>
    embeddedSettings && config.identity === 'embedded'
      ? captchaProviderInUse(embeddedSettings.settings.captcha, config.identityConfig.mode)
      : null;
  // The instance's billing (docs/billing.md): embedded, the live settings (a change applies to the next page);
  // hosted Clerk's are its dashboard's, always through Stripe — BILLING_ENABLED=true shows the pricing page.
  const billingInUse = (): { enabled: boolean; gateway: 'offline' | 'stripe' } => {
    if (!embeddedSettings) return { enabled: process.env.BILLING_ENABLED === 'true', gateway: 'stripe' };
    const billing = embeddedSettings.settings.billing;
    return {
      enabled: billing?.enabled === true,
      gateway: billing?.gateway.kind === 'stripe' ? 'stripe' : 'offline',
    };
  };
  await registerSecurityHeaders(fastify, {
    production: config.production,
    publishableKey,
    hosted: config.identity === 'hosted',
    fapiPath: proxyUrl?.startsWith('/') ? proxyUrl : null,
    // Embedded: the live instance setting (a change applies to the next page without a restart).
    googleOneTap: embeddedSettings
      ? () => googleOneTapClientId(embeddedSettings.settings.social) !== null
      : () => config.identity === 'hosted' && config.googleOneTap,
    // Embedded with Turnstile as its captcha: Cloudflare's script and frame (hosted Clerk: always).
    turnstile: () => captchaProvider() === 'turnstile',
    // Stripe.js (its script, frames and API) only with the Stripe gateway; the offline stand-in is ours.
    stripe: () => billingInUse().enabled && billingInUse().gateway === 'stripe',
  });

  const authorizedParties =
    config.identity === 'embedded'
      ? [config.identityConfig.publicUrl, ...config.identityConfig.allowedOrigins]
      : (process.env.AUTHORIZED_PARTIES ?? config.publicUrl).split(',').filter(Boolean);
  const jwtKey = config.identity === 'hosted' ? config.jwtKey : null;
  // Made on first use: the embedded Backend API's URL is known once the server listens.
  let authenticator: Authenticator | null = null;
  const authenticatorNow = () =>
    (authenticator ??= new Authenticator({
      publishableKey,
      secretKey,
      apiUrl,
      jwtKey,
      authorizedParties,
      // The embedded provider's keys have one exact shape; hosted Clerk's a documented prefix only.
      ...(config.identity === 'embedded' ? { apiKeyShape: API_KEY_SECRET_SHAPE } : {}),
      machineSecretKey: config.machineSecretKey,
    }));

  const appConfig = () => ({
    publishableKey,
    proxyUrl,
    clerkJSUrl: CLERK_JS_URL,
    identity: config.identity,
    devOutbox: identity?.devOutbox ?? false,
    captcha: captchaProvider(),
    billing: billingInUse(),
    // The satellite domains' origins, where the product's clerk-js may send a browser back after signing in
    // (a sign-in started on a satellite: docs/satellites.md).
    allowedRedirectOrigins: identity ? allSatelliteOrigins(identity.settings.settings) : [],
  });
  if (config.identity === 'hosted' && config.fapiProxyTarget && config.proxyUrl?.startsWith('/')) {
    const { proxyUrl: path, fapiProxyTarget: target, publicUrl } = config;
    await fastify.register(async (scope) => registerFapiProxy(scope, { path, target, secretKey, publicUrl }));
  }
  const productDb = opts.productDatabase ?? (await openProductDatabase(config.productDatabase));
  metrics.observeDatabase('product', productDb);
  const dependencies: Dependency[] = [
    ...(identity ? [identity.readiness] : []),
    { name: 'product_database', check: () => pingDatabase(productDb) },
  ];
  let backendApi: BackendApi | null = null;
  const backend = (): BackendApi => {
    const client: BackendApi = authenticatorNow().clerk;
    backendApi ??= opts.backendApi ? opts.backendApi(client) : client;
    return backendApi;
  };
  const hierarchy = new ProductHierarchy(productDb, () => backend().organizations, fastify.log, {
    ...DEFAULT_OUTBOX_TIMING,
    ...opts.outboxTiming,
  });
  const apiKeyFailures = new ApiKeyFailures(productDb, opts.apiKeyFailureLimit, opts.clock);
  const oauthTokenFailures = new ApiKeyFailures(
    productDb,
    opts.oauthTokenFailureLimit ?? OAUTH_TOKEN_FAILURE_LIMIT,
    opts.clock,
    BEARER_KINDS.oauthToken,
  );
  const m2mTokenFailures = new ApiKeyFailures(
    productDb,
    opts.m2mTokenFailureLimit ?? M2M_TOKEN_FAILURE_LIMIT,
    opts.clock,
    BEARER_KINDS.m2mToken,
  );
  // The product API as an OAuth protected resource (RFC 9728, docs/oauth-provider.md): its tokens' issuer
  // is the identity provider's Frontend API, and the scopes are those its routes ask.
  const protectedResource = {
    resource: config.identity === 'embedded' ? config.identityConfig.publicUrl : config.publicUrl,
    issuer:
      config.identity === 'embedded'
        ? `${config.identityConfig.publicUrl}${config.identityConfig.fapiPath}`
        : frontendApiHostOf(publishableKey) && `https://${frontendApiHostOf(publishableKey)}`,
    scopes: [...new Set(PRODUCT_ROUTES.flatMap((r) => r.oauthScopes ?? []))].sort(),
  };
  // The subscription flag, derived from the provider's billing (docs/billing.md).
  const subscriptions = new OrganizationSubscriptions(hierarchy, () => backend().billing);
  // The workers stop before the server stops answering: their deliveries and Backend API calls go to this
  // very server, and a connection one of them opens while it closes (accepted, no request yet) is not
  // idle, so the close would wait for Node's headers timeout (a minute) to drop it. Then nothing starts
  // once the server stops answering (app.close() then closes the provider).
  fastify.addHook('preClose', async () => {
    await identity?.webhooks.stop();
    await hierarchy.stop();
  });
  fastify.addHook('onClose', async () => {
    if (!opts.productDatabase) await productDb.close();
  });
  const deps: ApiDeps = {
    authenticate: (req) => authenticatorNow().authenticate(req),
    // API keys (docs/api-keys.md), verified by the Backend API on every call, failures limited per address.
    authenticateApiKey: (req) =>
      apiKeyFailures.guard(req.ip, () => authenticatorNow().authenticateApiKey(req)),
    // OAuth access tokens (docs/oauth-provider.md), verified by the Backend API on every call, failures
    // limited per address.
    authenticateOAuthToken: (req) =>
      oauthTokenFailures.guard(req.ip, () => authenticatorNow().authenticateOAuthToken(req)),
    // M2M tokens of the machines scoped to the product's (docs/api-keys.md), verified by the Backend API on
    // every call, failures limited per address; without the product's machine key, refused everywhere.
    ...(config.machineSecretKey
      ? {
          authenticateM2mToken: (req: FastifyRequest) =>
            m2mTokenFailures.guard(req.ip, () => authenticatorNow().authenticateM2mToken(req)),
        }
      : {}),
    resourceMetadataUrl: resourceMetadataUrl(protectedResource),
    get clerk() {
      return backend();
    },
    hierarchy,
  };
  await fastify.register(async (api) => registerProductApi(api, deps), { prefix: '/api' });
  // The operator console's API (docs/console.md): a client of the Backend API with the secret key.
  const consoleClient = consoleBackend(() => ({ apiUrl: apiUrl ?? HOSTED_BACKEND_API, secretKey }));
  await fastify.register(
    async (scope) =>
      registerConsoleApi(scope, {
        authenticator: deps,
        backend: opts.consoleBackend ? opts.consoleBackend(consoleClient) : consoleClient,
        billingEnabled: () => billingInUse().enabled,
      }),
    { prefix: CONSOLE_API_PREFIX },
  );
  // The identity provider's events (docs/webhooks.md): the secret of CLERK_WEBHOOK_SIGNING_SECRET (hosted
  // Clerk's dashboard shows it); embedded without it, one derived from the instance's secret key, which
  // this process gives its own provider with the endpoint below: `npm start` needs no setup.
  const webhookSecret =
    process.env.CLERK_WEBHOOK_SIGNING_SECRET ||
    (identity ? deriveWebhookSecret(identity.secretKey, 'product server endpoint') : null);
  // The server's own routes beside /api: /app-config.json, /healthz, the protected-resource metadata and
  // the provider's webhook (server-routes.ts).
  await registerServerRoutes(fastify, SERVER_ROUTE_FAMILIES, {
    appConfig,
    protectedResource,
    webhooks: { secret: () => webhookSecret, hierarchy, subscriptions },
    // Embedded only: the satellites are the instance settings' (hosted Clerk's are its dashboard's).
    satelliteSync:
      embeddedSettings && config.identity === 'embedded'
        ? satelliteSync({
            publishableKey,
            publicUrl: config.identityConfig.publicUrl,
            clerk: () => authenticatorNow().clerk,
            satelliteOrigins: () => allSatelliteOrigins(embeddedSettings.settings),
          })
        : async () => null,
    operations: {
      metrics,
      dependencies,
      metricsAllowed: metricsAllowed(
        config.identity === 'embedded' ? config.identityConfig.metricsAccess : config.metricsAccess,
        {
          proxied:
            (config.identity === 'embedded' ? config.identityConfig.trustProxy : config.trustProxy) !== false,
        },
      ),
    },
  });
  // The static files (clerk-js and the SPA, ~1.6 MB raw per cold load, ~0.4 MB brotli) are compressed once,
  // not per request: the SPA's at build (web/scripts/precompress.mjs), clerk-js's on first demand, each then
  // served from memory (static/served-file.ts). API answers are small JSON, where compressing would cost
  // more than it saves.
  if (opts.serveWeb !== false) {
    await fastify.register(async (assets) => {
      await registerClerkJs(assets);
      await registerSpa(assets, config.webDist);
    });
  }

  return {
    fastify,
    identity,
    hierarchy,
    subscriptions,
    metrics,
    async listen() {
      const address = await fastify.listen({ port: config.port, host: config.host });
      const port = new URL(address).port;
      if (config.identity === 'embedded') apiUrl = `http://${selfHost(fastify)}:${port}${BAPI_PATH}`;
      // The embedded provider delivers the events the product follows to this process (an endpoint of
      // the instance settings with the same id wins; docs/webhooks.md).
      if (identity && webhookSecret) {
        identity.webhooks.addEndpoint({
          id: 'ep_product',
          url: `http://${selfHost(fastify)}:${port}${CLERK_WEBHOOK_PATH}`,
          events: ['organization.deleted', ...BILLING_WEBHOOK_EVENTS],
          enabled: true,
          secret: webhookSecret,
        });
      }
      // After listening: the embedded Backend API, which adoption and the outbox call, is this server.
      if (opts.startWorkers !== false) hierarchy.start();
      return `http://localhost:${port}`;
    },
    async close() {
      await fastify.close();
      await identity?.close();
    },
  };
}

/** Where this process reaches its own Backend API: loopback when it listens there or everywhere. */
function selfHost(fastify: FastifyInstance): string {
  const addresses = fastify.addresses().map((a) => (typeof a === 'string' ? a : a.address));
  if (addresses.includes('127.0.0.1') || addresses.includes('0.0.0.0') || addresses.includes('::'))
    return '127.0.0.1';
  if (addresses.includes('::1')) return '[::1]';
  const [first = '127.0.0.1'] = addresses;
  return first.includes(':') ? `[${first}]` : first;
}
