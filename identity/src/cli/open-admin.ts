import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { identityConfigFromEnv, type IdentityConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { holderOf } from '../db/pglite-lock.ts';
import { CliError, type ActorTokenAdmin } from './actor-token-admin.ts';
import { backendApiAdmin, isBackendApiOf } from './backend-api-admin.ts';
import { databaseAdmin } from './database-admin.ts';

/** Where the server and the standalone provider mount the Backend API. */
const BAPI_PATH = '/__clerk_backend';

/** How one kind of administration reaches the instance: straight on its database, or through its Backend API. */
export interface AdminAccess<T> {
  database(db: Database, config: IdentityConfig, via: string): Promise<T>;
  backendApi(apiUrl: string, secretKey: string): T;
}

/**
 * The instance the server uses, found from the same variables: DATABASE_URL, or the PGlite directory
 * DATA_DIR/pglite. PostgreSQL is shared by design. A PGlite directory has one process at a time, so
 * while the server holds it the CLI goes through that server's Backend API instead.
 */
export async function openAdminOf<T>(env: NodeJS.ProcessEnv, access: AdminAccess<T>): Promise<T> {
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const config = identityConfigFromEnv({ ...env, DATA_DIR: dataDir });
  if (env.DATABASE_URL) {
    return access.database(
      await openDatabase({ url: env.DATABASE_URL }),
      config,
      'the DATABASE_URL database',
    );
  }
  const pgliteDir = resolve(dataDir, 'pglite');
  const holder = holderOf(pgliteDir);
  if (holder === null) {
    if (!existsSync(pgliteDir)) {
      throw new CliError(
        `There is no database in ${pgliteDir}. Start the product once (npm start), or set DATA_DIR or DATABASE_URL.`,
      );
    }
    return access.database(
      await openDatabase({ dataDir: pgliteDir }),
      config,
      `the database in ${pgliteDir}`,
    );
  }

  const secretKey = env.IDENTITY_SECRET_KEY ?? readSecretKey(config.secretKeyFile);
  for (const apiUrl of backendApiCandidates(env)) {
    if (await isBackendApiOf(apiUrl, secretKey)) return access.backendApi(apiUrl, secretKey);
  }
  throw new CliError(
    `The database in ${pgliteDir} is in use by process ${holder} (the server, presumably), and its Backend API did not ` +
      `answer at ${backendApiCandidates(env).join(' or ')}. Set IDENTITY_API_URL to the server's ` +
      `${BAPI_PATH} URL, or stop the server and run the command again.`,
  );
}

/** The actor-token and user administration (impersonation commands). */
export function openAdmin(env: NodeJS.ProcessEnv): Promise<ActorTokenAdmin> {
  return openAdminOf(env, { database: databaseAdmin, backendApi: backendApiAdmin });
}

/** IDENTITY_API_URL, else the product server's port, else the standalone provider's. */
export function backendApiCandidates(env: NodeJS.ProcessEnv): string[] {
  if (env.IDENTITY_API_URL) return [env.IDENTITY_API_URL.replace(/\/$/, '')];
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  const at = (port: string) => `http://${host.includes(':') ? `[${host}]` : host}:${port}${BAPI_PATH}`;
  return [...new Set([at(env.PORT ?? '3000'), at(env.IDENTITY_PORT ?? '4000')])];
}

export function readSecretKey(file: string | null): string {
  if (file && existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new CliError(
    `The server's secret key is needed to reach its Backend API: set IDENTITY_SECRET_KEY, or run from the ` +
      `directory whose DATA_DIR holds identity-secret-key.`,
  );
}
