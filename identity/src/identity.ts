import { configurePasswordHashing } from './crypto/passwords.ts';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { IdentityConfig } from './config.ts';
import { openDatabase, type Database, type DatabaseOptions } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import type { IdentityDeps } from './deps.ts';
import { loadInstanceKeys } from './instance/instance-keys.ts';
import { loadSigningKey } from './instance/signing-keys.ts';
import { outboxMailer, smtpMailer } from './mail/mailer.ts';
import { fapiPlugin } from './fapi/plugin.ts';
import { bapiPlugin } from './bapi/plugin.ts';
import { devOutboxPlugin } from './dev/outbox-plugin.ts';
import { smsSenderFor } from './sms/choose-sender.ts';
import { startRetention, type RetentionJob } from './retention/schedule.ts';

export interface Identity {
  deps: IdentityDeps;
  publishableKey: string;
  secretKey: string;
  /** True when mail is captured in the development outbox rather than sent. */
  devOutbox: boolean;
  /** Mounts FAPI at `config.fapiPath`, BAPI at `bapiPath`, and the dev outbox at `/__dev`. */
  register(app: FastifyInstance, opts: { bapiPath: string }): Promise<void>;
  /** The scheduled purge of expired rows (`config.retention`). */
  retention: RetentionJob;
  /** Stops the purge, then closes the database. */
  close(): Promise<void>;
}

/** clerk-js's suffixed cookie names: first 8 chars of URL-safe base64 of SHA-1(publishable key). */
export function cookieSuffixOf(publishableKey: string): string {
  return createHash('sha1')
    .update(publishableKey)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .slice(0, 8);
}

export async function createIdentity(
  config: IdentityConfig,
  database: DatabaseOptions | Database,
  opts: { clock?: () => Date } = {},
): Promise<Identity> {
  if (config.mode === 'production' && !config.smtpUrl) {
    throw new Error('Production mode needs SMTP_URL: there is no development outbox in production.');
  }
  const sms = smsSenderFor(config);
  configurePasswordHashing(config.passwordHashing);
  const db = 'query' in database ? database : await openDatabase(database);
  await migrate(db);
  const keys = await loadInstanceKeys(db, config);
  const signingKey = await loadSigningKey(db);
  const deps: IdentityDeps = {
    db,
    config,
    keys,
    signingKey,
    tokens: {
      signingKey,
      issuer: `https://${config.frontendApiHost}`,
      ttlSeconds: config.sessionTokenTtlSeconds,
    },
    mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(),
    sms,
    cookieSuffix: cookieSuffixOf(keys.publishableKey),
    clock: opts.clock ?? (() => new Date()),
    avatarUrl: `${config.publicUrl}${config.fapiPath}/v1/avatars/avatar_placeholder.svg`,
    fapiBase: `${config.publicUrl}${config.fapiPath}`,
  };
  const devOutbox = config.mode === 'development' && !config.smtpUrl;
  const retention = startRetention(db, deps.clock, config.retention.intervalSeconds, (err) =>
    // The message only: it names a table or the connection, never a row's content.
    console.warn(
      `identity: purging expired rows failed, next try in ${config.retention.intervalSeconds}s: ${err.message}`,
    ),
  );
  return {
    deps,
    publishableKey: keys.publishableKey,
    secretKey: keys.secretKey,
    devOutbox,
    async register(app, { bapiPath }) {
      if (!app.hasDecorator('parseCookie')) await app.register(cookie);
      await app.register(fapiPlugin, { prefix: config.fapiPath, deps });
      await app.register(bapiPlugin, { prefix: bapiPath, deps });
      const smsOutbox = sms?.kind === 'outbox';
      if (devOutbox || smsOutbox) {
        await app.register(devOutboxPlugin, {
          prefix: '/__dev',
          db,
          channels: { mail: devOutbox, sms: smsOutbox },
          public: config.devOutboxPublic,
        });
      }
    },
    retention,
    async close() {
      await retention.stop();
      await db.close();
    },
  };
}
