import Fastify from 'fastify';
import { createIdentity } from './identity.ts';
import { identityConfigFromEnv } from './config.ts';
import { resolve } from 'node:path';
import { fastifyTrustProxy } from './http/trusted-proxies.ts';
import { outboxExposureWarning } from './dev/outbox-exposure.ts';
import { loggerOptions, requestIdOptions } from './observability/request-observability.ts';

/**
 * The identity provider on its own: FAPI at /__clerk, BAPI at /__clerk_backend, dev outbox at /__dev,
 * /healthz, /readyz and /metrics at the root (docs/observability.md).
 * Put it behind the product origin's /__clerk path (reverse proxy) so clerk-js can reach it.
 */
const port = Number(process.env.IDENTITY_PORT ?? 4000);
const config = identityConfigFromEnv(process.env);
const identity = await createIdentity(
  config,
  process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL }
    : { dataDir: resolve(process.env.DATA_DIR ?? '.data', 'pglite') },
);
const app = Fastify({
  logger: loggerOptions(process.env.LOG_LEVEL ?? 'info'),
  ...requestIdOptions,
  trustProxy: fastifyTrustProxy(config.trustProxy),
});
await identity.register(app, { bapiPath: '/__clerk_backend' });
const host = process.env.HOST || '127.0.0.1';
await app.listen({ port, host });
const exposure = outboxExposureWarning(identity, host);
if (exposure) app.log.warn(exposure);
app.log.info(
  `identity provider listening; publishable key ${identity.publishableKey}; secret key in ${config.secretKeyFile}`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await identity.close();
    process.exit(0);
  });
}
