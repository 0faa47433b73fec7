import type { IdentityConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { ClerkError } from '../errors.ts';
import { createActorToken, revokeActorToken } from '../impersonation/actor-tokens.ts';
import type { UserRow } from '../store/rows.ts';
import { emailAddressesOf, findUserByEmail, findUserById } from '../store/users.ts';
import { CliError, isUserId, type ActorTokenAdmin, type UserSummary } from './actor-token-admin.ts';

/** Straight on the instance's database, with the same services as the Backend API. */
export async function databaseAdmin(
  db: Database,
  config: IdentityConfig,
  via: string,
): Promise<ActorTokenAdmin> {
  // A database the server has not started on since actor tokens arrived gets their table now.
  await migrate(db);
  const deps = { config, fapiBase: `${config.publicUrl}${config.fapiPath}` };
  const summary = async (user: UserRow): Promise<UserSummary> => {
    const emails = (await emailAddressesOf(db, [user.id])).get(user.id) ?? [];
    const primary = emails.find((e) => e.id === user.primary_email_address_id) ?? emails[0];
    return {
      id: user.id,
      name: [user.first_name, user.last_name].filter(Boolean).join(' ') || null,
      email: primary?.email_address ?? null,
    };
  };
  return {
    via,
    async findUser(idOrEmail) {
      const user = isUserId(idOrEmail)
        ? await findUserById(db, idOrEmail)
        : await findUserByEmail(db, idOrEmail);
      return user ? summary(user) : null;
    },
    async createActorToken(input) {
      const issued = await clerkErrorsAsCliErrors(() =>
        db.transaction((tx) =>
          createActorToken(
            tx,
            deps,
            {
              userId: input.userId,
              actor: { sub: input.actorId },
              expiresInSeconds: input.expiresInSeconds,
              sessionMaxDurationInSeconds: input.sessionMaxDurationInSeconds,
            },
            new Date(),
          ),
        ),
      );
      return { id: issued.actorToken.id, url: issued.url };
    },
    async revokeActorToken(id) {
      const revoked = await clerkErrorsAsCliErrors(() =>
        db.transaction((tx) => revokeActorToken(tx, id, new Date())),
      );
      return { id: revoked.id, status: revoked.status };
    },
    close: () => db.close(),
  };
}

async function clerkErrorsAsCliErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ClerkError) throw new CliError(err.longMessage);
    throw err;
  }
}
