import { outboxExposureWarning } from '@app/identity';
import { createApp } from './app.ts';
import { serverConfigFromEnv } from './config.ts';

const config = serverConfigFromEnv();
const app = await createApp(config);
const origin = await app.listen();
app.fastify.log.info(
  `Product on ${config.identity === 'embedded' ? config.identityConfig.publicUrl : origin} (identity: ${config.identity}` +
    (app.identity?.devOutbox ? `; development outbox at /__dev/mail` : '') +
    ')',
);
const exposure = app.identity && outboxExposureWarning(app.identity, config.host);
if (exposure) app.fastify.log.warn(exposure);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    process.exit(0);
  });
}
