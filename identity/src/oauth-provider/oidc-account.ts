import type { Account, FindAccount } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { userImageJSON, type ImageUrls } from '../serializers/user.ts';
import type { UserRow } from '../store/rows.ts';
import { emailAddressesOf, findUserById } from '../store/users.ts';

/** Whether the user's OAuth codes and tokens may still act for them: not banned, not locked. */
export function mayUseOAuthTokens(user: UserRow, now: Date): boolean {
  return !user.banned && !(user.locked_until && user.locked_until > now);
}

/**
 * The instance's user as oidc-provider's account: `sub` is the user id, as in the session tokens. A user
 * deleted, banned or locked has no account, so its codes, refresh tokens and access tokens stop working at
 * the next use (the token endpoint and userinfo ask for the account each time).
 */
export function findAccountIn(db: Database, urls: ImageUrls): FindAccount {
  return async (_ctx, sub) => {
    const user = await findUserById(db, sub);
    if (!user || !mayUseOAuthTokens(user, new Date())) return undefined;
    const account: Account = {
      accountId: user.id,
      async claims() {
        const emails = (await emailAddressesOf(db, [user.id])).get(user.id) ?? [];
        const primary = emails.find((e) => e.id === user.primary_email_address_id);
        const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
        return {
          sub: user.id,
          ...(primary ? { email: primary.email_address, email_verified: primary.verified_at !== null } : {}),
          ...(name ? { name } : {}),
          ...(user.first_name ? { given_name: user.first_name } : {}),
          ...(user.last_name ? { family_name: user.last_name } : {}),
          ...(user.username ? { preferred_username: user.username } : {}),
          picture: userImageJSON(user, urls).image_url,
          updated_at: Math.floor(user.updated_at.getTime() / 1000),
          public_metadata: user.public_metadata,
          private_metadata: user.private_metadata,
        };
      },
    };
    return account;
  };
}
