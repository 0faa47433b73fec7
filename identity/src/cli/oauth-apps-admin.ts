import type { IdentityConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { ClerkError } from '../errors.ts';
import { randomToken } from '../crypto/secrets.ts';
import { oauthApplicationJSON } from '../oauth-provider/oauth-application-json.ts';
import {
  createOAuthApplication,
  removeOAuthApplication,
  rotateOAuthApplicationSecret,
  type OAuthApplicationInput,
} from '../oauth-provider/oauth-applications.ts';
import { codePepperOr } from '../store/instance-secrets.ts';
import { listOAuthApplications } from '../store/oauth-applications.ts';
import { CliError } from './actor-token-admin.ts';
import { backendApiCaller } from './backend-api-admin.ts';
import { openAdminOf } from './open-admin.ts';

/** An OAuth application as the Backend API answers it (the fields the CLI prints). */
export interface OAuthAppSummary {
  id: string;
  name: string;
  client_id: string;
  public: boolean;
  scopes: string;
  redirect_uris: string[];
  discovery_url: string;
  client_secret?: string;
}

/** `oauth-apps` (docs/oauth-provider.md), on the database or through the running server's Backend API. */
export interface OAuthAppsAdmin {
  readonly via: string;
  list(): Promise<{ data: OAuthAppSummary[]; total: number }>;
  create(input: OAuthApplicationInput): Promise<OAuthAppSummary>;
  rotateSecret(id: string): Promise<OAuthAppSummary>;
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}

const LIST_LIMIT = 500;

/** Same choice as openAdmin: DATABASE_URL, the PGlite directory when free, else the server's Backend API. */
export function openOAuthAppsAdmin(env: NodeJS.ProcessEnv): Promise<OAuthAppsAdmin> {
  return openAdminOf(env, { database: databaseOAuthAppsAdmin, backendApi: backendApiOAuthAppsAdmin });
}

const asCliError = (err: unknown) =>
  err instanceof ClerkError ? new CliError(err.longMessage, err.status) : (err as Error);

/** Straight on the database, with the functions the Backend API uses. */
export async function databaseOAuthAppsAdmin(
  db: Database,
  config: IdentityConfig,
  via: string,
): Promise<OAuthAppsAdmin> {
  await migrate(db);
  const pepper = await codePepperOr(db, randomToken(32));
  const fapiBase = `${config.publicUrl}${config.fapiPath}`;
  const inTransaction = <T>(work: (tx: Queryable) => Promise<T>) =>
    db.transaction(work).catch((err: unknown) => {
      throw asCliError(err);
    });
  return {
    via,
    async list() {
      const { rows, total } = await listOAuthApplications(
        db,
        { column: 'created_at', descending: false },
        { limit: LIST_LIMIT, offset: 0 },
      );
      return { data: rows.map((row) => oauthApplicationJSON(row, fapiBase)), total };
    },
    async create(input) {
      const { row, secret } = await inTransaction((tx) =>
        createOAuthApplication(tx, pepper, input, new Date()),
      );
      return oauthApplicationJSON(row, fapiBase, secret);
    },
    async rotateSecret(id) {
      const { row, secret } = await inTransaction((tx) =>
        rotateOAuthApplicationSecret(tx, pepper, id, new Date()),
      );
      return oauthApplicationJSON(row, fapiBase, secret);
    },
    async remove(id) {
      await inTransaction((tx) => removeOAuthApplication(tx, id));
    },
    close: () => db.close(),
  };
}

/** Through the Backend API of the running server (which holds the PGlite directory). */
export function backendApiOAuthAppsAdmin(apiUrl: string, secretKey: string): OAuthAppsAdmin {
  const call = backendApiCaller(apiUrl, secretKey);
  const path = (id: string) => `/v1/oauth_applications/${encodeURIComponent(id)}`;
  return {
    via: `the Backend API at ${apiUrl}`,
    async list() {
      const page = await call<{ data: OAuthAppSummary[]; total_count: number }>(
        'GET',
        `/v1/oauth_applications?limit=${LIST_LIMIT}&order_by=%2Bcreated_at`,
      );
      return { data: page.data, total: page.total_count };
    },
    create: (input) =>
      call('POST', '/v1/oauth_applications', {
        name: input.name,
        public: input.public,
        scopes: input.scopes,
        redirect_uris: input.redirectUris,
        consent_screen_enabled: input.consentScreenEnabled,
        client_uri: input.clientUri,
        client_image_url: input.logoUrl,
      }),
    rotateSecret: (id) => call('POST', `${path(id)}/rotate_secret`),
    async remove(id) {
      await call('DELETE', path(id));
    },
    close: async () => {},
  };
}
