import type { IdentityConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import type { IdentityDeps } from '../deps.ts';
import { ClerkError } from '../errors.ts';
import { outboxMailer, smtpMailer } from '../mail/mailer.ts';
import { inviteWaitlistEntry, rejectWaitlistEntry, waitlistEntryJSON } from '../sign-up-modes/waitlist.ts';
import {
  findWaitlistEntryByEmail,
  listWaitlistEntries,
  type WaitlistEntryStatus,
} from '../store/waitlist.ts';
import { CliError } from './actor-token-admin.ts';
import { backendApiCaller } from './backend-api-admin.ts';
import { openAdminOf } from './open-admin.ts';

/** A waitlist entry as the Backend API answers it (the fields the CLI prints). */
export interface WaitlistEntrySummary {
  id: string;
  email_address: string;
  status: WaitlistEntryStatus;
  created_at: number;
  invitation: { id: string; status: string; url?: string | null } | null;
}

/** `waitlist list|invite|reject` (docs/cli.md), on the database or through the running server's Backend API. */
export interface WaitlistAdmin {
  readonly via: string;
  list(opts: { status?: WaitlistEntryStatus; query?: string; limit: number }): Promise<{
    data: WaitlistEntrySummary[];
    total: number;
  }>;
  /** By entry id (`wle_…`) or address. */
  invite(idOrEmail: string): Promise<WaitlistEntrySummary>;
  reject(idOrEmail: string): Promise<WaitlistEntrySummary>;
  close(): Promise<void>;
}

/** Same choice as openAdmin: DATABASE_URL, the PGlite directory when free, else the server's Backend API. */
export function openWaitlistAdmin(env: NodeJS.ProcessEnv): Promise<WaitlistAdmin> {
  return openAdminOf(env, { database: databaseWaitlistAdmin, backendApi: backendApiWaitlistAdmin });
}

const asCliError = (err: unknown) =>
  err instanceof ClerkError ? new CliError(err.longMessage, err.status) : (err as Error);

/** Straight on the database, with the services the Backend API uses (the invitation mailed the same way). */
export async function databaseWaitlistAdmin(
  db: Database,
  config: IdentityConfig,
  via: string,
): Promise<WaitlistAdmin> {
  await migrate(db);
  const deps = {
    config,
    fapiBase: `${config.publicUrl}${config.fapiPath}`,
    mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(),
  } as Pick<IdentityDeps, 'config' | 'fapiBase' | 'mailer'> as IdentityDeps;
  const idOf = async (idOrEmail: string) => {
    if (idOrEmail.startsWith('wle_')) return idOrEmail;
    const entry = await findWaitlistEntryByEmail(db, idOrEmail);
    if (!entry) throw new CliError(`There is no waitlist entry for ${idOrEmail}.`);
    return entry.id;
  };
  return {
    via,
    async list(opts) {
      const now = new Date();
      const page = await listWaitlistEntries(db, {
        query: opts.query ?? null,
        status: opts.status ?? null,
        orderBy: '+created_at',
        limit: opts.limit,
        offset: 0,
      });
      return {
        data: (await Promise.all(
          page.data.map((e) => waitlistEntryJSON(db, e, now)),
        )) as WaitlistEntrySummary[],
        total: page.total,
      };
    },
    async invite(idOrEmail) {
      const id = await idOf(idOrEmail);
      return (await db
        .transaction((tx) => inviteWaitlistEntry(tx, deps, id, new Date()))
        .catch((err: unknown) => {
          throw asCliError(err);
        })) as WaitlistEntrySummary;
    },
    async reject(idOrEmail) {
      const id = await idOf(idOrEmail);
      return (await db
        .transaction((tx) => rejectWaitlistEntry(tx, id, new Date()))
        .catch((err: unknown) => {
          throw asCliError(err);
        })) as WaitlistEntrySummary;
    },
    close: () => db.close(),
  };
}

/** Through the Backend API of the running server (which holds the PGlite directory). */
export function backendApiWaitlistAdmin(apiUrl: string, secretKey: string): WaitlistAdmin {
  const call = backendApiCaller(apiUrl, secretKey);
  const idOf = async (idOrEmail: string) => {
    if (idOrEmail.startsWith('wle_')) return idOrEmail;
    const found = await call<{ data: WaitlistEntrySummary[] }>(
      'GET',
      `/v1/waitlist_entries?query=${encodeURIComponent(idOrEmail)}&limit=10`,
    );
    const entry = found.data.find((e) => e.email_address.toLowerCase() === idOrEmail.toLowerCase());
    if (!entry) throw new CliError(`There is no waitlist entry for ${idOrEmail}.`);
    return entry.id;
  };
  return {
    via: `the Backend API at ${apiUrl}`,
    async list(opts) {
      const q = new URLSearchParams({ limit: String(opts.limit), order_by: '+created_at' });
      if (opts.status) q.set('status', opts.status);
      if (opts.query) q.set('query', opts.query);
      const page = await call<{ data: WaitlistEntrySummary[]; total_count: number }>(
        'GET',
        `/v1/waitlist_entries?${q}`,
      );
      return { data: page.data, total: page.total_count };
    },
    async invite(idOrEmail) {
      return call('POST', `/v1/waitlist_entries/${encodeURIComponent(await idOf(idOrEmail))}/invite`, {});
    },
    async reject(idOrEmail) {
      return call('POST', `/v1/waitlist_entries/${encodeURIComponent(await idOf(idOrEmail))}/reject`, {});
    },
    close: async () => {},
  };
}
